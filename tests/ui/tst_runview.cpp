// SPDX-License-Identifier: MIT
// The run's tab (ui/run): rank groups on one clock, collective bands with the last arriver
// marked (pixel checks on grab()), a pair selected on one rank selected on every rank, the rank
// table scrolling to a rank, and the run window on the two shared DLRM ranks.
#include "charttexts.h"
#include "common/palette.h"
#include "common/selectioncontroller.h"
#include "common/timeformat.h"
#include "export/criticalpathtables.h"
#include "export/runtables.h"
#include "run/collectivebands.h"
#include "run/ranklines.h"
#include "run/runcharts.h"
#include "run/runtimelines.h"
#include "run/runview.h"
#include "runbuilder.h"
#include "session/rundatabase.h"
#include "table/tablemodel.h"
#include "testutil.h"
#include "timeline/timelineview.h"
#include "trace/criticalpathpage.h"
#include "trace/detailspanel.h"
#include "trace/findingspage.h"
#include "trace/tracetab.h"
#include "window/exportactions.h"
#include "window/mainwindow.h"

#include <QAbstractBarSeries>
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QDropEvent>
#include <QImage>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QToolTip>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUrl>
#include <QValueAxis>
#include <QWheelEvent>

#include <sqlite3.h>

#include <functional>

using namespace ks;
using ks::test::RankBuilder;

namespace {

//! The two ranks of twoRanks(): a collective each, rank 1 arriving 300 µs after rank 0, a pair.
const RankBuilder &builtRank(int rank)
{
    static RankBuilder r0(0, 2), r1(1, 2, 40);
    static bool built = false;
    if (!built) {
        r0.step(1, 0, 3000).pair("aten::mm", "MmBackward0", 1, 100, 30, 40).comm(1000, 400, "0");
        r1.step(1, 0, 3000).pair("aten::mm", "MmBackward0", 1, 100, 30, 90).comm(1300, 100, "0");
        built = true;
    }
    return rank == 0 ? r0 : r1;
}
//! \a menu's action of text \a text (in a submenu too), null when it has none.
QAction *menuAction(const QMenu &menu, const QString &text)
{
    for (QAction *act : menu.findChildren<QAction *>())
        if (act->text() == text)
            return act;
    return nullptr;
}

std::shared_ptr<const Run> twoRanks()
{
    return test::runOf({&builtRank(0), &builtRank(1)});
}

void showAndSettle(QWidget &w, QSize size)
{
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QApplication::processEvents();
}

bool orangeish(QRgb c)
{
    return qRed(c) > qBlue(c) + 40 && qRed(c) > 150;
}

/*!
 * Two rank files of one job (world size 2), named NAME0.json and NAME1.json, one step each with
 * one collective; rank 1 arrives \a lateUs after rank 0.
 */
QStringList writeTwoRanks(const QString &name, int64_t lateUs)
{
    RankBuilder r0(0, 2), r1(1, 2);
    r0.step(1, 0, 1000).comm(100, 10, "0");
    r1.step(1, 0, 1000).comm(100 + lateUs, 10, "0");
    return {test::writeTemp(name + QStringLiteral("0.json"), QByteArray::fromStdString(r0.json())),
        test::writeTemp(name + QStringLiteral("1.json"), QByteArray::fromStdString(r1.json()))};
}

//! Eight ranks at one all-reduce, rank r arriving at 100 + r µs for 10 µs.
std::shared_ptr<const Run> eightRanks()
{
    std::vector<RankBuilder> builders;
    for (int r = 0; r < 8; ++r) {
        builders.emplace_back(r, 8);
        builders.back().step(1, 0, 1000).comm(100 + r, 10, "0");
    }
    std::vector<const RankBuilder *> ranks;
    for (const RankBuilder &b : builders)
        ranks.push_back(&b);
    return test::runOf(ranks);
}

} // namespace

class TestRunView : public QObject {
    Q_OBJECT
private slots:
    void rankGroupsOnOneClock();
    void collectiveBandJoinsRanksAndMarksLastArriver();
    void pairSelectedOnEveryRank();
    void headerCountsMatches();
    void unrelatedTracesAskBeforeOneRun();
    void rankTableScrollsToRank();
    void chartsFollowThePair();
    void criticalPathPageGoesToItsRank();
    void findingsPageNamesTheLastArriver();
    void criticalPathIsDrawnAcrossRanks();
    void dlrmRunInTheWindow();
    void droppingRanksAsksOneRunOrTabs();
    void runsQueueWithOtherLoads();
    void runTablesGoThroughTheExportMenu();
    void oneLinePerRankShowsWorkAndBands();
    void bothViewsMoveByTheSameGestures();
    void runFromDatabasesOpensRankTraces();
};

/*
 * Issue #31: "One Line per Rank" shows each rank's GPU work as one line in the palette's colours
 * (gpuWorkLine()), on the range the full timelines had, with the collective's band between the
 * ranks' lines; a double-click on a rank goes back to its full timeline.
 */
