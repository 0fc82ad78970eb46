// SPDX-License-Identifier: MIT
// The Memory tab (ui/trace/memoryview): present only for traces with [memory] events, the
// allocation table with times from the trace's start, selecting an allocation selects its op,
// the statistics per op with and without children (worked out by hand below), and the Modules
// tab's memory columns.
#include "charttexts.h"
#include "common/palette.h"
#include "common/selectioncontroller.h"
#include "memorytrace.h"
#include "table/tablemodel.h"
#include "testutil.h"
#include "timeline/timelineview.h"
#include "trace/livememorypanel.h"
#include "trace/memoryview.h"
#include "trace/modulesview.h"
#include "trace/tracetab.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QChartView>
#include <QTableView>
#include <QTest>
#include <QToolTip>
#include <QTreeWidget>

using namespace ks;

namespace {

std::string memory(int tid, int ts, long long addr, long long bytes)
{
    return R"({"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":)"
        + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts)
        + R"(,"args":{"Device Type":1,"Device Id":0,"Addr":)" + std::to_string(addr)
        + R"(,"Bytes":)" + std::to_string(bytes) + R"(,"Total Allocated":0,"Total Reserved":0}},)";
}

std::string op(const char *name, int ts, int dur)
{
    return R"({"ph":"X","cat":"cpu_op","name":")" + std::string(name) + R"(","pid":1,"tid":1,"ts":)"
        + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + "},";
}

/*
 * aten::linear [100,200) > aten::empty [110,120) allocating 64 B (addr 1) at 115; aten::linear
 * itself allocates 32 B (addr 2) at 150 and frees the 64 B at 160. So by op:
 *   aten::linear: 2 allocations, 96 B, net +32 (with children); self 1 allocation, 32 B, net −32;
 *   aten::empty: 1 allocation, 64 B, net +64, all self.
 */
std::string trace()
{
    return test::traceWith(op("aten::linear", 100, 100) + op("aten::empty", 110, 10)
        + memory(1, 115, 1, 64) + memory(1, 150, 2, 32) + memory(1, 160, 1, -64)
        + R"({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}})");
}

QString cell(QAbstractItemModel *m, int row, int column)
{
    return m->index(row, column).data().toString();
}

} // namespace

class TestMemoryView : public QObject {
    Q_OBJECT
private slots:
    void tabOnlyWithMemoryEvents();
    void allocationsAndTheirOps();
    void statisticsPerOp();
    void moduleTreeMemoryColumns();
    void livePanelShowsThePeakAndTimelineClicks();
};

void TestMemoryView::tabOnlyWithMemoryEvents()
{
    auto without = test::link(test::traceWith(op("aten::mm", 1, 1)
        + R"({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}})"));
    QVERIFY(without);
    TraceTab plain(without);
    QVERIFY(!plain.memory());
    auto with = test::link(trace());
    QVERIFY(with);
    TraceTab tab(with);
    QVERIFY(tab.memory());
    QVERIFY2(tab.memory()->summary().startsWith(
                 QStringLiteral("cuda:0: 2 allocation(s), peak allocated 0 B")),
        qPrintable(tab.memory()->summary()));
}

void TestMemoryView::allocationsAndTheirOps()
{
    auto t = test::link(trace());
    QVERIFY(t);
    TraceTab tab(t);
    MemoryView *view = tab.memory();
    QVERIFY(view);
    TableModel *m = view->allocationModel();
    QCOMPARE(m->rowCount(), 2);
    QCOMPARE(cell(m, 0, 2), QStringLiteral("64 B")); // bytes for a person; the export keeps 64
    QCOMPARE(cell(m, 0, 5), QStringLiteral("aten::empty"));
    QCOMPARE(cell(m, 0, 6), QStringLiteral("aten::linear"));
    QCOMPARE(cell(m, 1, 4), QString()); // the 32 B are never freed
    // Times from the trace's start (100 µs): allocated 15 µs in.
    QVERIFY2(cell(m, 0, 3).contains(QStringLiteral("15")), qPrintable(cell(m, 0, 3)));
    view->allocations()->selectRow(1);
    QCOMPARE(t->model->sliceName(tab.selection()->current()), std::string_view("aten::linear"));
}

