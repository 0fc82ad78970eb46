// SPDX-License-Identifier: MIT
// The Modules tab and the comparison view, driven as a user would (offscreen).
#include "compare/comparisonview.h"
#include "export/celltable.h"
#include "export/difftable.h"
#include "output/exporter.h"
#include "table/tablemodel.h"
#include "table/tableview.h"
#include "testutil.h"
#include "timeline/chainpainter.h"
#include "timeline/timelineview.h"
#include "trace/chartsview.h"
#include "trace/criticalpathpage.h"
#include "trace/detailspanel.h"
#include "trace/iciclechart.h"
#include "trace/modulesview.h"
#include "trace/pairtablepage.h"
#include "trace/tracetab.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTableView>
#include <QTest>
#include <QToolTip>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include <set>

using namespace ks;

namespace {
QString mi300()
{
    return test::sharedTracesDir()
        + QStringLiteral("/tl_mi300_ddp_resnet18_no_pool_train_resnet18.json.gz");
}
} // namespace

class TestViews : public QObject {
    Q_OBJECT
    QString m_demo;
    QString m_slow; // the demo with every kernel of one op twice as long

private slots:
    void initTestCase()
    {
        qRegisterMetaType<ks::TraceTab *>();
        qRegisterMetaType<ks::ComparisonView *>();
        m_demo = test::tempDir() + QStringLiteral("/demo.json");
        QCOMPARE(test::run(test::gentracePath(), {m_demo}).exitCode, 0);
    }

    // A sort or a filter starts the table again at its top; a descending sort's arrow points
    // down (Qt's own points up).
    void tablesScrollToTopAndArrowsPointTheWay()
    {
        auto table = std::make_shared<CellTable>();
        table->addColumn("value", Cell::Number, "Value");
        for (int r = 0; r < 500; ++r) {
            table->addRow();
            table->add(std::to_string(r));
        }
        QWidget page;
        QTableView *view = makeTableView(&page, QStringLiteral("t"));
        TableModel model(table, {0});
        view->setModel(&model);
        view->resize(300, 400);
        page.resize(300, 400);
        page.show();
        QApplication::processEvents();
        view->scrollToBottom();
        QVERIFY(view->verticalScrollBar()->value() > 0);
        view->sortByColumn(0, Qt::DescendingOrder);
        QTRY_COMPARE(view->verticalScrollBar()->value(), 0);
        view->scrollToBottom();
        model.setFilter(QStringLiteral("1"), false);
        QTRY_COMPARE(view->verticalScrollBar()->value(), 0);

        // The arrow: in the sorted header's right part, a down-pointing triangle is wider at
        // its top row of ink than at its bottom row.
        QHeaderView *header = view->horizontalHeader();
        header->resizeSection(0, 200);
        const QImage image = header->grab().toImage();
        const QColor background = image.pixelColor(2, image.height() / 2);
        int top = -1, bottom = -1;
        std::vector<int> width(size_t(image.height()), 0);
        for (int y = 0; y < image.height(); ++y)
            for (int x = 150; x < 200 && x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                if (std::abs(c.lightness() - background.lightness()) > 60)
                    ++width[size_t(y)];
            }
        for (int &w : width)
            w = w >= 40 ? 0 : w; // the header's border lines, not the arrow
        for (int y = 0; y < image.height(); ++y)
            if (width[size_t(y)] > 0) {
                top = top < 0 ? y : top;
                bottom = y;
            }
        QVERIFY2(top >= 0 && bottom > top, "no arrow drawn");
        QVERIFY2(width[size_t(top)] > width[size_t(bottom)],
            qPrintable(QStringLiteral("top %1, bottom %2")
                           .arg(width[size_t(top)])
                           .arg(width[size_t(bottom)])));
    }