void TestRunView::oneLinePerRankShowsWorkAndBands()
{
    auto run = twoRanks();
    QVERIFY(run);
    RunTimelines view(run);
    showAndSettle(view, {1200, 800});
    const double runStart = view.timeline(0)->rangeStart()
        + double(run->sources[0]->traceStart + run->ranks[0].clockOffset);
    view.findChild<QToolButton *>(QStringLiteral("oneLinePerRank"))->click();
    QVERIFY(view.oneLinePerRank());
    RankLines *lines = view.rankLines();
    QVERIFY(lines && lines->isVisible());
    QTRY_VERIFY(lines->ready());
    QCOMPARE(lines->rangeStart(), runStart);
    QCOMPARE(lines->rangeSpan(), view.timeline(0)->rangeSpan());
    const QImage image = lines->grab().toImage();
    // Each part of rank 0's line in its colour, at the middle of its longest stretch.
    const RankTrace &r0 = run->ranks[0];
    for (WorkPart part : {WorkPart::Forward, WorkPart::Communication}) {
        const std::vector<WorkInterval> line = gpuWorkLine(*r0.graph);
        const WorkInterval *longest = nullptr;
        for (const WorkInterval &w : line) {
            if (w.part == part && (!longest || w.end - w.start > longest->end - longest->start))
                longest = &w;
        }
        QVERIFY(longest);
        const TimeNs middle = r0.runTime((longest->start + longest->end) / 2);
        const QPoint at(int(lines->xOf(middle)), lines->rowRect(0).center().y());
        QCOMPARE(QColor(image.pixel(at)), workColor(part));
    }
    // The collective's band fills the gap between the two lines, between the two kernels.
    const Collective &c = run->collectives.collectives[0];
    double x = 0;
    for (const CollectiveKernel &k : c.kernels)
        x += (lines->xOf(k.start) + lines->xOf(k.start + k.dur)) / 4;
    const int gap = (lines->rowRect(0).bottom() + lines->rowRect(1).top()) / 2;
    QVERIFY2(orangeish(image.pixel(int(x), gap)),
        qPrintable(QString::number(image.pixel(int(x), gap), 16)));
    // Zoomed into the middle of its communication kernel, begun before the view: the line
    // starts at the view's left edge and the rank's label stays on its own background.
    const std::vector<WorkInterval> line = gpuWorkLine(*r0.graph);
    const auto comm = std::max_element(line.begin(), line.end(), [](const auto &a, const auto &b) {
        return (a.part == WorkPart::Communication) < (b.part == WorkPart::Communication);
    });
    lines->setRange(double(r0.runTime((comm->start + comm->end) / 2)) - 1000, 2000);
    const QImage zoomed = lines->grab().toImage();
    const int y = lines->rowRect(0).center().y();
    QCOMPARE(QColor(zoomed.pixel(lines->width() / 2, y)), workColor(WorkPart::Communication));
    QCOMPARE(QColor(zoomed.pixel(2, y)), lines->palette().color(QPalette::Window));
    // A double-click on rank 1: its full timeline again.
    QTest::mouseDClick(lines, Qt::LeftButton, {}, lines->rowRect(1).center());
    QVERIFY(!view.oneLinePerRank());
    QVERIFY(view.timeline(1)->isVisible());
}

/*
 * A rank's timeline and the one-line-per-rank view move by the same rules (TimeGestures): a
 * press that moves less than the threshold pans nothing; a drag pans by its pixels at the
 * view's ns per pixel; Ctrl+wheel zooms keeping the time under the cursor where it was.
 */