void TestMemoryView::statisticsPerOp()
{
    auto t = test::link(trace());
    QVERIFY(t);
    TraceTab tab(t);
    QAbstractItemModel *ops = tab.memory()->byOp()->model();
    QCOMPARE(ops->rowCount(), 2);
    // Largest allocated (with children) first: aten::linear 96 B, then aten::empty 64 B.
    QCOMPARE(cell(ops, 0, 0), QStringLiteral("aten::linear"));
    const QStringList linear = {cell(ops, 0, 1), cell(ops, 0, 2), cell(ops, 0, 3), cell(ops, 0, 4),
        cell(ops, 0, 5), cell(ops, 0, 6), cell(ops, 0, 7)};
    QCOMPARE(linear,
        QStringList(
            {QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("96 B"),
                QStringLiteral("32 B"), QStringLiteral("32 B"), QStringLiteral("-32 B")}));
    QCOMPARE(cell(ops, 1, 0), QStringLiteral("aten::empty"));
    QCOMPARE(cell(ops, 1, 6), QStringLiteral("64 B"));
    QCOMPARE(cell(ops, 1, 7), QStringLiteral("64 B"));
}

void TestMemoryView::moduleTreeMemoryColumns()
{
    // Every module of the fixture: 30 B allocated in forward, 20 B held, 40 B in backward.
    auto t = test::link(test::moduleMemoryTrace());
    QVERIFY(t);
    ModulesView view(t->modules(), t->pairMemory(), t->efficiency());
    QTreeWidget *tree = view.tree();
    const int fwd = 9, held = 10, bwd = 11; // after the CPU column
    // A footprint: over the whole trace of a trace with steps, the largest step's.
    QCOMPARE(tree->headerItem()->text(held), QStringLiteral("held for bwd (largest step)"));
    QVERIFY(!tree->isColumnHidden(held));
    QTreeWidgetItem *linear = tree->topLevelItem(0)->child(0)->child(0);
    QCOMPARE(linear->text(0), QStringLiteral("Linear_0"));
    for (QTreeWidgetItem *item : {tree->topLevelItem(0), linear}) {
        QCOMPARE(item->data(fwd, Qt::UserRole).toDouble(), 30.0);
        QCOMPARE(item->data(held, Qt::UserRole).toDouble(), 20.0);
        QCOMPARE(item->data(bwd, Qt::UserRole).toDouble(), 40.0);
        QCOMPARE(item->text(held), QStringLiteral("20 B"));
    }
    // Per step the same (all in ProfilerStep#1).
    view.setStep(0);
    QCOMPARE(view.tree()->topLevelItem(0)->data(held, Qt::UserRole).toDouble(), 20.0);
    QCOMPARE(view.tree()->headerItem()->text(held), QStringLiteral("held for bwd"));
    // Without memory events the columns are hidden.
    auto plain = test::link(test::traceWith(
        R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":10})"));
    QVERIFY(plain);
    ModulesView none(plain->modules(), plain->pairMemory(), plain->efficiency());
    QVERIFY(none.tree()->isColumnHidden(held));
}

/*
 * Issue #33: on the shared memory fixture (tests/memorytrace.h) cuda:0 peaks at 416 B when F is
 * allocated (180 µs, 80 µs in): A 256, F 128 and C 32 are alive (B was freed at 150), largest
 * first, A allocated in aten::mm and alive into its backward (500): an activation. A click on
 * the memory curve at E's allocation (250) shows that moment in the Memory tab: E's 16 B on the
 * CPU too. The CPU's events carry no total: its before_trace row is there, its size unknown.
 */
