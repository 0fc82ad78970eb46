// SPDX-License-Identifier: MIT
// The window as a user drives it, under the offscreen platform: clicks, keys, drops, the table.
#include "analysis/findings/findings.h"
#include "analysis/time/rangestats.h"
#include "base/unitstext.h"
#include "common/backgroundtask.h"
#include "common/elidedlabel.h"
#include "common/qstrings.h"
#include "common/slicecolors.h"
#include "common/timeformat.h"
#include "compare/comparisonview.h"
#include "export/pairgroups.h"
#include "export/pairtable.h"
#include "export/rangetext.h"
#include "session/traceexports.h"
#include "table/tablemodel.h"
#include "testutil.h"
#include "timeline/selectionlinks.h"
#include "timeline/timelineview.h"
#include "trace/chartsview.h"
#include "trace/detailspanel.h"
#include "trace/diagnosticsbanner.h"
#include "trace/findingspage.h"
#include "trace/healthpanel.h"
#include "trace/kerneltablepage.h"
#include "trace/pairtablepage.h"
#include "trace/summarypage.h"
#include "trace/tracetab.h"
#include "tracequery.h"
#include "window/loadqueue.h"
#include "window/mainwindow.h"
#include "window/traceloader.h"
#include "window/welcomepage.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QCommandLinkButton>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QToolTip>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUrl>

using namespace ks;

namespace {

QString nccl()
{
    return test::sharedTracesDir() + QStringLiteral("/hta_nccl_parser_config_nccl_data.json.gz");
}

SliceId findRowForward(const OpGraph &g, const std::string &name, const std::string &ts)
{
    const PairTable table(g);
    for (size_t r = 0; r < table.rowCount(); ++r) {
        if (table.text(r, PairTable::FwdName) == name && table.text(r, PairTable::FwdTs) == ts)
            return g.rows()[r].forward;
    }
    return kNoSlice;
}

/*!
 * Fails unless the selection of \a timeline, its counterparts and both ends of each of its
 * arrows lie inside the timeline's picture (below the ruler, above the bottom edge).
 */
void verifyArrowsInView(TimelineView &timeline, const LoadedTrace &trace, SliceId selected)
{
    SelectionLinks links(*trace.model, *trace.graph);
    links.update(selected);
    std::vector<SliceId> ends {selected};
    ends.insert(ends.end(), links.counterparts().begin(), links.counterparts().end());
    for (const SelectionLinks::Arrow &arrow : links.arrows()) {
        ends.push_back(arrow.from);
        ends.push_back(arrow.to);
    }
    QVERIFY(links.arrows().size() >= 2);
    for (SliceId s : ends) {
        const std::optional<QRectF> r = timeline.sliceRect(s);
        QVERIFY2(r && r->top() >= TimelineView::kRulerHeight && r->bottom() <= timeline.height(),
            qPrintable(QStringLiteral("%1 out of view")
                           .arg(QString::fromUtf8(trace.model->sliceName(s).data(),
                               qsizetype(trace.model->sliceName(s).size())))));
    }
}

//! Opens \a path in \a window and waits for its tab.
TraceTab *openAndWait(MainWindow &window, const QString &path)
{
    QSignalSpy opened(&window, &MainWindow::traceOpened);
    window.openFiles({path});
    if (!opened.wait(120000))
        return nullptr;
    return opened.takeFirst().at(0).value<TraceTab *>();
}

bool near(QColor a, QColor b, int tolerance = 40)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green())
        + std::abs(a.blue() - b.blue())
        <= tolerance;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
    QString m_demo;