void TestRunView::bothViewsMoveByTheSameGestures()
{
    auto run = twoRanks();
    RunTimelines view(run);
    showAndSettle(view, {1200, 800});
    TimelineView *timeline = view.timeline(0);
    view.findChild<QToolButton *>(QStringLiteral("oneLinePerRank"))->click();
    RankLines *lines = view.rankLines();
    QTRY_VERIFY(lines->ready());
    struct Moved {
        QWidget *widget;
        std::function<double()> start, span;
        std::function<void(double, double)> setRange;
        int tracksWidth;
    };
    const int labels = timeline::kLabelWidth;
    view.findChild<QToolButton *>(QStringLiteral("oneLinePerRank"))->click();
    const int timelineTracks
        = timeline->width() - labels - timeline->findChild<QScrollBar *>()->sizeHint().width();
    const std::vector<Moved> views {
        {timeline, [&] { return timeline->rangeStart(); }, [&] { return timeline->rangeSpan(); },
            [&](double a, double b) { timeline->setRange(a, b); }, timelineTracks},
        {lines, [&] { return lines->rangeStart(); }, [&] { return lines->rangeSpan(); },
            [&](double a, double b) { lines->setRange(a, b); }, lines->width() - labels}};
    for (const Moved &v : views) {
        if (v.widget == lines)
            view.findChild<QToolButton *>(QStringLiteral("oneLinePerRank"))->click();
        QVERIFY(v.widget->isVisible());
        v.setRange(v.start() + v.span() / 4, v.span() / 2);
        const double start = v.start(), span = v.span();
        const QPoint at(labels + 200, 120);
        QTest::mousePress(v.widget, Qt::LeftButton, {}, at);
        QTest::mouseMove(v.widget, at + QPoint(3, 0));
        QCOMPARE(v.start(), start); // under the threshold: no pan
        QTest::mouseMove(v.widget, at + QPoint(-100, 0));
        QTest::mouseRelease(v.widget, Qt::LeftButton, {}, at + QPoint(-100, 0));
        QVERIFY(std::abs(v.start() - (start + 100 * span / v.tracksWidth)) < 1e-6 * span);
        // Ctrl+wheel at x: the time there stays there.
        const double before = v.start() + 200 * v.span() / v.tracksWidth;
        QWheelEvent wheel(QPointF(at), QPointF(v.widget->mapToGlobal(at)), {}, QPoint(0, 120),
            Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(v.widget, &wheel);
        QVERIFY(v.span() < span);
        const double after = v.start() + 200 * v.span() / v.tracksWidth;
        QVERIFY2(
            std::abs(after - before) < 1e-6 * span, qPrintable(QString::number(after - before)));
    }
}

void TestRunView::rankGroupsOnOneClock()
{
    auto run = twoRanks();
    QVERIFY(run);
    RunTimelines view(run);
    showAndSettle(view, {1200, 800});
    int headers = 0;
    for (QToolButton *b : view.findChildren<QToolButton *>())
        headers += b->objectName().startsWith(QLatin1String("rankHeader"));
    QCOMPARE(headers, 2);
    // Both views show the same run-clock range: view start − anchor is the same.
    const double a0 = view.timeline(0)->rangeStart()
        + double(run->sources[0]->traceStart + run->ranks[0].clockOffset);
    const double a1 = view.timeline(1)->rangeStart()
        + double(run->sources[1]->traceStart + run->ranks[1].clockOffset);
    QCOMPARE(a0, a1);
    QCOMPARE(view.timeline(0)->rangeSpan(), view.timeline(1)->rangeSpan());
    // Panning one pans the other by the same run time.
    view.timeline(1)->setRange(
        view.timeline(1)->rangeStart() + 100000, view.timeline(1)->rangeSpan() / 2);
    const double b0 = view.timeline(0)->rangeStart()
        + double(run->sources[0]->traceStart + run->ranks[0].clockOffset);
    const double b1 = view.timeline(1)->rangeStart()
        + double(run->sources[1]->traceStart + run->ranks[1].clockOffset);
    QCOMPARE(b0, b1);
    // Issue #57: Details gives an event of a rank on the run's clock the ruler reads, then the
    // file's own time.
    DetailsPanel details;
    details.setSelectionController(view.selection(1));
    const TraceModel &m1 = run->ranks[1].graph->model();
    const SliceId first = 0;
    view.selection(1)->select(first);
    QTreeWidgetItem *start = nullptr;
    for (QTreeWidgetItemIterator it(&details); *it; ++it)
        if ((*it)->text(0) == QLatin1String("start"))
            start = *it;
    QVERIFY(start);
    const QString expected = formatDuration(double(run->ranks[1].runTime(m1.slices.start[first])))
        + QStringLiteral(" on the run's clock  (")
        + formatDuration(double(m1.slices.start[first] - m1.minTime))
        + QStringLiteral(" in the file");
    QVERIFY2(start->text(1).startsWith(expected), qPrintable(start->text(1)));
    view.setRankCollapsed(1, true);
    QVERIFY(!view.timeline(1)->isVisible());
    QVERIFY(view.rankCollapsed(1));
}

void TestRunView::collectiveBandJoinsRanksAndMarksLastArriver()
{
    auto run = twoRanks();
    QVERIFY(run);
    QCOMPARE(run->collectives.collectives.size(), size_t(1));
    QCOMPARE(run->collectives.collectives[0].skew(), TimeNs(300000));
    RunTimelines view(run);
    showAndSettle(view, {1200, 800});
    view.setCurrentCollective(0);
    const QImage image = view.grab().toImage();
    const auto &bands = view.bands()->lastBands();
    QCOMPARE(bands.size(), size_t(1));
    QVERIFY(bands[0].current);
    QCOMPARE(view.bands()->lastArrivers().size(), size_t(1));
    // The band runs from rank 0's kernel down to rank 1's, and is painted there.
    const QRectF box = bands[0].shape.boundingRect();
    const QPoint inside = view.bands()->mapTo(&view, box.center().toPoint());
    QVERIFY2(orangeish(image.pixel(inside)), qPrintable(QString::number(image.pixel(inside), 16)));
    // The last arriver is rank 1: the red outline is on its kernel, below rank 0's.
    const QRectF last = view.bands()->lastArrivers()[0];
    QVERIFY(last.top() > box.top());
    const QPoint edge
        = view.bands()->mapTo(&view, QPoint(int(last.center().x()), int(last.top()) - 1));
    const QRgb c = image.pixel(edge);
    QVERIFY2(qRed(c) > 150 && qGreen(c) < 90, qPrintable(QString::number(c, 16)));
    // Rank 0's kernel of the collective is selected: the Details panel (which follows rank 0)
    // shows it.
    const CollectiveKernel &first = run->collectives.collectives[0].kernels.front();
    QCOMPARE(first.rankIndex, 0u);
    QCOMPARE(view.selection(0)->current(), first.kernel);
    view.setCurrentCollective(-1);
    QCOMPARE(view.currentCollective(), -1);
}

void TestRunView::pairSelectedOnEveryRank()
{
    auto run = twoRanks();
    QVERIFY(run);
    RunTimelines view(run);
    showAndSettle(view, {1200, 800});
    QCOMPARE(run->pairs.pairs.size(), size_t(1));
    const PairRow &row0 = run->ranks[0].graph->rows()[0];
    const PairRow &row1 = run->ranks[1].graph->rows()[size_t(run->pairs.pairs[0].rows[1])];
    view.selection(0)->select(row0.forward);
    QCOMPARE(view.selection(1)->current(), row1.forward);
    QCOMPARE(view.currentPair(), 0);
    // Selecting the backward node on rank 1 selects the backward node on rank 0.
    const BackwardNode &node1 = run->ranks[1].graph->nodes()[run->ranks[1].graph->nodesOf(row1)[0]];
    view.selection(1)->select(node1.outer);
    const BackwardNode &node0 = run->ranks[0].graph->nodes()[run->ranks[0].graph->nodesOf(row0)[0]];
    QCOMPARE(view.selection(0)->current(), node0.outer);
    // Clearing on one clears on all.
    view.selection(0)->select(kNoSlice);
    QCOMPARE(view.selection(1)->current(), kNoSlice);
    QCOMPARE(view.currentPair(), -1);
}

// Ranks that share no pair: the header counts matches (0), not rank 0's pairs (1).
void TestRunView::headerCountsMatches()
{
    RankBuilder r0(0, 2), r1(1, 2);
    r0.step(1, 0, 3000).pair("aten::mm", "MmBackward0", 1, 100, 30, 40);
    r1.step(1, 0, 3000).pair("aten::add", "AddBackward0", 1, 100, 30, 40);
    auto run = test::runOf({&r0, &r1});
    QVERIFY(run);
    RunView view(run);
    auto *header = view.findChild<QLabel *>(QStringLiteral("runSummary"));
    QVERIFY(header);
    QVERIFY2(header->text().contains(
                 QStringLiteral("0 of rank 0's 1 pairs matched on another rank (0 on every rank)")),
        qPrintable(header->text()));
}

// Traces an hour apart are not silently one run: the window asks, and tabs are the default.
void TestRunView::unrelatedTracesAskBeforeOneRun()
{
    RankBuilder r0(0, 2), r1(1, 2);
    r0.step(1, 0, 1000).comm(100, 10, "0");
    r1.step(1, 3'600'000'000, 1000).comm(3'600'000'100, 10, "0");
    auto run = test::runOf({&r0, &r1});
    QVERIFY(run);
    QVERIFY(run->unrelated.find("do not overlap in time") != std::string::npos);
    for (const bool anyway : {false, true}) {
        MainWindow window;
        showAndSettle(window, {1200, 800});
        window.addRunOrAsk(run);
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox *>()) != nullptr);
        QCOMPARE(window.tabs()->count(), 0); // nothing opened before the answer
        QVERIFY(box->text().contains(QStringLiteral("do not overlap in time")));
        // Enter and Esc both keep the traces apart.
        QCOMPARE(box->defaultButton()->text(), QStringLiteral("Separate Tabs"));
        QCOMPARE(box->escapeButton()->text(), QStringLiteral("Separate Tabs"));
        const QString wanted
            = anyway ? QStringLiteral("One Run Anyway") : QStringLiteral("Separate Tabs");
        for (QAbstractButton *b : box->buttons()) {
            if (b->text() == wanted)
                b->click();
        }
        if (anyway) {
            QTRY_VERIFY(qobject_cast<RunView *>(window.tabs()->currentWidget()));
        } else {
            // The traces loaded for the run become tabs at once, without being read again.
            QTRY_COMPARE(window.tabs()->count(), 2);
            QVERIFY(!qobject_cast<RunView *>(window.tabs()->currentWidget()));
            // Each tab names its rank first, where no eliding hides it.
            QVERIFY2(window.tabs()->tabText(0).startsWith(QStringLiteral("rank 0 · ")),
                qPrintable(window.tabs()->tabText(0)));
            QVERIFY(window.tabs()->tabText(1).startsWith(QStringLiteral("rank 1 · ")));
        }
    }
}