void TestMemoryView::livePanelShowsThePeakAndTimelineClicks()
{
    auto t = test::link(test::memoryTrace());
    QVERIFY(t);
    TraceTab tab(t);
    QVERIFY(tab.memory());
    LiveMemoryPanel *live = tab.memory()->live();
    const MemoryTable &mt = t->model->memory;
    auto eventAt = [&](int us, int64_t bytes) {
        for (size_t e = 0; e < mt.size(); ++e)
            if (mt.time[e] == TimeNs(us) * 1000 && mt.bytes[e] == bytes)
                return int64_t(e);
        return int64_t(-1);
    };
    QCOMPARE(live->shownEvent(), eventAt(180, 128)); // F's allocation
    QCOMPARE(live->model()->rowCount(), 4);
    QCOMPARE(live->model()->table().text(0, 2), std::string("256"));
    QCOMPARE(live->model()->table().text(0, 3), std::string("activation"));
    QVERIFY2(
        live->caption().contains(QStringLiteral("on cuda:0: 416 B")), qPrintable(live->caption()));
    // The peak's bar is drawn in the activation colour.
    live->chart()->resize(400, 300);
    const QImage chart = live->chart()->grab().toImage();
    bool activation = false;
    for (int y = 0; y < chart.height() && !activation; ++y)
        for (int x = 0; x < chart.width() && !activation; ++x)
            activation = chart.pixelColor(x, y) == memoryColor(LiveCategory::Activation);
    QVERIFY(activation);
    // Issue #57: the first bar read "p…" in a narrow pane; here no text of the chart is cut.
    QVERIFY(test::drawnTexts(live->chart()->chart()).contains(QStringLiteral("peak")));
    QVERIFY2(test::elidedTexts(live->chart()->chart()).isEmpty(),
        qPrintable(test::elidedTexts(live->chart()->chart()).join(QLatin1Char('|'))));
    // Hover (issue #57): the peak's activation bar says what it is and its exact bytes — the
    // activations alive at the peak on cuda:0, summed from the live table — with the whole
    // bar's (the caption's 416 B).
    int64_t activationBytes = 0;
    const Table &blocks = live->model()->table();
    for (size_t r = 0; r < blocks.rowCount(); ++r)
        if (blocks.text(r, 0) == "cuda:0" && blocks.text(r, 3) == "activation")
            activationBytes += std::stoll(blocks.text(r, 2));
    QVERIFY(activationBytes > 0);
    auto *bars = qobject_cast<QAbstractBarSeries *>(live->chart()->chart()->series().value(0));
    QVERIFY(bars);
    QBarSet *activations = bars->barSets()[size_t(LiveCategory::Activation)];
    emit bars->hovered(true, 0, activations);
    const QString tip = QToolTip::text();
    QVERIFY2(tip.contains(QStringLiteral("%1: %2 B").arg(activations->label()).arg(activationBytes))
            && tip.contains(QStringLiteral("in all: 416 B")),
        qPrintable(tip));

    emit tab.timeline()->memoryEventClicked(uint32_t(eventAt(250, 16)));
    QCOMPARE(tab.bottomTabs()->currentWidget(), tab.memory()->parentWidget());
    QCOMPARE(live->shownEvent(), eventAt(250, 16));
    QCOMPARE(live->model()->rowCount(), 5);
    QVERIFY(live->caption().contains(QStringLiteral("clicked on the timeline")));
    // The tab's filter narrows the live blocks too, and stays for the next moment shown.
    live->setFilter(QStringLiteral("cpu"));
    QTRY_COMPARE(live->model()->rowCount(), 2);
    live->showAfter(eventAt(180, 128), QStringLiteral("again"));
    QTRY_COMPARE(live->model()->rowCount(), 1); // E is not allocated yet: before_trace alone
}

QTEST_MAIN(TestMemoryView)
#include "tst_memoryview.moc"