private slots:
    void initTestCase()
    {
        qRegisterMetaType<ks::TraceTab *>();
        qRegisterMetaType<ks::ComparisonView *>();
        m_demo = test::tempDir() + QStringLiteral("/demo.pt.trace.json.gz");
        QCOMPARE(test::run(test::gentracePath(), {m_demo}).exitCode, 0);
        // Folders remembered by an earlier run must not steer the dialogs of this one.
        QSettings().remove(QStringLiteral("dialogs"));
    }

    // Issue: click a known forward op → selected; J → its backward node, in view; Alt+Left → back.
    void clickJumpAndBackOnSharedTrace()
    {
        if (test::sharedTracesDir().isEmpty())
            QSKIP("../shared/traces is absent");
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        TraceTab *tab = openAndWait(window, nccl());
        QVERIFY(tab);
        const LoadedTrace &trace = tab->selection()->trace();
        // Verified by hand from the JSON (see tst_sharedtraces): this conv2d's node is
        // ConvolutionBackward0 at ts 4458676605673.461 on the autograd thread.
        const SliceId conv = findRowForward(*trace.graph, "aten::conv2d", "4458676456881.997");
        QVERIFY(conv != kNoSlice);
        TimelineView *timeline = tab->timeline();
        timeline->zoomToInterval(trace.model->slices.start[conv], trace.model->slices.end(conv));
        timeline->revealSlice(conv);
        const auto point = timeline->slicePoint(conv);
        QVERIFY(point);
        // The pixel really shows the op: its colour is the op's colour.
        const QImage before = timeline->grab().toImage();
        QVERIFY(near(before.pixelColor(*point),
            SliceColors::forStyle(SliceStyle::Forward, "aten::conv2d"), 12));
        QTest::mouseClick(timeline, Qt::LeftButton, {}, *point);
        QCOMPARE(tab->selection()->current(), conv);

        QTest::keyClick(timeline, Qt::Key_J);
        const SliceId node = tab->selection()->current();
        QCOMPARE(std::string(trace.model->sliceName(node)), std::string("ConvolutionBackward0"));
        QCOMPARE(writtenTs(*trace.model, node), std::string("4458676605673.461"));
        const double t = double(trace.model->slices.start[node] - trace.model->minTime);
        QVERIFY(t >= timeline->rangeStart() && t <= timeline->rangeStart() + timeline->rangeSpan());
        QVERIFY(timeline->slicePoint(node));

        QTest::keyClick(&window, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(tab->selection()->current(), conv);
        QTest::keyClick(&window, Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(tab->selection()->current(), node);
    }

    /*
     * Issue #31: on with_stack traces (the demo has nn.Module frames; the real MI300X trace
     * dozens of Python levels), selecting an op as a table does, then J, brings the op, its
     * counterpart and every end of their arrows (kernels on the GPU lanes) into the picture.
     */
    void arrowsOfASelectionStayInViewAfterJ_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("index"); // which aten::conv2d, in time order
        QTest::newRow("demo") << m_demo << 3;
        if (!test::sharedTracesDir().isEmpty())
            QTest::newRow("mi300 with_stack") << test::sharedTracesDir()
                    + QStringLiteral("/tl_mi300_ddp_resnet18_no_pool_train_resnet18.json.gz")
                                              << 5;
    }

    void arrowsOfASelectionStayInViewAfterJ()
    {
        QFETCH(QString, path);
        QFETCH(int, index);
        MainWindow window;
        window.resize(1500, 950);
        window.show();
        TraceTab *tab = openAndWait(window, path);
        QVERIFY(tab);
        const LoadedTrace &trace = tab->selection()->trace();
        std::vector<SliceId> convs;
        for (const PairRow &row : trace.graph->rows()) {
            if (row.forward != kNoSlice && trace.model->sliceName(row.forward) == "aten::conv2d")
                convs.push_back(row.forward);
        }
        std::sort(convs.begin(), convs.end(), [&](SliceId a, SliceId b) {
            return trace.model->slices.start[a] < trace.model->slices.start[b];
        });
        QVERIFY(convs.size() > size_t(index));
        TimelineView &timeline = *tab->timeline();
        tab->selection()->select(convs[size_t(index)]);
        verifyArrowsInView(timeline, trace, convs[size_t(index)]);
        QTest::keyClick(&timeline, Qt::Key_J);
        const SliceId node = tab->selection()->current();
        QVERIFY(node != convs[size_t(index)]);
        verifyArrowsInView(timeline, trace, node);
    }

    // Issue: the pixels between a selected pair contain the arrow colour.
    void selectedPairDrawsItsArrow()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        const OpGraph &g = *tab->selection()->trace().graph;
        const PairRow &row = g.rows().front();
        tab->selection()->select(row.forward);
        tab->timeline()->fitSelection();
        const SliceId node = g.nodes()[g.nodesOf(row).front()].node;
        const auto a = tab->timeline()->slicePoint(row.forward);
        const auto b = tab->timeline()->slicePoint(node);
        QVERIFY(a && b);
        const QImage image = tab->timeline()->grab().toImage();
        int arrowPixels = 0;
        const QRect between = QRect(*a, *b).normalized().adjusted(-2, -2, 2, 2);
        for (int y = between.top(); y <= between.bottom(); ++y)
            for (int x = between.left(); x <= between.right(); ++x)
                arrowPixels += near(image.pixelColor(x, y), SliceColors::pairArrow(), 30);
        QVERIFY2(arrowPixels > 20, qPrintable(QString::number(arrowPixels)));
        // With nothing selected, no arrow colour there.
        tab->selection()->select(kNoSlice);
        const QImage plain = tab->timeline()->grab().toImage();
        int plainPixels = 0;
        for (int y = between.top(); y <= between.bottom(); ++y)
            for (int x = between.left(); x <= between.right(); ++x)
                plainPixels += near(plain.pixelColor(x, y), SliceColors::pairArrow(), 30);
        QVERIFY(plainPixels < arrowPixels / 4);
    }

    // Issue: sort by backward GPU time descending → the first row is the maximum; filter "conv".
    void sortAndFilterPairTable()
    {
        MainWindow window;
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        tab->bottomTabs()->setCurrentIndex(1); // Op pairs, after the Findings: made now
        QApplication::processEvents(); // and laid out, as before the user's next click
        const OpGraph &g = *tab->selection()->trace().graph;
        TimeNs maxBwd = 0;
        for (const PairRow &row : g.rows())
            maxBwd = std::max(maxBwd, row.backwardGpu.time);
        QTableView *view = tab->pairs()->view();
        view->sortByColumn(PairTable::BwdGpuUs, Qt::DescendingOrder);
        QCOMPARE(view->model()->index(0, PairTable::BwdGpuUs).data().toString(),
            QString::fromStdString(microsText(maxBwd)));
        // Clicking the header sorts too: a numeric column largest first, then ascending; a name
        // column A to Z first.
        const auto click = [&](int column) {
            const int x = view->horizontalHeader()->sectionViewportPosition(column) + 5;
            QTest::mouseClick(
                view->horizontalHeader()->viewport(), Qt::LeftButton, {}, QPoint(x, 5));
        };
        const auto ends = [&](int column) {
            const QAbstractItemModel *model = view->model();
            return std::pair(model->index(0, column).data(TableModel::SortRole),
                model->index(model->rowCount() - 1, column).data(TableModel::SortRole));
        };
        click(PairTable::FwdGpuUs);
        QCOMPARE(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        QVERIFY(ends(PairTable::FwdGpuUs).first.toDouble()
            > ends(PairTable::FwdGpuUs).second.toDouble());
        click(PairTable::FwdGpuUs);
        QVERIFY(ends(PairTable::FwdGpuUs).first.toDouble()
            < ends(PairTable::FwdGpuUs).second.toDouble());
        click(PairTable::FwdName);
        QCOMPARE(view->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
        QVERIFY(
            ends(PairTable::FwdName).first.toString() < ends(PairTable::FwdName).second.toString());

        int convRows = 0;
        const PairTable table(g);
        for (size_t r = 0; r < table.rowCount(); ++r) {
            const std::string text = table.text(r, PairTable::FwdName)
                + table.text(r, PairTable::BwdNames) + table.text(r, PairTable::Module);
            QString lower = QString::fromStdString(text).toLower();
            convRows += lower.contains(QLatin1String("conv"));
        }
        QVERIFY(convRows > 0);
        QTest::keyClicks(tab->pairs()->filterEdit(), QStringLiteral("conv"));
        QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), convRows, 120000);
        for (int r = 0; r < view->model()->rowCount(); ++r) {
            const QString text = view->model()->index(r, PairTable::FwdName).data().toString()
                + view->model()->index(r, PairTable::BwdNames).data().toString()
                + view->model()->index(r, PairTable::Module).data().toString();
            QVERIFY(text.contains(QLatin1String("conv"), Qt::CaseInsensitive));
        }
        // Selecting a row selects its forward op everywhere.
        view->selectRow(0);
        const uint32_t source = view->model()->index(0, 0).data(TableModel::SourceRowRole).toUInt();
        QCOMPARE(tab->selection()->current(), g.rows()[source].forward);
        QVERIFY(tab->timeline()->slicePoint(tab->selection()->current()));
        // Enter in the table jumps to the backward node.
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Return);
        QVERIFY(g.isBackwardNode(tab->selection()->current()));
    }

    // W/S/A/D move the timeline with the focus in a table, as J works from anywhere; the
    // filter's line edit keeps its letters.
    void wasdWorkFromTheTables()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        TimelineView *timeline = tab->timeline();
        QTableView *table = tab->pairs()->view();
        table->setFocus();
        const double span = timeline->rangeSpan();
        QTest::keyClick(table, Qt::Key_W);
        QVERIFY2(
            timeline->rangeSpan() < span * 0.9, qPrintable(QString::number(timeline->rangeSpan())));
        const double start = timeline->rangeStart();
        QTest::keyClick(table, Qt::Key_D);
        QVERIFY(timeline->rangeStart() > start);
        QLineEdit *filter = tab->pairs()->filterEdit();
        filter->setFocus();
        const double zoomed = timeline->rangeSpan();
        QTest::keyClick(filter, Qt::Key_W);
        QCOMPARE(filter->text(), QStringLiteral("w"));
        QCOMPARE(timeline->rangeSpan(), zoomed);
    }

    // The GPU events page's summary: one row per kernel name, following the step; its counts
    // add up to the kernels launched in that step, counted here; a double-click lists them.
    void kernelSummaryFollowsTheStep()
    {
        MainWindow window;
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        const OpGraph &g = *tab->selection()->trace().graph;
        const SliceTable &t = g.model().slices;
        KernelTablePage *page = tab->kernels();
        page->setMode(KernelTablePage::Summary);
        QVERIFY(page->summaryModel());
        QCOMPARE(page->view()->model(), page->summaryModel());
        const int64_t step = g.steps().back().number;
        page->setStepNumber(step);
        int launched = 0;
        for (SliceId k : g.gpuEvents()) {
            const SliceId launch = g.launchOf(k);
            launched += t.kind[k] == EventKind::Kernel && launch != kNoSlice
                && g.stepAt(t.start[launch]) == step;
        }
        TableModel *summary = page->summaryModel();
        QTRY_VERIFY(!summary->filterPending());
        int counted = 0;
        for (int r = 0; r < summary->rowCount(); ++r)
            counted += summary->index(r, 2).data().toInt(); // count
        QCOMPARE(counted, launched);
        emit page->view()->doubleClicked(summary->index(0, 0));
        QCOMPARE(page->mode(), KernelTablePage::Events);
        QTRY_VERIFY(!page->eventsModel()->filterPending());
        // The kernel's events of that step: as many as the summary counted.
        QTRY_COMPARE(page->eventsModel()->rowCount(), summary->index(0, 2).data().toInt());
    }

    /*
     * Issue #57: hovering a slice says its step, its pair (forward op, side, both sides' GPU
     * time) and, for GPU work, its side, without changing the selection.
     */
    void hoverOnASliceNamesItsStepAndPair()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        const OpGraph &g = *tab->selection()->trace().graph;
        const PairRow &row = g.rows().front();
        QVERIFY(row.forward != kNoSlice && row.nodeCount > 0);
        TimelineView *timeline = tab->timeline();
        const SliceId selected = tab->selection()->current();
        auto hover = [&](SliceId s) {
            const SliceTable &t = g.model().slices;
            timeline->zoomToInterval(t.start[s] - t.dur[s], t.start[s] + 2 * t.dur[s]);
            timeline->revealSlice(s);
            QApplication::processEvents();
            const std::optional<QPoint> at = timeline->slicePoint(s);
            if (!at)
                return QString();
            QHelpEvent help(QEvent::ToolTip, *at, timeline->mapToGlobal(*at));
            QApplication::sendEvent(timeline, &help);
            return QToolTip::text();
        };
        const TimeNs start = g.model().slices.start[row.forward];
        const QString forward = hover(row.forward);
        QVERIFY2(forward.contains(QStringLiteral("step: ProfilerStep#%1").arg(g.stepAt(start)))
                && forward.contains(QStringLiteral("(forward side)"))
                && forward.contains(formatDuration(double(row.forwardGpu.time))),
            qPrintable(forward));
        const QString backward = hover(g.nodes()[g.rowNodes()[row.firstNode]].node);
        QVERIFY2(backward.contains(QStringLiteral("(backward side)"))
                && backward.contains(toQString(g.model().sliceName(row.forward))),
            qPrintable(backward));
        SliceId kernel = kNoSlice;
        for (SliceId k : g.gpuEvents())
            if (g.rowOf(k) == 0 && g.isForwardSide(k))
                kernel = k;
        QVERIFY(kernel != kNoSlice);
        const QString gpu = hover(kernel);
        QVERIFY2(gpu.contains(QStringLiteral("side: forward")), qPrintable(gpu));
        QCOMPARE(tab->selection()->current(), selected);
    }

    /*
     * Issue #57: the Runtime API and Operators pages show the exports' rows, summed on a pool
     * thread when shown, and follow the toolbar's step: their counts equal the calls and ops
     * counted directly in the model, for the whole trace and for the last step.
     */
    void apiAndOperatorPagesFollowTheStep()
    {
        MainWindow window;
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        const OpGraph &g = *tab->selection()->trace().graph;
        const SliceTable &t = g.model().slices;
        auto counted = [&](EventKind kind, int64_t step) {
            int n = 0;
            for (SliceId s = 0; s < t.size(); ++s)
                n += t.kind[s] == kind && (step == kNoValue || g.stepAt(t.start[s]) == step);
            return n;
        };
        auto summed = [](SummaryPage *page, int column) {
            int n = 0;
            for (int r = 0; r < page->model()->rowCount(); ++r)
                n += page->model()->index(r, column).data().toInt();
            return n;
        };
        auto *steps = tab->findChild<QComboBox *>(QStringLiteral("stepSelector"));
        QVERIFY(steps);
        for (const bool lastStep : {false, true}) {
            const int64_t step = lastStep ? g.steps().back().number : kNoValue;
            steps->setCurrentIndex(lastStep ? steps->count() - 1 : 0);
            emit steps->activated(steps->currentIndex());
            for (SummaryPage *page : {tab->apiSummary(), tab->operators()}) {
                tab->bottomTabs()->setCurrentWidget(page);
                QTRY_VERIFY_WITH_TIMEOUT(!page->building() && page->model(), 30000);
                QTRY_VERIFY(!page->model()->filterPending());
                const bool api = page == tab->apiSummary();
                // count (API) and calls (Operators) are the third column of both exports.
                QCOMPARE(
                    summed(page, 2), counted(api ? EventKind::Runtime : EventKind::CpuOp, step));
            }
        }
        // By name and input dims: more rows, the same calls.
        SummaryPage *ops = tab->operators();
        const int byName = ops->model()->rowCount();
        ops->setMode(1);
        QTRY_VERIFY_WITH_TIMEOUT(!ops->building(), 30000);
        QTRY_VERIFY(!ops->model()->filterPending());
        QVERIFY(ops->model()->rowCount() > byName);
        QCOMPARE(summed(ops, 2), counted(EventKind::CpuOp, g.steps().back().number));
    }

    // The tables show times since the trace's start, as the timeline's ruler does; the file's
    // ts stays in the tooltip and in every export.
    void tablesShowTimesSinceTheStart()
    {
        MainWindow window;
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        const LoadedTrace &trace = tab->selection()->trace();
        const TraceModel &m = *trace.model;
        TableModel *kernels = tab->kernels()->model();
        QVERIFY(kernels->rowCount() > 0);
        for (int r : {0, kernels->rowCount() - 1}) {
            const SliceId g = trace.graph->gpuEvents()[kernels->sourceRow(r)];
            const QModelIndex ts = kernels->index(r, KernelTable::Ts);
            QCOMPARE(ts.data().toString(), formatDuration(double(m.slices.start[g] - m.minTime)));
            QVERIFY(ts.data(Qt::ToolTipRole)
                        .toString()
                        .contains(QString::fromStdString(writtenTs(m, g))));
            // Exports keep the file's ts.
            QCOMPARE(
                kernels->table().text(kernels->sourceRow(r), KernelTable::Ts), writtenTs(m, g));
        }
        // Sorted by start, the first pair is the earliest forward op.
        TimeNs earliest = m.maxTime;
        for (const PairRow &row : trace.graph->rows())
            if (row.forward != kNoSlice)
                earliest = std::min(earliest, m.slices.start[row.forward]);
        TableModel *pairs = tab->pairs()->model();
        pairs->sort(PairTable::FwdTs, Qt::AscendingOrder);
        QCOMPARE(pairs->index(0, PairTable::FwdTs).data().toString(),
            formatDuration(double(earliest - m.minTime)));
        QCOMPARE(pairs->headerData(PairTable::FwdTs, Qt::Horizontal, Qt::DisplayRole).toString(),
            QStringLiteral("Forward start"));
    }

    void groupModeAggregates()
    {
        MainWindow window;
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        tab->pairs()->setGroupMode(true);
        const QAbstractItemModel *model = tab->pairs()->view()->model();
        int total = 0;
        for (int r = 0; r < model->rowCount(); ++r)
            total += model->index(r, 2).data().toInt(); // count column
        QCOMPARE(size_t(total), tab->selection()->trace().graph->rows().size());
        QVERIFY(model->rowCount() < total);
        // Read left to right: what and how many, then GPU time, CPU durations last.
        const QHeaderView *header = tab->pairs()->view()->horizontalHeader();
        QStringList order;
        for (int visual = 0; visual < 7; ++visual)
            order << model->headerData(header->logicalIndex(visual), Qt::Horizontal).toString();
        QCOMPARE(order,
            QStringList({QStringLiteral("Forward op"), QStringLiteral("Count"),
                QStringLiteral("Backward nodes"), QStringLiteral("Forward GPU total (µs)"),
                QStringLiteral("Backward GPU total (µs)"), QStringLiteral("Forward GPU mean (µs)"),
                QStringLiteral("Backward GPU mean (µs)")}));
        // 13 columns placed first (names, count, GPU time, events, inputs, link) and the two
        // recompute ones beside the GPU times when there is checkpointing; then the CPU.
        const bool recompute = !tab->selection()->trace().graph->recomputations().empty();
        QCOMPARE(header->visualIndex(PairGroupTable::FwdDurTotal), recompute ? 15 : 13);
        QCOMPARE(header->visualIndex(PairGroupTable::BwdDurMax), recompute ? 20 : 18);
    }

    // A narrower window: the Details dock gives way (at most 40 %, at least its minimum) and the
    // toolbar's link summary ends in "…" rather than widening the window.
    void narrowWindowKeepsDockAndSummaryReadable()
    {
        MainWindow window;
        window.resize(2600, 900);
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("detailsDock"));
        auto *summary = tab->findChild<ElidedLabel *>(QStringLiteral("linkSummary"));
        QVERIFY(dock && summary);
        QTRY_COMPARE_WITH_TIMEOUT(summary->shownText(), summary->text(), 120000);
        // The user widened the dock to 1000 px; then the window shrinks.
        window.resizeDocks({dock}, {1000}, Qt::Horizontal);
        QTRY_VERIFY_WITH_TIMEOUT(dock->width() > 900, 120000);
        window.resize(1100, 900);
        QApplication::processEvents();
        QCOMPARE(window.width(), 1100);
        QTRY_VERIFY_WITH_TIMEOUT(dock->width() <= 440, 120000);
        QVERIFY(dock->width() >= MainWindow::kDetailsMinWidth);
        QVERIFY2(summary->shownText().endsWith(QStringLiteral("…")),
            qPrintable(
                summary->shownText() + QStringLiteral(" at width %1").arg(summary->width())));
        QCOMPARE(summary->toolTip(), summary->text());
    }

    // Issue: a simulated drop of two files opens two tabs.
    void dropOfTwoFilesOpensTwoTabs()
    {
        MainWindow window;
        window.show();
        // A long name, as Kineto writes them: the tab shows its start and its end.
        const QString second = test::tempDir()
            + QStringLiteral("/kineto_resnet50_num_workers_0_worker0.1623143089861.pt.trace.json");
        QCOMPARE(test::run(
                     test::gentracePath(), {QStringLiteral("--steps"), QStringLiteral("2"), second})
                     .exitCode,
            0);
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(m_demo), QUrl::fromLocalFile(second)});
        QSignalSpy opened(&window, &MainWindow::traceOpened);
        QDragEnterEvent enter(
            QPoint(50, 50), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, 120000);
        QCOMPARE(window.tabs()->count(), 2);
        QCOMPARE(window.tabs()->tabText(0), QStringLiteral("demo"));
        QCOMPARE(window.tabs()->tabText(1), QStringLiteral("kineto_resnet50…r0.1623143089861"));
        QCOMPARE(window.tabs()->tabToolTip(1), second);
        QVERIFY(window.recentFiles().contains(second));
    }

    void failedLoadReportsFileAndOffset()
    {
        MainWindow window;
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        const QString bad
            = test::writeTemp(QStringLiteral("bad.json"), "[{\"ph\": \"X\", \"ts\": 1,");
        window.openFiles({bad});
        QVERIFY(failed.wait(120000));
        QVERIFY(failed.first().first().toString().startsWith(bad + QStringLiteral(": byte ")));
        QCOMPARE(window.tabs()->count(), 0);
        QVERIFY(window.findChild<WelcomePage *>()->isVisibleTo(&window));
    }

    // Issue #56: work off the UI thread that runs out of memory after the first frame is a
    // message, never an exception on the UI thread: its owner's failed() hears it, or without
    // one the window's status bar says it, and the window works on.
    void workerOutOfMemoryIsAMessage()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QObject owner;
        BackgroundTask<int> task(&owner);
        QString heard;
        bool done = false;
        auto outOfMemory = [](const std::atomic<bool> &) -> int { throw std::bad_alloc(); };
        task.run(
            outOfMemory, [&](int) { done = true; }, [&](const QString &why) { heard = why; });
        QTRY_COMPARE(heard, QStringLiteral("not enough memory"));
        task.run(outOfMemory, [&](int) { done = true; });
        QTRY_COMPARE(window.statusBar()->currentMessage(),
            QStringLiteral("A background job failed: not enough memory"));
        QVERIFY(!done);
        QVERIFY(window.isVisible());
        // And the next job of the same task runs as any other.
        task.run([](const std::atomic<bool> &) { return 7; }, [&](int v) { done = v == 7; });
        QTRY_VERIFY(done);
    }

    // Issue #31: the window opens inside the screen's room (the offscreen screen is 800 × 600;
    // it opened at 1500 × 950 whatever the screen).
    void windowFitsTheScreen()
    {
        MainWindow window;
        const QSize room = window.screen()->availableGeometry().size();
        QVERIFY2(window.width() <= room.width() && window.height() <= room.height(),
            qPrintable(QStringLiteral("%1 × %2 in %3 × %4")
                           .arg(window.width())
                           .arg(window.height())
                           .arg(room.width())
                           .arg(room.height())));
    }

    // The welcome page on a first start (no Recent list): every text has the height it needs.
    void welcomePageIsNotClipped()
    {
        MainWindow window;
        window.resize(1500, 950);
        window.show();
        QApplication::processEvents();
        auto *welcome = window.findChild<WelcomePage *>();
        QVERIFY(welcome && welcome->isVisible());
        for (QWidget *w : welcome->findChildren<QWidget *>()) {
            if (!w->isVisible() || !w->hasHeightForWidth())
                continue;
            QVERIFY2(w->height() >= w->heightForWidth(w->width()),
                qPrintable(QStringLiteral("%1: %2 px tall, needs %3")
                               .arg(QString::fromLatin1(w->metaObject()->className()))
                               .arg(w->height())
                               .arg(w->heightForWidth(w->width()))));
        }
    }

    // Save dialogs open where the last trace came from and propose a name made from it.
    void saveDialogsProposeANameNextToTheTrace()
    {
        MainWindow window;
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        QAction *pairsCsv = nullptr;
        for (QAction *a : window.findChildren<QAction *>())
            if (a->text() == QStringLiteral("Pair Table as CSV…"))
                pairsCsv = a;
        QVERIFY(pairsCsv && pairsCsv->isEnabled());
        QString proposed, directory;
        QTimer::singleShot(0, &window, [&] {
            QWidget *modal = QApplication::activeModalWidget();
            if (auto *dialog = qobject_cast<QFileDialog *>(modal)) {
                proposed = dialog->selectedFiles().value(0);
                directory = dialog->directory().absolutePath();
            }
            if (modal)
                modal->close(); // never left open: the test fails below instead of hanging
        });
        pairsCsv->trigger();
        QCOMPARE(QFileInfo(proposed).fileName(), QStringLiteral("demo-pairs.csv"));
        QCOMPARE(directory, QFileInfo(m_demo).absolutePath());
    }

    /*
     * Issue #56: Export > Trace Table has an entry for every table of kTraceExports, the table
     * the command line's parser reads; each writes the bytes `kinetoscope --export-NAME` writes.
     */
    void traceTablesFromTheExportMenu()
    {
        MainWindow window;
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        for (const TraceExport &e : kTraceExports) {
            const QString option = QString::fromLatin1(e.option.data(), qsizetype(e.option.size()));
            const QString title = QString::fromUtf8(e.title.data(), qsizetype(e.title.size()));
            QAction *entry = nullptr;
            for (QAction *a : window.findChildren<QAction *>())
                if (a->text() == title + QStringLiteral("…"))
                    entry = a;
            QVERIFY2(entry && entry->isEnabled(), qPrintable(title));
            const QString gui = test::tempDir() + QStringLiteral("/menu-%1.csv").arg(option);
            QFile::remove(gui);
            QTimer::singleShot(0, &window, [&] {
                QWidget *modal = QApplication::activeModalWidget();
                if (auto *dialog = qobject_cast<QFileDialog *>(modal)) {
                    dialog->selectFile(gui);
                    static_cast<QDialog *>(dialog)->accept();
                } else if (modal) {
                    modal->close();
                }
            });
            entry->trigger(); // written on a pool thread
            QTRY_COMPARE_WITH_TIMEOUT(
                window.statusBar()->currentMessage(), QStringLiteral("Saved %1").arg(gui), 60000);
            const QString cli = test::tempDir() + QStringLiteral("/cli-%1.csv").arg(option);
            QStringList args {QStringLiteral("--") + option, cli, m_demo};
            if (e.kind == TraceExportKind::Live)
                args << QStringLiteral("--at") << QStringLiteral("peak");
            QCOMPARE(test::run(test::appPath(), args).exitCode, 0);
            QFile a(gui), b(cli);
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            const QByteArray written = a.readAll();
            QVERIFY2(written.count('\n') > 1, qPrintable(option)); // a header and rows
            QCOMPARE(written, b.readAll());
        }
    }

    // Export > Report as HTML… and File > Export Report… write the current trace's report where
    // the dialog says, PDF or HTML as its name says.
    void reportFromTheExportMenu()
    {
        MainWindow window;
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        // Export > Report as PDF…, then File > Export Report… with the HTML filter chosen and a
        // name typed without a suffix: the filter's suffix is added, and HTML is written.
        for (const bool fromFile : {false, true}) {
            const QString text
                = fromFile ? QStringLiteral("Export Report…") : QStringLiteral("Report as PDF…");
            QAction *report = nullptr;
            for (QAction *a : window.findChildren<QAction *>())
                if (a->text().remove(QLatin1Char('&')) == text)
                    report = a;
            QVERIFY(report && report->isEnabled());
            const QString stem = test::tempDir() + QStringLiteral("/menu-report-%1").arg(fromFile);
            const QString path
                = stem + (fromFile ? QStringLiteral(".html") : QStringLiteral(".pdf"));
            QTimer::singleShot(0, &window, [&] {
                QWidget *modal = QApplication::activeModalWidget();
                if (auto *dialog = qobject_cast<QFileDialog *>(modal)) {
                    if (fromFile) {
                        const QString html = dialog->nameFilters().value(1);
                        dialog->selectNameFilter(html);
                        emit dialog->filterSelected(html); // as when the user picks it
                    }
                    dialog->selectFile(fromFile ? stem : path);
                    static_cast<QDialog *>(dialog)->accept(); // public there, virtual
                } else if (modal) {
                    modal->close();
                }
            });
            report->trigger(); // gathered on a pool thread, then written
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(path), 60000);
            QFile written(path);
            QVERIFY2(written.open(QIODevice::ReadOnly), qPrintable(path));
            const QByteArray head = written.read(64);
            QVERIFY2(head.startsWith(fromFile ? "<!DOCTYPE html>" : "%PDF-"), head.constData());
        }
    }

    // With no tab the window shows the welcome page: at start, and after the last tab closes,
    // listing the trace just closed among the recent files; a click there opens it again.
    void welcomePageWhenNoTabIsOpen()
    {
        MainWindow window;
        window.show();
        auto *welcome = window.findChild<WelcomePage *>();
        QVERIFY(welcome && welcome->isVisible());
        QVERIFY(window.findChild<QCommandLinkButton *>(QStringLiteral("welcomeDemo")));
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        QVERIFY(!welcome->isVisible());
        emit window.tabs()->tabCloseRequested(0);
        QCOMPARE(window.tabs()->count(), 0);
        QVERIFY(welcome->isVisible());
        QPushButton *recent = nullptr;
        for (auto *b : welcome->findChildren<QPushButton *>())
            if (b->toolTip() == QFileInfo(m_demo).absoluteFilePath())
                recent = b;
        QVERIFY(recent);
        QSignalSpy opened(&window, &MainWindow::traceOpened);
        recent->click();
        QVERIFY(opened.wait(120000));
        QVERIFY(!welcome->isVisible());
    }

    // A cut-off file opens with every complete event and says so in a banner; a clean one has none.
    void truncatedTraceShowsABanner()
    {
        QFile in(m_demo);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray gz = in.readAll();
        const QString cut
            = test::writeTemp(QStringLiteral("cut.pt.trace.json.gz"), gz.left(gz.size() / 2));
        MainWindow window;
        window.show();
        TraceTab *tab = openAndWait(window, cut);
        QVERIFY(tab);
        QVERIFY(tab->selection()->trace().model->truncated);
        auto *banner = tab->findChild<QWidget *>(QStringLiteral("diagnosticsBanner"));
        QVERIFY(banner);
        QVERIFY(banner->isVisible());
        // The dialog lists the counted warnings first, each with its description.
        const QString summary = DiagnosticsBanner::summary(tab->selection()->trace());
        const DiagnosticInfo &truncated = info(Diag::Truncated);
        QVERIFY2(summary.startsWith(QStringLiteral("<p>Warnings")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("<b>%1</b> × 1 — %2")
                                      .arg(QString::fromUtf8(truncated.name.data()),
                                          QString::fromUtf8(truncated.description.data()))),
            qPrintable(summary));
        const qsizetype informational = summary.indexOf(QStringLiteral("Informational"));
        QVERIFY(informational < 0
            || informational > summary.indexOf(QString::fromUtf8(truncated.name.data())));
        TraceTab *clean = openAndWait(window, m_demo);
        QVERIFY(clean);
        QVERIFY(!clean->findChild<QWidget *>(QStringLiteral("diagnosticsBanner")));
    }

    /*
     * Issue #58: a trace with steps opens on its Findings page, which lists, in the background,
     * what findStepFindings gives for the first step's path (as --findings writes it): each row's
     * saving and rule in rank order; a click on an event of the evidence selects it.
     */
    void findingsPageComesFirstAndSelectsItsEvidence()
    {
        MainWindow window;
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        QVERIFY(tab->findings());
        QCOMPARE(tab->bottomTabs()->widget(0), tab->findings());
        QCOMPARE(tab->bottomTabs()->tabText(0), QStringLiteral("Findings"));
        QTRY_VERIFY_WITH_TIMEOUT(!tab->findings()->pending(), 60000);
        const LoadedTrace &trace = tab->selection()->trace();
        const CriticalPathAnalysis path(*trace.graph);
        const std::vector<StepFinding> expected
            = findStepFindings(path, {&trace.efficiency(), &trace.memory()});
        QVERIFY(!expected.empty());
        QTreeWidget *tree = tab->findings()->tree();
        QCOMPARE(tree->topLevelItemCount(), int(expected.size()));
        for (size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(tree->topLevelItem(int(i))->text(2), QString::fromStdString(expected[i].rule));
            QCOMPARE(tree->topLevelItem(int(i))->text(0),
                expected[i].saving ? QString::fromStdString(microsText(*expected[i].saving))
                                   : QStringLiteral("—"));
        }
        // The first finding's first event: selected on a click.
        QTreeWidgetItem *first = tree->topLevelItem(0);
        QTreeWidgetItem *event = nullptr;
        for (int c = 0; c < first->childCount() && !event; ++c)
            if (first->child(c)->text(2) == QLatin1String("event"))
                event = first->child(c);
        QVERIFY(event);
        emit tree->itemClicked(event, 3);
        QCOMPARE(tab->selection()->current(), expected[0].evidence[0].event);
    }

    /*
     * Issue #59: a trace without steps opens on its Op pairs page, whose columns (the whole
     * trace's critical path, efficiency) are worked out after the first frame: a line says so
     * until they come, then the table takes its place.
     */
    void pairsPageComesWhenItsColumnsAreReady()
    {
        const QString path = test::writeTemp(
            QStringLiteral("nosteps.json"), test::kernelBeforeLaunchTrace().c_str());
        MainWindow window;
        TraceTab *tab = openAndWait(window, path);
        QVERIFY(tab);
        QVERIFY(!tab->findings());
        QWidget *page = tab->bottomTabs()->widget(0);
        QCOMPARE(tab->bottomTabs()->tabText(0), QStringLiteral("Op pairs"));
        QTRY_VERIFY_WITH_TIMEOUT(!tab->pagesPending(), 60000);
        QVERIFY(page->findChild<PairTablePage *>());
        QVERIFY(page->findChildren<QLabel *>(QString(), Qt::FindDirectChildrenOnly).isEmpty());
    }

    // A kernel that starts 5 µs before its launch: the banner names the health warning, its
    // Health… panel lists the findings of --check (the same list), and a click on the finding
    // selects its first instance, the kernel.
    void healthPanelSelectsTheFirstInstance()
    {
        const QString path = test::writeTemp(
            QStringLiteral("early.json"), test::kernelBeforeLaunchTrace().c_str());
        MainWindow window;
        window.show();
        TraceTab *tab = openAndWait(window, path);
        QVERIFY(tab);
        auto *banner = tab->findChild<QWidget *>(QStringLiteral("diagnosticsBanner"));
        QVERIFY(banner);
        auto *label = banner->findChild<QLabel *>();
        // Issue #57: with the count the panel gives it.
        QVERIFY2(
            label->text().contains(QStringLiteral("Health: 1 warning: kernel_before_launch × 1")),
            qPrintable(label->text()));
        banner->findChild<QPushButton *>(QStringLiteral("healthButton"))->click();
        auto *panel = window.findChild<HealthPanel *>();
        QVERIFY(panel);
        QVERIFY(QTest::qWaitForWindowExposed(panel));
        const auto &findings = tab->selection()->trace().findings();
        QCOMPARE(panel->tree()->topLevelItemCount(), int(findings.size()));
        QCOMPARE(panel->tree()->topLevelItem(0)->text(0), QStringLiteral("kernel_before_launch"));
        QCOMPARE(panel->tree()->topLevelItem(0)->text(1), QStringLiteral("1"));
        const QRect row = panel->tree()->visualItemRect(panel->tree()->topLevelItem(0));
        QTest::mouseClick(panel->tree()->viewport(), Qt::LeftButton, {}, row.center());
        const TraceModel &m = *tab->selection()->trace().model;
        QCOMPARE(tab->selection()->current(), findings[0].first);
        QCOMPARE(m.sliceName(tab->selection()->current()), std::string_view("gemm"));
    }

    // A trace with information only has no banner, but View ▸ Trace Health… lists it.
    void healthPanelFromTheViewMenu()
    {
        MainWindow window;
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        QVERIFY(!tab->findChild<QWidget *>(QStringLiteral("diagnosticsBanner")));
        QAction *health = nullptr;
        for (QAction *a : window.findChildren<QAction *>())
            if (a->text() == QStringLiteral("Trace &Health…"))
                health = a;
        QVERIFY(health);
        health->trigger();
        auto *panel = window.findChild<HealthPanel *>();
        QVERIFY(panel);
        const auto &findings = tab->selection()->trace().findings();
        QVERIFY(!findings.empty());
        QVERIFY(!hasWarnings(findings));
        QCOMPARE(panel->tree()->topLevelItemCount(), int(findings.size()));
        QCOMPARE(panel->tree()->topLevelItem(0)->text(0), toQString(info(findings[0].check).name));
    }

    void cancelStopsLoading()
    {
        const QString big = test::tempDir() + QStringLiteral("/big.json");
        QCOMPARE(test::run(test::gentracePath(),
                     {QStringLiteral("--target-mb"), QStringLiteral("150"), big})
                     .exitCode,
            0);
        MainWindow window;
        QSignalSpy opened(&window, &MainWindow::traceOpened);
        window.openFiles({big});
        QVERIFY(window.isLoading());
        auto *cancel = window.findChild<QPushButton *>(QStringLiteral("cancelLoad"));
        QVERIFY(cancel);
        QTest::qWait(50);
        QTest::mouseClick(cancel, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), 120000);
        QCOMPARE(opened.count(), 0);
    }

    // A comparison with traces open in tabs compares them as they are: nothing is read again.
    void comparingReusesOpenTraces()
    {
        MainWindow window;
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        QSignalSpy compared(&window, &MainWindow::comparisonOpened);
        auto *loads = window.findChild<LoadQueue *>();
        QSignalSpy loaded(loads, &LoadQueue::traceLoaded);
        QSignalSpy progress(loads, &LoadQueue::progress);
        window.openComparison(m_demo, m_demo);
        // The comparison shows a busy bar and Cancel while it runs; no file is read.
        QCOMPARE(progress.count(), 1);
        QVERIFY(progress.first().at(0).toString().startsWith(QStringLiteral("Comparing")));
        QCOMPARE(progress.first().at(1).toInt(), -1);
        QVERIFY(
            window.findChild<QPushButton *>(QStringLiteral("cancelLoad"))->isVisibleTo(&window));
        QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 1, 120000);
        auto *view = compared.first().at(0).value<ComparisonView *>();
        QCOMPARE(&view->diff().base(), tab->selection()->trace().graph.get());
        QCOMPARE(&view->diff().candidate(), tab->selection()->trace().graph.get());
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(window.findChildren<TraceLoader *>().size(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), 120000);
    }

    // Issue: Cancel cleared the load queue but not the comparisons waiting for their traces: the
    // next comparison of the same file then fed the stale one and never opened.
    void cancelForgetsPendingComparisons()
    {
        const QString other = test::tempDir() + QStringLiteral("/two-steps.json");
        QCOMPARE(
            test::run(test::gentracePath(), {QStringLiteral("--steps"), QStringLiteral("2"), other})
                .exitCode,
            0);
        MainWindow window;
        QSignalSpy compared(&window, &MainWindow::comparisonOpened);
        window.openComparison(m_demo, m_demo);
        QVERIFY(window.isLoading());
        window.findChild<QPushButton *>(QStringLiteral("cancelLoad"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), 120000);
        window.openComparison(m_demo, other);
        QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 1, 120000);
        auto *view = compared.first().at(0).value<ComparisonView *>();
        QCOMPARE(QString::fromStdString(view->diff().candidate().model().path), other);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), 120000);
        QCOMPARE(compared.count(), 1);
    }

    // Issue: the Details toggle went out of step when the dock was closed by its own button, and
    // Back/Forward were never disabled; Export items were enabled with nothing to export.
    void actionsFollowTheWindowState()
    {
        MainWindow window;
        window.show();
        auto action = [&](const QString &text) -> QAction * {
            for (QAction *a : window.findChildren<QAction *>()) {
                if (a->text().remove(QLatin1Char('&')) == text)
                    return a;
            }
            return nullptr;
        };
        QAction *details = action(QStringLiteral("Details Panel"));
        QVERIFY(details && details->isChecked());
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("detailsDock"));
        dock->close();
        QVERIFY(!details->isChecked());
        details->trigger();
        QVERIFY(dock->isVisible());

        QAction *chartPng = action(QStringLiteral("Chart as PNG…"));
        QVERIFY(chartPng && !chartPng->isEnabled()); // no trace open
        QVERIFY(!chartPng->statusTip().isEmpty());
        QAction *back = action(QStringLiteral("Back")),
                *forward = action(QStringLiteral("Forward"));
        QVERIFY(back && forward && !back->isEnabled() && !forward->isEnabled());

        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        QVERIFY(chartPng->isEnabled());
        const OpGraph &g = *tab->selection()->trace().graph;
        tab->selection()->select(g.rows()[0].forward);
        QVERIFY(!back->isEnabled()); // one step of history: nowhere to go back to
        tab->selection()->select(g.rows()[1].forward);
        QVERIFY(back->isEnabled() && !forward->isEnabled());
        back->trigger();
        QVERIFY(!back->isEnabled() && forward->isEnabled());

        // In a comparison, what applies to one trace only is disabled and says why.
        QVERIFY(window.addComparison(
            tab->selection()->tracePointer(), tab->selection()->tracePointer()));
        QVERIFY(!chartPng->isEnabled());
        QVERIFY(chartPng->statusTip().contains(QStringLiteral("comparison")));
        QVERIFY(action(QStringLiteral("Pair Table as CSV…"))->isEnabled());
    }

    void keyboardNavigation()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        TimelineView *t = tab->timeline();
        const double span = t->rangeSpan();
        const double start = t->rangeStart();
        QTest::keyClick(t, Qt::Key_W);
        QVERIFY(t->rangeSpan() < span);
        QTest::keyClick(t, Qt::Key_S);
        QTest::keyClick(t, Qt::Key_S);
        QVERIFY(t->rangeSpan() > span * 0.99);
        QTest::keyClick(t, Qt::Key_W);
        const double zoomedStart = t->rangeStart();
        QTest::keyClick(t, Qt::Key_D);
        QVERIFY(t->rangeStart() > zoomedStart);
        QTest::keyClick(t, Qt::Key_A);
        QTest::keyClick(t, Qt::Key_A);
        QVERIFY(t->rangeStart() < zoomedStart);
        QTest::keyClick(t, Qt::Key_0);
        QCOMPARE(t->rangeStart(), start);
        QCOMPARE(t->rangeSpan(), span);
        // Ctrl+wheel zooms at the cursor: the time under the cursor stays put.
        const QPoint at(TimelineView::kLabelWidth + 300, 200);
        const double before = t->rangeStart()
            + (at.x() - TimelineView::kLabelWidth) * t->rangeSpan()
                / (t->width() - TimelineView::kLabelWidth - 15);
        QWheelEvent wheel(at, t->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
            Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(t, &wheel);
        const double after = t->rangeStart()
            + (at.x() - TimelineView::kLabelWidth) * t->rangeSpan()
                / (t->width() - TimelineView::kLabelWidth - 15);
        QVERIFY(t->rangeSpan() < span);
        QVERIFY(qAbs(after - before) < t->rangeSpan() * 0.02);
        // Find: regex over names, Enter steps through the matches in time order.
        // The search runs on a worker; Enter at once steps to the first match when it is done.
        t->setFindPattern(QStringLiteral("^aten::conv2d$"));
        QCOMPARE(t->findMatchCount(), -1);
        QVERIFY(t->findNext());
        QTRY_COMPARE(t->findMatchCount(), 2 * 3); // 2 convs × 3 steps
        QCOMPARE(
            std::string(tab->selection()->trace().model->sliceName(tab->selection()->current())),
            std::string("aten::conv2d"));
        tab->selection()->select(kNoSlice);
        QVERIFY(t->findNext());
        const SliceId first = tab->selection()->current();
        QVERIFY(t->findNext());
        QVERIFY(tab->selection()->current() != first);
        QVERIFY(t->findNext(true));
        QCOMPARE(tab->selection()->current(), first);
    }

    // F, 0 and J are the window's: they work whatever has the focus (but a text field, which
    // takes them as text), the menus show them, and F fits a range measured on the ruler.
    void viewKeysWorkFromAnyFocus()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        QStringList shortcuts;
        for (QAction *a : window.findChildren<QAction *>())
            if (!a->shortcut().isEmpty() && a->text().contains(QLatin1Char('&')))
                shortcuts << a->text().remove(QLatin1Char('&')) + QLatin1Char('=')
                        + a->shortcut().toString();
        for (const char *expected :
            {"Show Everything=0", "Fit Selection or Measured Range=F", "Jump to Counterpart=J"})
            QVERIFY2(shortcuts.contains(QLatin1String(expected)),
                qPrintable(shortcuts.join(QStringLiteral(", "))));

        TimelineView *t = tab->timeline();
        const double allStart = t->rangeStart(), allSpan = t->rangeSpan();
        // From the pair table: select a pair, F frames it, J jumps to its backward node.
        QTableView *table = tab->pairs()->view();
        table->setFocus();
        table->selectRow(0);
        const SliceId fwd = tab->selection()->current();
        QVERIFY(fwd != kNoSlice);
        QTest::keyClick(table, Qt::Key_F);
        QVERIFY(t->rangeSpan() < allSpan * 0.5);
        QTest::keyClick(table, Qt::Key_J);
        QVERIFY(tab->selection()->current() != fwd);
        QVERIFY(tab->selection()->trace().graph->isBackwardNode(tab->selection()->current()));
        // From the details panel: 0 shows everything.
        window.details()->setFocus();
        QTest::keyClick(window.details(), Qt::Key_0);
        QCOMPARE(t->rangeStart(), allStart);
        QCOMPARE(t->rangeSpan(), allSpan);
        // In a text field the keys are text.
        QLineEdit *filter = tab->pairs()->filterEdit();
        filter->setFocus();
        QTest::keyClicks(filter, QStringLiteral("f0j"));
        QCOMPARE(filter->text(), QStringLiteral("f0j"));
        QCOMPARE(t->rangeSpan(), allSpan);
        filter->clear();

        // A range measured on the ruler: F fits exactly that range.
        const int x0 = TimelineView::kLabelWidth + 200, x1 = TimelineView::kLabelWidth + 500;
        const double from = t->rangeStart()
            + (x0 - TimelineView::kLabelWidth) * t->rangeSpan()
                / (t->width() - TimelineView::kLabelWidth - 15);
        QTest::mousePress(t, Qt::LeftButton, {}, QPoint(x0, 10));
        QTest::mouseMove(t, QPoint(x1, 10));
        QTest::mouseRelease(t, Qt::LeftButton, {}, QPoint(x1, 10));
        QVERIFY(t->rangeSelection());
        const auto [a, b] = *t->rangeSelection();
        QVERIFY(std::abs(a - from) < t->rangeSpan() * 0.01);
        table->setFocus();
        QTest::keyClick(table, Qt::Key_F);
        QCOMPARE(t->rangeStart(), a);
        QCOMPARE(t->rangeSpan(), b - a);

        // Escape in Find clears it and leaves it.
        tab->startFind();
        QLineEdit *find = tab->findChild<QLineEdit *>(QStringLiteral("findEdit"));
        QVERIFY(find && find->hasFocus());
        QTest::keyClicks(find, QStringLiteral("conv"));
        QTest::keyClick(find, Qt::Key_Escape);
        QVERIFY(find->text().isEmpty());
        QVERIFY(!find->hasFocus());
        QVERIFY(t->hasFocus());
    }

    /*
     * Issue #31: Shift+drag over the tracks marks a range; the details panel shows its
     * statistics (worked out on a worker), the same figures as core's rangeStats() of the range,
     * and Copy as Text copies rangeStatsText(). Esc clears the range and shows the selection.
     */
    void rangeStatisticsFromAShiftDrag()
    {
        MainWindow window;
        window.resize(1500, 950);
        window.show();
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        TimelineView *timeline = tab->timeline();
        timeline->showAll();
        const QPoint from(TimelineView::kLabelWidth + 200, timeline->height() / 2);
        const QPoint to(TimelineView::kLabelWidth + 500, timeline->height() / 2 + 40);
        QTest::mousePress(timeline, Qt::LeftButton, Qt::ShiftModifier, from);
        QMouseEvent move(QEvent::MouseMove, to, timeline->mapToGlobal(to), Qt::NoButton,
            Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(timeline, &move);
        QTest::mouseRelease(timeline, Qt::LeftButton, Qt::ShiftModifier, to);
        const auto [begin, end] = tab->selection()->range();
        const TraceModel &m = *tab->selection()->trace().model;
        const auto marked = timeline->rangeSelection();
        QVERIFY(marked);
        QCOMPARE(begin, m.minTime + TimeNs(std::llround(marked->first)));
        QCOMPARE(end, m.minTime + TimeNs(std::llround(marked->second)));
        QVERIFY(end - begin > 0);
        DetailsPanel *d = window.details();
        QTRY_VERIFY_WITH_TIMEOUT(d->topLevelItemCount() > 1, 60000);
        const RangeStats stats = rangeStats(*tab->selection()->trace().graph, begin, end);
        QVERIFY(!stats.kernels.empty() && !stats.ops.empty());
        QStringList sections;
        for (int i = 0; i < d->topLevelItemCount(); ++i)
            sections << d->topLevelItem(i)->text(0);
        QCOMPARE(sections,
            QStringList({QStringLiteral("Range"), QStringLiteral("Busy per lane"),
                QStringLiteral("GPU time"), QStringLiteral("Top kernels"),
                QStringLiteral("Top ops")}));
        QTreeWidgetItem *kernels = d->topLevelItem(3);
        QCOMPARE(kernels->child(0)->text(1), toQString(stats.kernels[0].name));
        QVERIFY(kernels->child(0)->text(0).startsWith(
            toQString(durationText(double(stats.kernels[0].time)))));
        QCOMPARE(d->topLevelItem(1)->childCount(), int(stats.lanes.size()));
        auto *copy = d->findChild<QPushButton *>(QStringLiteral("copyRangeStats"));
        QVERIFY(copy);
        copy->click();
        QCOMPARE(QApplication::clipboard()->text(), toQString(rangeStatsText(m, stats, 15)));
        // Esc clears the range: the panel shows the (empty) selection again.
        timeline->setFocus();
        QTest::keyClick(timeline, Qt::Key_Escape);
        QCOMPARE(tab->selection()->range().first, tab->selection()->range().second);
        QCOMPARE(d->topLevelItemCount(), 0);
    }

    /*
     * Issue #60: a trace cut before its GPU events (written after the host's) has its pair's GPU
     * times unknown, not 0: Details says so for the forward op's GPU and backward GPU rows.
     */
    void detailsSayGpuTimesOfACutTraceAreUnknown()
    {
        const std::string events
            = test::completeEvent("cpu_op", "aten::mm", 1, 0, 50, "\"Sequence number\":3")
            + test::completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 10, 5, "\"correlation\":1")
            + test::completeEvent(
                "cpu_op", "MmBackward0", 2, 100, 20, "\"Sequence number\":3,\"Fwd thread id\":1")
            + test::completeEvent("kernel", "gemm", 7, 20, 30, "\"correlation\":1");
        const std::string whole = test::traceWith(events.substr(0, events.size() - 1));
        const QString path = test::writeTemp(QStringLiteral("cutgpu.json"),
            QByteArray::fromStdString(whole.substr(0, whole.find("\"cat\":\"kernel\""))));
        MainWindow window;
        TraceTab *tab = openAndWait(window, path);
        QVERIFY(tab);
        QVERIFY(tab->selection()->trace().graph->stats().gpuCutOff);
        tab->selection()->select(test::find(*tab->selection()->trace().model, "aten::mm"));
        DetailsPanel *d = window.details();
        QStringList gpu;
        for (QTreeWidgetItemIterator it(d); *it; ++it)
            if ((*it)->text(0).endsWith(QLatin1String("GPU")))
                gpu << (*it)->text(0) + QStringLiteral(": ") + (*it)->text(1);
        const QString unknown = QStringLiteral("unknown: no GPU event survived the cut");
        QCOMPARE(gpu,
            QStringList({QStringLiteral("forward GPU: ") + unknown,
                QStringLiteral("backward GPU: ") + unknown}));
    }

    /*
     * Issue #32: a kernel's `occupancy` dict (2026 Kineto; keys as pytorch/kineto 032aa9ee
     * MetadataFieldCatalog.h CudaMetadataFields writes them) shows one row a key in Details.
     */
    void detailsPanelOpensADictArg()
    {
        const std::string events = test::completeEvent("cpu_op", "aten::mm", 1, 0, 50)
            + test::completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 10, 5, "\"correlation\":1")
            + test::completeEvent("kernel", "gemm", 7, 20, 30,
                "\"correlation\":1,\"priority\":-1,\"occupancy\":{"
                "\"activeBlocksPerMultiprocessor\":8,\"limitingFactors\":\"warps\"}");
        const QString path = test::writeTemp(QStringLiteral("occupancy.json"),
            QByteArray::fromStdString(test::traceWith(events.substr(0, events.size() - 1))));
        MainWindow window;
        TraceTab *tab = openAndWait(window, path);
        QVERIFY(tab);
        const TraceModel &m = *tab->selection()->trace().model;
        SliceId gemm = 0;
        while (m.sliceName(gemm) != "gemm")
            ++gemm;
        tab->selection()->select(gemm);
        DetailsPanel *d = window.details();
        QTreeWidgetItem *occupancy = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((occupancy = [&]() -> QTreeWidgetItem * {
            for (QTreeWidgetItemIterator it(d); *it; ++it)
                if ((*it)->text(0) == QLatin1String("occupancy"))
                    return *it;
            return nullptr;
        }()),
            60000);
        QCOMPARE(occupancy->childCount(), 2);
        QCOMPARE(occupancy->child(0)->text(0), QStringLiteral("activeBlocksPerMultiprocessor"));
        QCOMPARE(occupancy->child(0)->text(1), QStringLiteral("8"));
        QCOMPARE(occupancy->child(1)->text(0), QStringLiteral("limitingFactors"));
        QCOMPARE(occupancy->child(1)->text(1), QStringLiteral("warps"));
    }

    /*
     * Issue #32: a kernel replayed from a CUDA graph (`graph id`, `graph node id`, kineto#1276/
     * #1277) shows its replay in Details: the graph and node, the replay's 2 kernels and their
     * 10 + 15 = 25 µs, each node a link; with no op around cudaGraphLaunch it "ran under" the
     * Python frame.
     */
    void detailsPanelShowsTheGraphReplay()
    {
        const std::string events
            = test::completeEvent("python_function", "cuda_graph.py(208): __call__", 1, 0, 50)
            + test::completeEvent("cuda_runtime", "cudaGraphLaunch", 1, 10, 5, "\"correlation\":12")
            + test::completeEvent(
                "kernel", "k1", 7, 30, 10, "\"correlation\":12,\"graph id\":3,\"graph node id\":17")
            + test::completeEvent("kernel", "k2", 7, 45, 15,
                "\"correlation\":12,\"graph id\":3,\"graph node id\":18");
        const QString path = test::writeTemp(QStringLiteral("graph.json"),
            QByteArray::fromStdString(test::traceWith(events.substr(0, events.size() - 1))));
        MainWindow window;
        TraceTab *tab = openAndWait(window, path);
        QVERIFY(tab);
        const TraceModel &m = *tab->selection()->trace().model;
        SliceId k2 = 0;
        while (m.sliceName(k2) != "k2")
            ++k2;
        tab->selection()->select(k2);
        QStringList replay;
        for (QTreeWidgetItemIterator it(window.details()); *it; ++it) {
            // Links read "name  (duration)": the name is what the test names.
            const QString value = (*it)->text(1).section(QStringLiteral("  ("), 0, 0);
            if ((*it)->text(0) == QLatin1String("ran under"))
                replay << value;
            if ((*it)->parent() && (*it)->parent()->text(0) == QLatin1String("Graph replay"))
                replay << (*it)->text(0) + QLatin1Char('=') + value;
        }
        QCOMPARE(replay,
            QStringList({QStringLiteral("cuda_graph.py(208): __call__"),
                QStringLiteral("graph · node=3 · 18"),
                QStringLiteral("this replay=2 GPU events, %1").arg(formatDuration(25000)),
                QStringLiteral("node 17=k1"), QStringLiteral("node 18 (this)=k2")}));
    }

    void detailsPanelShowsArgsPairAndKernels()
    {
        MainWindow window;
        TraceTab *tab = openAndWait(window, m_demo);
        QVERIFY(tab);
        const OpGraph &g = *tab->selection()->trace().graph;
        const PairRow &row = g.rows().front();
        tab->selection()->select(row.forward);
        DetailsPanel *d = window.details();
        auto shown = [d] {
            QStringList texts;
            for (QTreeWidgetItemIterator it(d); *it; ++it)
                texts << (*it)->text(0) + QLatin1Char('=') + (*it)->text(1);
            return texts.join(QLatin1Char('\n'));
        };
        // The args are read back from the file on a worker, never on the UI thread: right after
        // the selection (no event processed yet) the section says so; they appear when read.
        QVERIFY2(shown().contains(QStringLiteral("reading…")), qPrintable(shown()));
        QTRY_VERIFY_WITH_TIMEOUT(shown().contains(QLatin1String("External id=")), 120000);
        const QString all = shown();
        QVERIFY(all.contains(QLatin1String("Input Dims=[[")));
        QVERIFY(all.contains(QLatin1String("link=flow")));
        QVERIFY(all.contains(QLatin1String("GPU events (")));
        // Clicking a kernel row selects that kernel.
        QTreeWidgetItem *kernelItem = nullptr;
        for (QTreeWidgetItemIterator it(d); *it; ++it) {
            if ((*it)->text(0) == QLatin1String("kernel")) {
                kernelItem = *it;
                break;
            }
        }
        QVERIFY(kernelItem);
        emit d->itemClicked(kernelItem, 1);
        QVERIFY(
            isGpuWork(tab->selection()->trace().model->slices.kind[tab->selection()->current()]));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