void TestRunView::rankTableScrollsToRank()
{
    // Eight ranks, so that the last is far below the first.
    auto run = eightRanks();
    QVERIFY(run);
    RunView view(run);
    showAndSettle(view, {1200, 700});
    auto *scroll = view.timelines()->findChild<QScrollArea *>();
    QVERIFY(scroll);
    QCOMPARE(scroll->verticalScrollBar()->value(), 0);
    view.activate(RunView::Ranks, 7);
    QApplication::processEvents();
    QVERIFY(scroll->verticalScrollBar()->value() > 0);
    auto *header = view.timelines()->findChild<QToolButton *>(QStringLiteral("rankHeader7"));
    QVERIFY(header);
    const QPoint onScreen = header->mapTo(scroll->viewport(), QPoint(0, 0));
    QVERIFY(onScreen.y() >= 0 && onScreen.y() < scroll->viewport()->height());
}

/*
 * Issue #58: the run opens on its Findings page, which names rank 7, the collectives table's last
 * arriver at the all-reduce (eightRanks(): 7 µs after rank 0), as a straggler; a click on its
 * kernel selects it on rank 7's timeline.
 */
void TestRunView::findingsPageNamesTheLastArriver()
{
    auto run = eightRanks();
    QVERIFY(run);
    QCOMPARE(run->collectives.collectives.at(0).lastRankIndex, 7u);
    RunView view(run);
    showAndSettle(view, {1200, 700});
    QVERIFY(view.findings());
    QCOMPARE(view.pages()->tabText(0), QStringLiteral("Findings"));
    QCOMPARE(view.currentPage(), RunView::Findings);
    QTRY_VERIFY_WITH_TIMEOUT(!view.findings()->pending(), 30000);
    QTreeWidget *tree = view.findings()->tree();
    QCOMPARE(tree->topLevelItemCount(), int(run->stepFindings().size()));
    QTreeWidgetItem *straggler = nullptr;
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        if (tree->topLevelItem(i)->text(2) == QStringLiteral("straggler"))
            straggler = tree->topLevelItem(i);
    QVERIFY(straggler);
    QVERIFY2(straggler->text(3).startsWith(QStringLiteral("rank 7 arrives last at 1 collective")),
        qPrintable(straggler->text(3)));
    QCOMPARE(straggler->text(0), QStringLiteral("—")); // no saving: no one change
    QTreeWidgetItem *kernel = nullptr;
    for (int i = 0; i < straggler->childCount(); ++i)
        if (straggler->child(i)->text(2) == QStringLiteral("event"))
            kernel = straggler->child(i);
    QVERIFY(kernel);
    QVERIFY2(kernel->text(3).startsWith(QStringLiteral("rank 7: ncclKernel_AllReduce")),
        qPrintable(kernel->text(3)));
    emit tree->itemClicked(kernel, 3);
    const SliceId selected = view.timelines()->selection(7)->current();
    QCOMPARE(selected, run->collectives.collectives.at(0).kernels.at(7).kernel);
}