    // The Charts and Modules pages are not needed for the first frame: their views appear when
    // the user first opens them (the module tree meanwhile builds in the background).
    // Issue #57: a Details value cut to its column ("AMD Instinct MI300X: vector_f…") shows whole
    // on hover; a value that fits shows no tip.
    void cutDetailsValuesShowWholeOnHover()
    {
        DetailsPanel panel;
        const QString whole = QStringLiteral(
            "AMD Instinct MI300X: vector_fp64 163.4 TFLOP/s, matrix_bf16 1307.4 TFLOP/s");
        panel.addTopLevelItem(new QTreeWidgetItem({QStringLiteral("device"), whole}));
        panel.addTopLevelItem(new QTreeWidgetItem({QStringLiteral("rank"), QStringLiteral("0")}));
        panel.resize(300, 200);
        panel.setAttribute(Qt::WA_DontShowOnScreen);
        panel.show();
        QApplication::processEvents();
        auto hover = [&](int row) -> QString {
            QToolTip::hideText();
            if (!QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 5000)) // hides late
                return QStringLiteral("(the last tip stayed)");
            const QTreeWidgetItem *item = panel.topLevelItem(row);
            const QPoint at = panel.visualItemRect(item).center() + QPoint(60, 0);
            QHelpEvent help(QEvent::ToolTip, at, panel.viewport()->mapToGlobal(at));
            QApplication::sendEvent(panel.viewport(), &help);
            return QToolTip::isVisible() ? QToolTip::text() : QString();
        };
        QCOMPARE(hover(0), whole);
        QCOMPARE(hover(1), QString());
    }

    void chartsAndModulesAppearWhenFirstShown()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        QVERIFY(opened.trace);
        MainWindow window;
        TraceTab *tab = window.addTrace(opened.trace, QStringLiteral("demo"));
        window.show();
        QTabWidget *tabs = tab->bottomTabs();
        // Findings first (the demo has steps), then the tables and summaries.
        QCOMPARE(tabs->tabText(0), QStringLiteral("Findings"));
        QCOMPARE(tabs->tabText(5), QStringLiteral("Charts"));
        QCOMPARE(tabs->tabText(6), QStringLiteral("Modules"));
        QVERIFY(!tab->findChild<ChartsView *>());
        QVERIFY(!tab->findChild<ModulesView *>());
        tabs->setCurrentIndex(5);
        QVERIFY(tabs->widget(5)->findChild<ChartsView *>());
        QVERIFY(!tab->findChild<ModulesView *>());
        tabs->setCurrentIndex(6);
        auto *modules = tabs->widget(6)->findChild<ModulesView *>();
        QVERIFY(modules);
        QCOMPARE(modules, tab->modules());
        QTRY_VERIFY(modules->isVisible()); // shown by its layout from the event loop
        QVERIFY(modules->findChild<QTreeWidget *>()->topLevelItemCount() > 0);
    }

    // The Critical path page says what --summary says, its segments select their events, and a
    // what-if asked from the pair table's context menu is worked out and listed first.
    void criticalPathPageAgreesWithTheSummary()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        QVERIFY(opened.trace);
        MainWindow window;
        TraceTab *tab = window.addTrace(opened.trace, QStringLiteral("demo"));
        window.show();
        QTabWidget *tabs = tab->bottomTabs();
        QCOMPARE(tabs->tabText(8), QStringLiteral("Critical path"));
        QVERIFY(!tab->findChild<CriticalPathPage *>());
        tabs->setCurrentIndex(8);
        CriticalPathPage *page = tab->criticalPath();
        QVERIFY(page);
        // An analysis of its own, not the one the page shows.
        const CriticalPathAnalysis own(*opened.trace->graph);
        const CriticalPath &path = own.path();
        QVERIFY(path.problem.empty());
        QVERIFY2(page->summary()->text().contains(
                     QStringLiteral("%1 µs").arg(double(path.length) / 1000, 0, 'f', 3)),
            qPrintable(page->summary()->text()));
        QCOMPARE(size_t(page->segments()->model()->rowCount()), path.segments.size());
        // The path lights up in the timeline while its page is shown.
        const std::vector<SliceId> &lit = tab->timeline()->highlight();
        for (const PathSegment &seg : path.segments)
            QVERIFY(std::binary_search(lit.begin(), lit.end(), seg.event));
        // And is drawn over them: the longest stretch, in the path's colour at its middle.
        const std::vector<ChainStep> &chain = tab->timeline()->pathChain();
        QVERIFY(!chain.empty());
        const auto longest = std::max_element(
            chain.begin(), chain.end(), [](const ChainStep &a, const ChainStep &b) {
                return a.end - a.start < b.end - b.start;
            });
        const auto middle
            = tab->timeline()->pathPoint(longest->event, (longest->start + longest->end) / 2);
        QVERIFY(middle);
        QCOMPARE(
            tab->timeline()->grab().toImage().pixelColor(middle->toPoint()), criticalPathColor());
        tabs->setCurrentIndex(1);
        QVERIFY(tab->timeline()->highlight().empty());
        QVERIFY(tab->timeline()->pathChain().empty());
        tabs->setCurrentIndex(8);
        QVERIFY(!tab->timeline()->highlight().empty());
        page->segments()->selectRow(1);
        QCOMPARE(tab->selection()->current(), path.segments[1].event);
        QTRY_VERIFY(!page->whatIfsPending());
        const std::vector<WhatIf> best = own.bestChanges();
        QCOMPARE(size_t(page->whatIfs()->model()->rowCount()), best.size());
        // From the pair table's context menu (its signal): first in the list, worked out.
        const TraceModel &m = *opened.trace->model;
        const std::string name(m.sliceName(path.segments[1].event));
        emit tab->pairs()->whatIfAsked(QString::fromStdString(name), 0.5);
        QCOMPARE(tabs->currentIndex(), 8);
        QTRY_COMPARE(size_t(page->whatIfs()->model()->rowCount()), best.size() + 1);
        QCOMPARE(page->whatIfs()->model()->index(0, 0).data().toString(),
            QString::fromStdString(name + ":0.5"));
        QCOMPARE(page->whatIfs()->model()->index(0, 1).data().toString(),
            QString::fromStdString(microsText(own.lengthIf(name, 0.5))));
        // A name no event has is refused, with the names close to it; nothing is listed.
        QVERIFY(page->caveat()->isHidden()); // the demo's streams are joined
        auto *edit = page->findChild<QLineEdit *>(QStringLiteral("whatIfEdit"));
        QVERIFY(edit);
        const std::string typo = name.substr(0, name.size() - 1);
        edit->setText(QString::fromStdString(typo + ":0.5"));
        QTest::keyClick(edit, Qt::Key_Return);
        QTRY_VERIFY(page->whatIfMessage()->isVisible());
        QVERIFY2(page->whatIfMessage()->text().contains(
                     QStringLiteral("No event named '%1'").arg(QString::fromStdString(typo))),
            qPrintable(page->whatIfMessage()->text()));
        QVERIFY(page->whatIfMessage()->text().contains(QString::fromStdString(name)));
        QCOMPARE(size_t(page->whatIfs()->model()->rowCount()), best.size() + 1);
    }

    // Selecting a module in the tree highlights its calls and backward nodes in the timeline;
    // the icicle selects the same module and exports as PNG and SVG.
    void moduleSelectionHighlightsItsWork()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        QVERIFY(opened.trace);
        MainWindow window;
        window.resize(1600, 1000);
        TraceTab *tab = window.addTrace(opened.trace, QStringLiteral("demo"));
        window.show();
        const ModuleTree &tree = opened.trace->modules();
        QCOMPARE(tree.source(), ModuleTree::Source::Modules);
        const ModuleId linear = tree.find("DemoNet_0/TransformerBlock_0/SelfAttention_0/Linear_1");
        QVERIFY2(linear != kNoModule, "the demo model has an attention block with linear layers");
        tab->modules()->selectModule(linear);
        const std::vector<SliceId> &lit = tab->timeline()->highlight();
        QCOMPARE(lit, tree.highlightSlices(linear, true));
        // Its forward calls (one per step) and its backward nodes, on two threads.
        const SliceTable &t = opened.trace->model->slices;
        std::set<LaneId> lanes;
        for (SliceId s : lit)
            lanes.insert(t.lane[s]);
        QCOMPARE(lanes.size(), size_t(2));
        QCOMPARE(tree.forwardSlices(linear).size(), size_t(3));
        QVERIFY(!tree.backwardNodes(linear).empty());
        // The highlight is drawn: the wash colour appears in the timeline.
        const QImage image = tab->timeline()->grab().toImage();
        int washed = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = TimelineView::kLabelWidth; x < image.width(); x += 2) {
                const QColor c = image.pixelColor(x, y);
                washed += c.red() > 180 && c.green() > 130 && c.blue() < 120
                    && c.red() - c.blue() > 100;
            }
        QVERIFY(washed > 10);

        // The icicle: clicking the module's box selects it in the tree too.
        IcicleChart *icicle = tab->modules()->icicle();
        icicle->resize(1200, 200);
        const QRectF box = icicle->boxOf(linear);
        QVERIFY(!box.isEmpty());
        tab->modules()->selectModule(0);
        QTest::mouseClick(icicle, Qt::LeftButton, {}, box.center().toPoint());
        QCOMPARE(tab->modules()->selectedModule(), linear);
        QString error;
        const QString png = test::tempDir() + QStringLiteral("/icicle.png");
        const QString svg = test::tempDir() + QStringLiteral("/icicle.svg");
        QVERIFY(Exporter::saveWidget(icicle, png, 1, error));
        QVERIFY(Exporter::saveWidget(icicle, svg, 1, error));
        QImage picture;
        QVERIFY(picture.load(png));
        QCOMPARE(picture.size(), QSize(1200, 200));
        QVERIFY(QSvgRenderer(svg).isValid());
    }

    // One selection, reflected everywhere: a module replaces the selected op (Details, arrows,
    // table row), an op replaces the module, and empty timeline space clears both.
    void selectionNeverGoesStale()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        QVERIFY(opened.trace);
        MainWindow window;
        window.resize(1600, 1000);
        TraceTab *tab = window.addTrace(opened.trace, QStringLiteral("demo"));
        window.show();
        SelectionController *selection = tab->selection();
        const OpGraph &g = *opened.trace->graph;
        QTableView *table = tab->pairs()->view();
        const auto firstSection = [&] {
            QTreeWidget *details = window.details();
            return details->topLevelItemCount() ? details->topLevelItem(0)->text(0) : QString();
        };

        // An op, from the pair table: Details shows the event.
        table->selectRow(0);
        const uint32_t row0 = table->model()->index(0, 0).data(TableModel::SourceRowRole).toUInt();
        QCOMPARE(selection->current(), g.rows()[row0].forward);
        QCOMPARE(firstSection(), QStringLiteral("Event"));

        // A module: the op is no longer selected anywhere, Details shows the module.
        const ModuleTree &tree = opened.trace->modules();
        const ModuleId linear = tree.find("DemoNet_0/TransformerBlock_0/SelfAttention_0/Linear_1");
        QVERIFY(linear != kNoModule);
        tab->modules()->selectModule(linear);
        QCOMPARE(selection->current(), kNoSlice);
        QCOMPARE(selection->currentModule(), linear);
        QVERIFY(!table->selectionModel()->hasSelection());
        QCOMPARE(firstSection(), QStringLiteral("Module"));
        QCOMPARE(window.details()->topLevelItem(0)->child(0)->text(1), QStringLiteral("Linear_1"));
        QVERIFY(!tab->timeline()->highlight().empty());
        QVERIFY(selection->canGoBack());

        // Back returns to the op; the module is cleared in the tree, the icicle and the timeline.
        selection->back();
        QCOMPARE(selection->current(), g.rows()[row0].forward);
        QCOMPARE(selection->currentModule(), kNoModule);
        QCOMPARE(tab->modules()->selectedModule(), kNoModule);
        QCOMPARE(tab->modules()->tree()->currentItem(), nullptr);
        QVERIFY(tab->timeline()->highlight().empty());
        QCOMPARE(firstSection(), QStringLiteral("Event"));
        QVERIFY(table->selectionModel()->hasSelection());

        // A click on empty timeline space clears the selection, and the table row with it.
        TimelineView *timeline = tab->timeline();
        QPoint empty;
        for (int y = timeline->height() - 4; y > 30 && empty.isNull(); y -= 3)
            for (int x = timeline->width() - 40; x > TimelineView::kLabelWidth && empty.isNull();
                 x -= 7)
                if (timeline->sliceAt(QPoint(x, y)) == kNoSlice
                    && timeline->curveOpAt(QPoint(x, y)) == kNoSlice)
                    empty = QPoint(x, y);
        QVERIFY(!empty.isNull());
        QTest::mouseClick(timeline, Qt::LeftButton, {}, empty);
        QCOMPARE(selection->current(), kNoSlice);
        QVERIFY(!table->selectionModel()->hasSelection());
        QCOMPARE(window.details()->topLevelItemCount(), 0);

        // A module, then a click on empty space: nothing stays selected, Details is empty.
        tab->modules()->selectModule(linear);
        QCOMPARE(firstSection(), QStringLiteral("Module"));
        QTest::mouseClick(timeline, Qt::LeftButton, {}, empty);
        QCOMPARE(selection->currentModule(), kNoModule);
        QCOMPARE(window.details()->topLevelItemCount(), 0);
        QVERIFY(tab->timeline()->highlight().empty());

        // A module, then an op from the table: the module goes.
        tab->modules()->selectModule(linear);
        table->selectRow(1);
        QCOMPARE(selection->currentModule(), kNoModule);
        QCOMPARE(tab->modules()->selectedModule(), kNoModule);
        QVERIFY(tab->timeline()->highlight().empty());
        QCOMPARE(firstSection(), QStringLiteral("Event"));
    }

    // The Step selector keeps every view that can show one step to it.
    void stepSelectorFiltersEveryView()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        QVERIFY(opened.trace);
        MainWindow window;
        window.resize(1600, 1000);
        TraceTab *tab = window.addTrace(opened.trace, QStringLiteral("demo"));
        window.show();
        const OpGraph &g = *opened.trace->graph;
        QCOMPARE(g.steps().size(), size_t(3));
        const ProfilerStep &second = g.steps()[1];
        size_t inStep = 0;
        for (const PairRow &row : g.rows())
            inStep += row.step == second.number;
        QVERIFY(inStep > 0 && inStep < g.rows().size());
        ChartsView *charts = tab->charts();
        auto *steps = tab->findChild<QComboBox *>(QStringLiteral("stepSelector"));
        QVERIFY(steps);
        steps->setCurrentIndex(2);
        emit steps->activated(2);
        QTRY_COMPARE_WITH_TIMEOUT(tab->pairs()->model()->rowCount(), int(inStep), 120000);
        auto *count = tab->findChild<QLabel *>(QStringLiteral("pairRowCount"));
        QCOMPARE(count->text(), QStringLiteral("%1 of %2 rows").arg(inStep).arg(g.rows().size()));
        // The timeline frames the step.
        const double from = double(second.start - opened.trace->model->minTime);
        QVERIFY(tab->timeline()->rangeStart() <= from);
        QVERIFY(tab->timeline()->rangeStart() + tab->timeline()->rangeSpan()
            >= double(second.end - opened.trace->model->minTime));
        // The top-pairs chart shows the step's pairs only, and says so.
        QVERIFY(!charts->rows().empty());
        for (uint32_t r : charts->rows())
            QCOMPARE(g.rows()[r].step, second.number);
        QVERIFY(charts->chartView()->chart()->title().contains(
            QStringLiteral("ProfilerStep#%1").arg(second.number)));
        // The Modules tab follows.
        auto *moduleStep = tab->modules()->findChild<QComboBox *>(QStringLiteral("moduleStep"));
        QCOMPARE(moduleStep->currentIndex(), 2);
        // Back to the whole trace.
        steps->setCurrentIndex(0);
        emit steps->activated(0);
        QTRY_COMPARE_WITH_TIMEOUT(tab->pairs()->model()->rowCount(), int(g.rows().size()), 120000);
        QCOMPARE(moduleStep->currentIndex(), 0);
        QCOMPARE(count->text(), QStringLiteral("%1 rows").arg(g.rows().size()));
    }

    void moduleTreeSortsAndFilters()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        ModulesView view(
            opened.trace->modules(), opened.trace->pairMemory(), opened.trace->efficiency());
        QTreeWidget *tree = view.tree();
        tree->sortByColumn(4, Qt::DescendingOrder); // bwd GPU µs
        QTreeWidgetItem *root = tree->topLevelItem(0);
        QVERIFY(root);
        QTreeWidgetItem *net = root->child(0);
        for (int i = 1; i < net->childCount(); ++i)
            QVERIFY(net->child(i - 1)->data(4, Qt::UserRole).toDouble()
                >= net->child(i)->data(4, Qt::UserRole).toDouble());
        // A filter keeps the matches and their ancestors.
        auto *filter = view.findChild<QLineEdit *>();
        QVERIFY(filter);
        filter->setText(QStringLiteral("LayerNorm"));
        int shown = 0;
        for (QTreeWidgetItemIterator it(tree); *it; ++it) {
            if (!(*it)->isHidden() && (*it)->childCount() == 0)
                QVERIFY((*it)->toolTip(0).contains(QLatin1String("LayerNorm")));
            shown += !(*it)->isHidden();
        }
        QVERIFY(shown >= 3);
    }

    // The comparison: a candidate whose conv kernels ran twice as long shows exactly the conv
    // pairs changed; selecting one selects it in both timelines, framed on the same span.
    void comparisonFindsTheSlowerPairs()
    {
        QFile in(m_demo);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray text = in.readAll();
        // Double the duration of every implicit-GEMM convolution kernel in the candidate.
        QByteArray out;
        qsizetype pos = 0;
        int scaled = 0;
        while (true) {
            const qsizetype k = text.indexOf("\"name\": \"sm80_xmma_fprop_implicit_gemm", pos);
            if (k < 0)
                break;
            const qsizetype d = text.indexOf("\"dur\": ", k);
            const qsizetype end = text.indexOf(',', d);
            const double dur = text.mid(d + 7, end - d - 7).toDouble();
            out += text.mid(pos, d + 7 - pos) + QByteArray::number(dur * 2, 'f', 3);
            pos = end;
            ++scaled;
        }
        out += text.mid(pos);
        QVERIFY(scaled > 0);
        m_slow = test::writeTemp(QStringLiteral("slow.json"), out);

        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QSignalSpy opened(&window, &MainWindow::comparisonOpened);
        window.openComparison(m_demo, m_slow);
        QVERIFY(opened.wait(120000));
        auto *view = opened.first().first().value<ComparisonView *>();
        QVERIFY(view);
        const TraceDiff &diff = view->diff();
        QCOMPARE(diff.count(DiffStatus::OnlyBase), 0u);
        QCOMPARE(diff.count(DiffStatus::OnlyCandidate), 0u);
        int changed = 0;
        for (const DiffEntry &e : diff.entries()) {
            if (e.delta(DiffMetric::FwdGpu) != 0) {
                ++changed;
                QCOMPARE(std::string(diff.base().model().sliceName(
                             diff.base().rows()[size_t(e.base.row)].forward)),
                    std::string("aten::conv2d"));
                QVERIFY(e.delta(DiffMetric::FwdGpu) > 0);
            }
            QCOMPARE(e.delta(DiffMetric::BwdGpu), 0.0);
        }
        QCOMPARE(changed, 6); // two convolutions × three steps
        // The first row is the largest change: a conv2d; selecting it selects both sides.
        view->selectRow(0);
        QCOMPARE(view->table()->model()->index(0, DiffTable::FwdName).data().toString(),
            QStringLiteral("aten::conv2d"));
        const SliceId b = view->baseSelection()->current();
        const SliceId c = view->candidateSelection()->current();
        QVERIFY(b != kNoSlice && c != kNoSlice);
        QVERIFY(view->baseTimeline()->slicePoint(b));
        QVERIFY(view->candidateTimeline()->slicePoint(c));
        QCOMPARE(view->baseTimeline()->rangeSpan(), view->candidateTimeline()->rangeSpan());
        // Grouped by op: one group changed.
        view->setGrouping(ComparisonView::ByOp);
        QVERIFY(view->model()->rowCount() > 1);
    }

    void moduleTreeOnASharedTrace()
    {
        if (test::sharedTracesDir().isEmpty())
            QSKIP("../shared/traces is absent");
        OpenResult opened = openTrace(mi300().toStdString());
        QVERIFY(opened.trace);
        ModulesView view(
            opened.trace->modules(), opened.trace->pairMemory(), opened.trace->efficiency());
        view.resize(1400, 800);
        // Verified against tests/reference/module_reference.py (see tst_moduletree).
        const ModuleId conv
            = opened.trace->modules().find("ResNet_0/Sequential_0/BasicBlock_0/Conv2d_1");
        QVERIFY(conv != kNoModule);
        view.selectModule(conv);
        QTreeWidgetItem *item = view.tree()->currentItem();
        QCOMPARE(item->text(2), QStringLiteral("3844.082"));
        QCOMPARE(item->text(4), QStringLiteral("9189.145"));
        view.grab().save(test::tempDir() + QStringLiteral("/modules-mi300.png"));
    }
};

QTEST_MAIN(TestViews)
#include "tst_views.moc"