void TestRunView::criticalPathPageGoesToItsRank()
{
    // Eight ranks at one all-reduce (eightRanks()): the last arriver (rank 7) bounds it, and its
    // own kernel ends last, so the whole path is rank 7's: idle until its launch, the launch
    // delay (5 µs), its kernel (10 µs), idle to the step's end.
    auto run = eightRanks();
    QVERIFY(run);
    RunView view(run);
    showAndSettle(view, {1200, 700});
    view.activate(RunView::CriticalPath, -1);
    QCOMPARE(view.currentPage(), RunView::CriticalPath);
    QCOMPARE(view.pages()->tabText(view.pages()->currentIndex()), QStringLiteral("Critical path"));
    const TableModel *model = view.model(RunView::CriticalPath);
    QCOMPARE(model->rowCount(), 4);
    for (int row = 0; row < 4; ++row)
        QCOMPARE(model->index(row, 0).data().toString(), QStringLiteral("7"));
    QCOMPARE(model->index(0, 6).data().toString(), QStringLiteral("idle"));
    QCOMPARE(model->index(1, 2).data().toString(), QStringLiteral("launch_delay"));
    QCOMPARE(model->index(2, 5).data().toString(), QStringLiteral("10.000"));
    // The same page as a trace's: length and classes, the ranks' slack and late start, what-ifs.
    auto *page = view.findChild<CriticalPathPage *>();
    QVERIFY(page);
    QVERIFY2(page->summary()->text().contains(QStringLiteral(": 1000.000 µs on the critical path")),
        qPrintable(page->summary()->text()));
    auto *rankTable = page->findChild<QTableView *>(QStringLiteral("criticalRanks"));
    QVERIFY(rankTable);
    QCOMPARE(rankTable->model()->rowCount(), 8);
    QCOMPARE(rankTable->model()->headerData(3, Qt::Horizontal).toString(),
        QStringLiteral("Late start (µs)"));
    QCOMPARE(rankTable->model()->index(7, 2).data().toString(), QStringLiteral("0.000"));
    // Rank 0 arrived 7 µs before rank 7: that much room.
    QCOMPARE(rankTable->model()->index(0, 2).data().toString(), QStringLiteral("7.000"));
    QVERIFY(page->findChild<QLineEdit *>(QStringLiteral("whatIfEdit")));
    QTRY_VERIFY(!page->whatIfsPending());
    // The all-reduce at no time: rank 7's 10 µs kernel off the path.
    QCOMPARE(page->whatIfs()->model()->rowCount(), 1);
    QCOMPARE(page->whatIfs()->model()->index(0, 2).data().toString(), QStringLiteral("10.000"));
    // At the default size the segments' results (duration, bound_by) are in view.
    view.activate(RunView::CriticalPath, -1);
    QApplication::processEvents();
    QTableView *segments = page->segments();
    QVERIFY(segments->columnViewportPosition(6) + segments->columnWidth(6)
        <= segments->viewport()->width());
    QVERIFY(segments->columnViewportPosition(5) + segments->columnWidth(5)
        <= segments->viewport()->width());
    // And the timelines show the rank the path runs on.
    auto *pathScroll = view.timelines()->findChild<QScrollArea *>();
    auto *header7 = view.timelines()->findChild<QToolButton *>(QStringLiteral("rankHeader7"));
    QVERIFY(pathScroll && header7);
    const QPoint at = header7->mapTo(pathScroll->viewport(), QPoint(0, 0));
    QVERIFY(at.y() >= 0 && at.y() < pathScroll->viewport()->height());
    QCOMPARE(RunView::tableName(RunView::CriticalPath), QStringLiteral("critical-path"));
    // Choosing a segment scrolls to its rank too.
    pathScroll->verticalScrollBar()->setValue(0);
    view.activate(RunView::CriticalPath, 1);
    QApplication::processEvents();
    QVERIFY(pathScroll->verticalScrollBar()->value() > 0); // rank 7, far below rank 0
}

/*
 * Two ranks at one all-reduce, rank 1 the last arriver after 450 µs of work, rank 0's kernel
 * ending last: the path leaves rank 1 at its kernel's start (500 µs) for rank 0's kernel, so the
 * bands draw one hop, between those two points, while the Critical path page is shown.
 */
void TestRunView::criticalPathIsDrawnAcrossRanks()
{
    RankBuilder r0(0, 2), r1(1, 2);
    r0.step(1, 0, 1000).cpuOp("work", 10, 50).comm(300, 260);
    r1.step(1, 0, 1000).cpuOp("work", 10, 450).comm(500, 40);
    const auto run = test::runOf({&r0, &r1});
    QVERIFY(run);
    RunView view(run);
    showAndSettle(view, {1200, 900});
    const CollectiveBands *bands = view.timelines()->bands();
    QVERIFY(bands->lastHops().empty());
    view.activate(RunView::CriticalPath, -1);
    QApplication::processEvents();
    view.timelines()->repaint();
    QCOMPARE(bands->lastHops().size(), size_t(1));
    const Collective &c = run->collectives.collectives.front();
    auto kernelOf = [&](uint32_t rank) {
        for (const CollectiveKernel &k : c.kernels)
            if (k.rankIndex == rank)
                return k.kernel;
        return kNoSlice;
    };
    const TimeNs at500 = 500000; // ns
    auto pointOn = [&](uint32_t rank) {
        TimelineView *t = view.timelines()->timeline(rank);
        const auto p
            = t->pathPoint(kernelOf(rank), run->ranks[rank].graph->model().minTime + at500);
        return *p + QPointF(t->mapTo(bands->parentWidget(), QPoint(0, 0)) - bands->pos());
    };
    QCOMPARE(bands->lastHops().front().p1(), pointOn(1));
    QCOMPARE(bands->lastHops().front().p2(), pointOn(0));
    QVERIFY(!view.timelines()->timeline(0)->pathChain().empty());
    view.activate(RunView::Ranks, -1);
    view.timelines()->repaint();
    QVERIFY(bands->lastHops().empty());
    QVERIFY(view.timelines()->timeline(0)->pathChain().empty());
}

void TestRunView::chartsFollowThePair()
{
    auto run = twoRanks();
    QVERIFY(run);
    RunView view(run);
    showAndSettle(view, {1200, 800});
    QVERIFY(view.charts()->pairView()->chart()->title().startsWith(QStringLiteral("Select")));
    view.activate(RunView::Pairs, 0);
    QVERIFY2(
        view.charts()->pairView()->chart()->title().startsWith(QStringLiteral("Slowest rank 1,")),
        qPrintable(view.charts()->pairView()->chart()->title()));
    QCOMPARE(view.timelines()->currentPair(), 0);
    {
        // Rank 1's GPU work is missing: one rank timed, nothing to compare.
        RunView cut(test::runOfTexts({builtRank(0).json(), builtRank(1).jsonCutBeforeGpu()}));
        showAndSettle(cut, {1200, 800});
        cut.activate(RunView::Pairs, 0);
        const QString title = cut.charts()->pairView()->chart()->title();
        QVERIFY2(
            title.startsWith(QStringLiteral("No two ranks timed, no spread: ")), qPrintable(title));
    }
    // Forward and backward keep the colours of every other chart (backward was purple here,
    // recompute's colour elsewhere).
    const auto *series = qobject_cast<QAbstractBarSeries *>(
        view.charts()->pairView()->chart()->series().constFirst());
    QVERIFY(series);
    QCOMPARE(series->barSets()[0]->color(), workColor(WorkPart::Forward));
    QCOMPARE(series->barSets()[1]->color(), workColor(WorkPart::Backward));
    // Round ticks (1, 2 or 5 × 10^k µs), the axis above the largest bar (no 4848 / 9695).
    auto *axis = qobject_cast<QValueAxis *>(
        view.charts()->pairView()->chart()->axes(Qt::Vertical).value(0));
    QVERIFY(axis);
    const double step = axis->tickInterval();
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
    QVERIFY2(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9
            || std::abs(mantissa - 5) < 1e-9,
        qPrintable(QString::number(step)));
    double largest = 0;
    for (const QBarSet *set : series->barSets())
        for (int i = 0; i < set->count(); ++i)
            largest = std::max(largest, set->at(i));
    QVERIFY(axis->max() > largest);
    // Hover (issue #57): a bar names its rank, its part and its exact time, the selection kept.
    const SliceId selected = view.timelines()->currentPair();
    const RankPair &pair = run->pairs.pairs[0];
    emit const_cast<QAbstractBarSeries *>(series)->hovered(true, 1, series->barSets()[1]);
    const QString tip = QToolTip::text();
    QVERIFY2(
        tip.contains(QStringLiteral("Backward GPU: ") + formatDuration(double(pair.backwardGpu[1])))
            && tip.contains(QStringLiteral("rank %1").arg(run->ranks[1].rank)),
        qPrintable(tip));
    QCOMPARE(view.timelines()->currentPair(), selected);
}

void TestRunView::dlrmRunInTheWindow()
{
    const QString dir = test::sharedTracesDir();
    if (dir.isEmpty())
        QSKIP("../shared/traces is absent (a user's clone has none): the DLRM run not checked");
    MainWindow window;
    showAndSettle(window, {1440, 900});
    window.openRun({QDir(dir).filePath(
                        QStringLiteral("param_dlrm_worker0_step_12.1694128201545.pt.trace.json")),
        QDir(dir).filePath(
            QStringLiteral("param_dlrm_worker1_step_12.1694128201556.pt.trace.json"))});
    QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<RunView *>(window.tabs()->currentWidget()), 120000);
    auto *view = qobject_cast<RunView *>(window.tabs()->currentWidget());
    QCOMPARE(view->run().ranks.size(), size_t(2));
    QCOMPARE(view->model(RunView::Ranks)->rowCount(), 2);
    QCOMPARE(view->model(RunView::Collectives)->rowCount(), 8);
    // Ranks 0 and 1 of world_size 8: the header says what --check says of the run.
    QCOMPARE(view->run().findings.size(), size_t(1));
    const QString notice = view->findChild<QLabel *>(QStringLiteral("runNotice"))->text();
    QVERIFY2(
        notice.contains(QStringLiteral("Health (as kinetoscope --check): missing_ranks × 6: "
                                       "ranks 2, 3, 4, 5, 6, 7 of world_size 8 not in the run")),
        qPrintable(notice));
    // Every collective has both ranks: the band of the largest skew joins them.
    view->activate(RunView::Collectives, 0);
    QApplication::processEvents();
    view->timelines()->grab();
    QVERIFY(!view->timelines()->bands()->lastBands().empty());
    // A pair selected on rank 0 is selected on rank 1 too.
    const RankPair &p = view->run().pairs.pairs[0];
    QVERIFY(p.rows[1] >= 0);
    view->timelines()->selection(0)->select(
        view->run().ranks[0].graph->rows()[size_t(p.rows[0])].forward);
    QCOMPARE(view->timelines()->selection(1)->current(),
        view->run().ranks[1].graph->rows()[size_t(p.rows[1])].forward);
    // Issue #57: at 1440×900 the Charts page cuts no label short (its x labels read "r0 · …",
    // "ran…", the pair chart's title "… slowest r…").
    view->activate(RunView::Charts, -1);
    QApplication::processEvents();
    window.grab().save(test::tempDir() + QStringLiteral("/dlrm-run-charts.png"));
    for (QChartView *chart : {view->charts()->breakdownView(), view->charts()->pairView()}) {
        QVERIFY(test::drawnTexts(chart->chart()).size() > 5);
        QVERIFY2(test::elidedTexts(chart->chart()).isEmpty(),
            qPrintable(test::elidedTexts(chart->chart()).join(QLatin1Char('|'))));
    }
    // The short legend names say on hover what they stand for.
    QChart *breakdown = view->charts()->breakdownView()->chart();
    QLegendMarker *comm = breakdown->legend()->markers().value(1);
    QVERIFY(comm);
    QCOMPARE(comm->label(), QStringLiteral("Exposed comm"));
    emit comm->hovered(true);
    QCOMPARE(breakdown->toolTip(), QStringLiteral("communication not under computation"));
}

// Two files of one job (world size 2) dropped together: the window asks, and "One Run" opens a
// run tab; "Separate Tabs" opens one tab each. A single dropped file never asks.
void TestRunView::droppingRanksAsksOneRunOrTabs()
{
    const QStringList ranks = writeTwoRanks(QStringLiteral("drop"), 10);
    const QString &a = ranks[0], &b = ranks[1];
    QCOMPARE(peekWorldSize(a.toStdString()), 2);
    for (const bool asRun : {true, false}) {
        MainWindow window;
        showAndSettle(window, {1200, 800});
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(a), QUrl::fromLocalFile(b)});
        QDragEnterEvent enter(
            QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox *>()) != nullptr);
        const QString wanted = asRun ? QStringLiteral("One Run") : QStringLiteral("Separate Tabs");
        QAbstractButton *button = nullptr;
        for (QAbstractButton *candidate : box->buttons()) {
            if (candidate->text() == wanted)
                button = candidate;
        }
        QVERIFY(button);
        button->click();
        if (asRun) {
            QTRY_VERIFY_WITH_TIMEOUT(
                qobject_cast<RunView *>(window.tabs()->currentWidget()), 120000);
            QCOMPARE(qobject_cast<RunView *>(window.tabs()->currentWidget())->run().ranks.size(),
                size_t(2));
        } else {
            QTRY_COMPARE_WITH_TIMEOUT(window.tabs()->count(), 2, 120000);
            QVERIFY(!qobject_cast<RunView *>(window.tabs()->currentWidget()));
        }
    }
}

// A run goes through the window's one load queue: asked with a trace, the two open one after the
// other and the window is loading (progress shown) until both are there; Cancel during a run
// opens nothing and ends the loading.
void TestRunView::runsQueueWithOtherLoads()
{
    const QStringList ranks = writeTwoRanks(QStringLiteral("queue"), 10);
    const QString &a = ranks[0], &b = ranks[1];
    MainWindow window;
    showAndSettle(window, {1200, 800});
    auto *cancel = window.findChild<QPushButton *>(QStringLiteral("cancelLoad"));
    QVERIFY(cancel);
    window.openRun({a, b});
    window.openFiles({a});
    QVERIFY(window.isLoading());
    QVERIFY(cancel->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(window.tabs()->count() >= 1, 120000);
    QVERIFY(qobject_cast<RunView *>(window.tabs()->widget(0)));
    // The run is open and the trace still loads: the progress stays.
    if (window.tabs()->count() == 1) {
        QVERIFY(window.isLoading());
        QVERIFY(cancel->isVisible());
    }
    QTRY_COMPARE_WITH_TIMEOUT(window.tabs()->count(), 2, 120000);
    QTRY_VERIFY(!window.isLoading());
    QVERIFY(!cancel->isVisible());

    window.openRun({a, b});
    QVERIFY(window.isLoading());
    cancel->click();
    QVERIFY(!window.isLoading());
    QVERIFY(!cancel->isVisible());
    QTest::qWait(300);
    QCOMPARE(window.tabs()->count(), 2);
}

// The Export menu serves a run: its tables are written as the command line writes them, and
// what applies to one trace only is disabled, saying why.
void TestRunView::runTablesGoThroughTheExportMenu()
{
    const QStringList ranks = writeTwoRanks(QStringLiteral("export"), 30);
    const QString &a = ranks[0], &b = ranks[1];
    const QString cli = test::tempDir() + QStringLiteral("/cli-ranks.csv");
    QCOMPARE(test::run(test::appPath(), {QStringLiteral("--export-ranks"), cli, a, b}).exitCode, 0);

    MainWindow window;
    QMenu menu;
    ExportActions exports(&window, &menu);
    std::string error;
    std::vector<std::string> files;
    QVERIFY(runFiles({a.toStdString(), b.toStdString()}, files, error));
    RunView *view = window.addRun(openRun(files, {}, error));
    QVERIFY2(view, error.c_str());
    exports.setCurrent(view);
    const auto action = [&](const QString &text) { return menuAction(menu, text); };
    QVERIFY(action(QStringLiteral("Run Table as CSV…"))->isEnabled());
    QVERIFY(action(QStringLiteral("Report as PDF…"))->isEnabled());
    QVERIFY(action(QStringLiteral("Window as PNG…"))->isEnabled());
    QAction *modules = action(QStringLiteral("Module Tree…"));
    QVERIFY(!modules->isEnabled());
    QVERIFY(modules->statusTip().contains(QStringLiteral("run")));
    QVERIFY(action(QStringLiteral("Chart as PNG…"))->isEnabled());

    view->activate(RunView::Ranks, -1);
    const QString gui = test::tempDir() + QStringLiteral("/gui-ranks.csv");
    // Written on a pool thread; the status bar says so meanwhile.
    exports.writeTable(view->model(RunView::Ranks), gui);
    QVERIFY(window.statusBar()->currentMessage().startsWith(QStringLiteral("Writing")));
    QTRY_COMPARE(window.statusBar()->currentMessage(), QStringLiteral("Saved %1").arg(gui));
    QCOMPARE(test::traceText(gui), test::traceText(cli));
    view->activate(RunView::Charts, -1);
    QVERIFY(!view->model(RunView::Charts)); // nothing to write: the action says so
    QString saveError;
    // The Charts page as a picture, however small it is on screen.
    const QString png = test::tempDir() + QStringLiteral("/run-charts.png");
    QVERIFY2(exports.saveChart(png, saveError), qPrintable(saveError));
    QImage charts;
    QVERIFY(charts.load(png));
    QCOMPARE(charts.size(), RunCharts::kExportSize);
    QSet<QRgb> colours; // bars, axes and text, not a blank page
    for (int y = 0; y < charts.height(); y += 4)
        for (int x = 0; x < charts.width(); x += 4)
            colours.insert(charts.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    exports.setCurrent(nullptr);
    QVERIFY(!action(QStringLiteral("Run Table as CSV…"))->isEnabled());
}

/*
 * A folder of per-rank databases dropped on the window opens as a run, in the view a run of
 * traces has (less the timelines): its tables and critical path those of the traces, charts, the
 * Export menu's run entries (the timeline ones disabled, saying why); double-clicking a rank or
 * a segment of the path opens that rank's trace, the file its database names.
 */
void TestRunView::runFromDatabasesOpensRankTraces()
{
    QTemporaryDir dir;
    const std::shared_ptr<const Run> traces = twoRanks();
    std::vector<std::string> files;
    for (size_t i = 0; i < traces->ranks.size(); ++i) {
        const QString path = dir.filePath(QStringLiteral("rank%1.json").arg(i));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const std::string text = builtRank(int(i)).json();
        f.write(text.data(), qint64(text.size()));
        f.close();
        files.push_back(path.toStdString());
    }
    QDir(dir.path()).mkdir(QStringLiteral("db"));
    std::string error;
    for (const std::string &file : files) {
        const auto one = openRun({file}, {}, error);
        QVERIFY2(one, error.c_str());
        const std::string db
            = dir.filePath(QStringLiteral("db/%1.sqlite")
                               .arg(QFileInfo(QString::fromStdString(file)).fileName()))
                  .toStdString();
        QVERIFY2(writeRunDatabase(
                     *one, db, {}, [](const std::string &) { return "x"; }, error),
            error.c_str());
    }

    MainWindow window;
    showAndSettle(window, {1200, 800});
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(dir.filePath(QStringLiteral("db")))});
    QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<RunView *>(window.tabs()->currentWidget()), 30000);
    auto *view = qobject_cast<RunView *>(window.tabs()->currentWidget());
    QVERIFY(view->run().fromDatabases());
    QVERIFY(!view->timelines());
    QCOMPARE(view->pages()->count(), 5);
    QCOMPARE(view->model(RunView::Ranks)->rowCount(), 2);
    QCOMPARE(view->model(RunView::Collectives)->rowCount(), 1);
    QVERIFY(view->notice().isEmpty());
    // The collective's skew (rank 1 arrives late) and the pairs as the traces give them.
    QCOMPARE(
        view->run().collectives.collectives[0].skew(), traces->collectives.collectives[0].skew());
    QCOMPARE(view->run().pairs.matchedOnAnother(), size_t(1));
    QCOMPARE(view->model(RunView::Pairs)->rowCount(), int(traces->pairs.pairs.size()));
    // The critical path across the ranks, from the databases' graphs: the traces' segments.
    const CellTable tracePath = criticalSegmentTable(*traces->criticalPath());
    QVERIFY(tracePath.rowCount() > 0);
    QCOMPARE(view->model(RunView::CriticalPath)->rowCount(), int(tracePath.rowCount()));
    QCOMPARE(tableToCsv(criticalSegmentTable(*view->run().criticalPath())), tableToCsv(tracePath));
    // Its what-ifs need the traces: the page says so rather than answer none.
    const auto *whatIf = view->findChild<QLineEdit *>(QStringLiteral("whatIfEdit"));
    QVERIFY(whatIf && !whatIf->isEnabled());
    QVERIFY(whatIf->placeholderText().contains(QStringLiteral("traces")));
    // Choosing a pair draws it on the charts, as on a run of traces.
    view->activate(RunView::Pairs, 0);
    view->activate(RunView::Charts, -1);
    QVERIFY(!view->charts()->pairView()->chart()->title().startsWith(QStringLiteral("Select")));

    // The Export menu: the report and the run's tables and charts; no timelines to draw.
    QMenu menu;
    ExportActions exports(&window, &menu);
    exports.setCurrent(view);
    const auto action = [&](const QString &text) { return menuAction(menu, text); };
    QVERIFY(action(QStringLiteral("Report as PDF…"))->isEnabled());
    QVERIFY(action(QStringLiteral("Run Table as CSV…"))->isEnabled());
    QVERIFY(action(QStringLiteral("Chart as PNG…"))->isEnabled());
    QAction *timeline = action(QStringLiteral("Timeline as PNG…"));
    QVERIFY(!timeline->isEnabled());
    QVERIFY(timeline->statusTip().contains(QStringLiteral("databases")));

    // Double-clicking a segment asks for its rank's trace (files[r] is rank r's).
    view->activate(RunView::CriticalPath, -1);
    QTableView *pathView = view->table(RunView::CriticalPath);
    const auto &segments = traces->criticalPath()->path().segments;
    const uint32_t last = uint32_t(segments.size() - 1);
    const int lastRow = view->model(RunView::CriticalPath)->viewRowOf(last);
    pathView->scrollTo(view->model(RunView::CriticalPath)->index(lastRow, 0));
    const QRect segmentCell
        = pathView->visualRect(view->model(RunView::CriticalPath)->index(lastRow, 0));
    QSignalSpy askedForPath(view, &RunView::openTrace);
    QTest::mouseClick(pathView->viewport(), Qt::LeftButton, {}, segmentCell.center());
    QTest::mouseDClick(pathView->viewport(), Qt::LeftButton, {}, segmentCell.center());
    QCOMPARE(askedForPath.count(), 1);
    QCOMPARE(
        askedForPath.at(0).at(0).toString(), QString::fromStdString(files[segments[last].rank]));

    view->activate(RunView::Ranks, -1);
    QSignalSpy asked(view, &RunView::openTrace);
    QTableView *ranks = view->table(RunView::Ranks);
    const int row = view->model(RunView::Ranks)->viewRowOf(1);
    const QRect cell = ranks->visualRect(view->model(RunView::Ranks)->index(row, 0));
    QTest::mouseClick(ranks->viewport(), Qt::LeftButton, {}, cell.center()); // as a user does
    QTest::mouseDClick(ranks->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.at(0).at(0).toString(), QString::fromStdString(files[1]));
    const auto openedFile = [&] {
        const auto *tab = qobject_cast<TraceTab *>(window.tabs()->currentWidget());
        return tab ? QString::fromStdString(tab->selection()->tracePointer()->model->path)
                   : QString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(openedFile(), QString::fromStdString(files[1]), 30000);

    // A rank whose graph cannot be read: no path page, and the notice says why.
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("broken")));
    const QString broken = dir.filePath(QStringLiteral("broken/rank.sqlite"));
    QVERIFY(QFile::copy(QString::fromStdString(view->run().sources[0]->database), broken));
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(broken.toUtf8().constData(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(
                 db, "UPDATE path_edges_rows SET to_node = 123456789", nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(db);
    window.openRun({dir.filePath(QStringLiteral("broken"))});
    QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<RunView *>(window.tabs()->currentWidget())
            && qobject_cast<RunView *>(window.tabs()->currentWidget()) != view,
        30000);
    auto *failed = qobject_cast<RunView *>(window.tabs()->currentWidget());
    // One rank of the run's: short of its world_size, as the trace alone would be.
    QVERIFY(traces->worldSize > 1);
    const QString partial = QString::fromStdString(partialRunWarning(1, traces->worldSize));
    // On top: that, the run's health (as --check over the databases says it), why no path.
    const QStringList lines = failed->notice().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], partial);
    QCOMPARE(lines[1],
        QStringLiteral("Health (as kinetoscope --check): missing_ranks × 1: rank 1 of world_size 2 "
                       "not in the run"));
    QVERIFY2(lines[2].startsWith(QStringLiteral("No critical path: ") + broken
                 + QStringLiteral(": not a Kinetoscope database")),
        qPrintable(lines[2]));
    QVERIFY(!failed->table(RunView::CriticalPath));
}

QTEST_MAIN(TestRunView)
#include "tst_runview.moc"
