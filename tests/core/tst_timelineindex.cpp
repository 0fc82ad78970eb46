// SPDX-License-Identifier: MIT
// The timeline's level-of-detail index (core/analysis/timelineindex): scan() merges slices too
// narrow to see into per-pixel runs and promises never to drop one, at any zoom; hit() finds
// the slice under a time however far its start lies (Qt Creator's indexAtFarParent fixture).
// Rows are generated here: scan() and hit() read only the slices' start and duration.
#include "analysis/timeline/timelineindex.h"
#include "testutil.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

using namespace ks;

namespace {

//! A model holding only slice times, with rows of slice ids into it.
struct Rows {
    TraceModel model;
    std::vector<std::vector<SliceId>> rows;

    SliceId add(TimeNs start, TimeNs dur)
    {
        model.slices.start.push_back(start);
        model.slices.dur.push_back(dur);
        return SliceId(model.slices.size() - 1);
    }
    TimeNs end() const
    {
        TimeNs e = 0;
        for (SliceId s = 0; s < model.slices.size(); ++s)
            e = std::max(e, model.slices.end(s));
        return e;
    }
};

//! Random nesting: each level's children lie inside their parent, apart or touching, some of
//! zero duration; every depth becomes one row, as TimelineIndex builds them.
void nest(Rows &r, std::mt19937_64 &rng, TimeNs from, TimeNs to, size_t depth)
{
    if (depth >= r.rows.size() || to - from < 2)
        return;
    TimeNs t = from;
    std::uniform_int_distribution<int> pick(0, 9);
    while (t < to) {
        const TimeNs room = to - t;
        // Gaps from none (touching neighbours) to a large share of the room.
        const int g = pick(rng);
        t += g < 3 ? 0
                   : std::uniform_int_distribution<TimeNs>(0, std::max<TimeNs>(1, room / 4))(rng);
        if (t >= to)
            break;
        const int d = pick(rng);
        const TimeNs dur = d == 0 ? 0
            : d < 6 ? std::uniform_int_distribution<TimeNs>(1, std::max<TimeNs>(1, room / 50))(rng)
                    : std::uniform_int_distribution<TimeNs>(1, to - t)(rng);
        const SliceId s = r.add(t, std::min(dur, to - t));
        r.rows[depth].push_back(s);
        nest(r, rng, t, r.model.slices.end(s), depth + 1);
        t = r.model.slices.end(s) + (dur == 0 ? 1 : 0);
    }
}

//! A complete host op on pid 1, tid 1 (times in µs).
std::string hostOp(const std::string &name, int ts, int dur)
{
    return "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" + name + "\",\"pid\":1,\"tid\":1,\"ts\":"
        + std::to_string(ts) + ",\"dur\":" + std::to_string(dur) + "}";
}

//! A kernel on \a stream of device \a pid (times in µs), replayed from \a graph if not 0.
std::string kernel(int pid, int stream, const std::string &name, int ts, int dur, int graph = 0)
{
    std::string e = R"({"ph":"X","cat":"kernel","name":")" + name + R"(","pid":)";
    e += std::to_string(pid) + ",\"tid\":" + std::to_string(stream);
    e += ",\"ts\":" + std::to_string(ts) + ",\"dur\":" + std::to_string(dur);
    e += ",\"args\":{\"stream\":" + std::to_string(stream);
    if (graph != 0)
        e += ",\"graph id\":" + std::to_string(graph);
    return e + "}}";
}

/*!
 * Checks that scan() over \a row at (t0, nsPerPixel, width) covers every slice of the row that
 * is visible: start < t1 and end > t0, or of zero duration at t0 <= start <= t1. Items must
 * take the row's slices in order, each run its count of consecutive slices, and each slice's
 * pixels must lie inside its item's. Zero-duration slices exactly at t0 are left out unless
 * \a instantsAtT0: scan() drops those (see scanKeepsInstantsOnTheEdges).
 */
bool coversEverySlice(const Rows &r,
    const std::vector<SliceId> &row,
    double t0,
    double nsPerPixel,
    double width,
    QString *why,
    double mergeBelow = 1.0,
    bool instantsAtT0 = false)
{
    const SliceTable &st = r.model.slices;
    std::vector<TimelineIndex::Item> items;
    TimelineIndex::scan(r.model, row, 0, t0, nsPerPixel, width, items, mergeBelow);
    const double t1 = t0 + width * nsPerPixel;
    auto toX = [&](double t) { return (t - t0) / nsPerPixel; };
    // Rounding of (t - t0) / nsPerPixel: a few ulps of the larger time, in pixels.
    auto eps = [&](double t) {
        return 1e-9
            + 8 * std::numeric_limits<double>::epsilon() * (std::abs(t0) + std::abs(t))
            / nsPerPixel;
    };
    std::vector<int> itemOf(row.size(), -1);
    size_t next = 0; // row index the next item must start at, once the first is placed
    for (size_t k = 0; k < items.size(); ++k) {
        const TimelineIndex::Item &item = items[k];
        // The generated rows hold increasing slice ids.
        auto it = std::lower_bound(row.begin(), row.end(), item.slice);
        if (it == row.end() || *it != item.slice || item.count == 0) {
            *why = QStringLiteral("item %1 names no slice of the row").arg(k);
            return false;
        }
        const size_t i = size_t(it - row.begin());
        if (k > 0 && i != next) {
            *why = QStringLiteral("item %1 starts at row index %2, not %3").arg(k).arg(i).arg(next);
            return false;
        }
        if (!(item.x1 - item.x0 >= 1.0 - 1e-9) && item.count > 1) {
            *why = QStringLiteral("run %1 is narrower than a pixel").arg(k);
            return false;
        }
        for (size_t j = i; j < i + item.count && j < row.size(); ++j)
            itemOf[j] = int(k);
        next = i + item.count;
    }
    for (size_t j = 0; j < row.size(); ++j) {
        const SliceId s = row[j];
        const double a = double(st.start[s]), b = double(st.end(s));
        const bool visible = st.dur[s] == 0 ? (a >= t0 && a <= t1 && (instantsAtT0 || a > t0))
                                            : (a < t1 && b > t0);
        if (!visible)
            continue;
        if (itemOf[j] < 0) {
            *why = QStringLiteral("slice %1 [%2, %3] dropped")
                       .arg(j)
                       .arg(a, 0, 'f', 3)
                       .arg(b, 0, 'f', 3);
            return false;
        }
        const TimelineIndex::Item &item = items[size_t(itemOf[j])];
        if (toX(a) < item.x0 - eps(a) || toX(b) > item.x1 + eps(b)) {
            *why = QStringLiteral("slice %1 at x [%2, %3] outside its item [%4, %5]")
                       .arg(j)
                       .arg(toX(a), 0, 'g', 17)
                       .arg(toX(b), 0, 'g', 17)
                       .arg(item.x0, 0, 'g', 17)
                       .arg(item.x1, 0, 'g', 17);
            return false;
        }
    }
    return true;
}

//! Zoom levels from the whole trace in one pixel down to 0.01 ns per pixel, each at positions
//! before, across and after the trace.
void checkAllZooms(const Rows &r, double mergeBelow = 1.0)
{
    const double total = double(std::max<TimeNs>(1, r.end()));
    std::mt19937_64 rng(7);
    struct View {
        double width, nsPerPixel;
    };
    std::vector<View> views = {{1, total}, {1, total * 2}, {3, total / 3}};
    for (double npp = total / 1000; npp >= 0.01; npp /= 3.7)
        views.push_back({1000, npp});
    views.push_back({1000, 0.01});
    for (const View &v : views) {
        const double span = v.width * v.nsPerPixel;
        std::vector<double> starts = {-span / 2, 0, total - span / 2, total};
        std::uniform_real_distribution<double> anywhere(-span, total);
        for (int i = 0; i < 6; ++i)
            starts.push_back(std::floor(anywhere(rng)) + (i % 2 ? 0.37 : 0.0));
        // Exactly on slice boundaries too, where rounding decides.
        for (int i = 0; i < 4 && r.model.slices.size() > 0; ++i) {
            const SliceId s = SliceId(rng() % r.model.slices.size());
            starts.push_back(double(r.model.slices.start[s]));
            starts.push_back(double(r.model.slices.end(s)) - span);
        }
        for (double t0 : starts) {
            for (size_t d = 0; d < r.rows.size(); ++d) {
                QString why;
                if (!coversEverySlice(r, r.rows[d], t0, v.nsPerPixel, v.width, &why, mergeBelow))
                    QFAIL(qPrintable(QStringLiteral("depth %1, t0 %2, %3 ns/px × %4 px: %5")
                                         .arg(d)
                                         .arg(t0, 0, 'f', 3)
                                         .arg(v.nsPerPixel, 0, 'g', 6)
                                         .arg(v.width)
                                         .arg(why)));
            }
        }
    }
}

} // namespace

class TestTimelineIndex : public QObject {
    Q_OBJECT

private slots:
    void scanNeverDropsANestedSlice_data()
    {
        QTest::addColumn<int>("seed");
        for (int seed = 1; seed <= 6; ++seed)
            QTest::addRow("seed %d", seed) << seed;
    }
    void scanNeverDropsANestedSlice()
    {
        QFETCH(int, seed);
        Rows r;
        r.rows.resize(5);
        std::mt19937_64 rng {uint64_t(seed)};
        // Offset from 0, as real traces are: times far from the origin lose double precision.
        nest(r, rng, 1'000'000'000, 1'000'000'000 + 50'000'000, 0);
        QVERIFY(r.model.slices.size() > 1000);
        checkAllZooms(r);
        checkAllZooms(r, 3.0); // Tracy-style folding of anything under 3 px
    }

    void scanNeverDropsManyTinySlices()
    {
        Rows r;
        r.rows.resize(1);
        std::mt19937_64 rng(11);
        TimeNs t = 5000;
        for (int i = 0; i < 100'000; ++i) {
            const TimeNs dur = TimeNs(rng() % 4); // 0–3 ns
            r.rows[0].push_back(r.add(t, dur));
            t += dur + TimeNs(rng() % 3); // touching or a gap of up to 2 ns
        }
        checkAllZooms(r);
    }

    void scanNeverDropsHugeSlices()
    {
        Rows r;
        r.rows.resize(2);
        // A slice longer than a day around tiny neighbours, and one covering everything.
        r.rows[0].push_back(r.add(0, 3));
        r.rows[0].push_back(r.add(3, 100'000'000'000'000));
        r.rows[0].push_back(r.add(100'000'000'000'003, 0));
        r.rows[0].push_back(r.add(100'000'000'000'010, 1));
        r.rows[1].push_back(r.add(0, 100'000'000'000'011));
        checkAllZooms(r);
    }

    // Zero-duration slices on the edges of the visible range are visible there, at t1 and at t0.
    void scanKeepsInstantsOnTheEdges()
    {
        Rows r;
        r.rows.resize(1);
        r.rows[0] = {r.add(100, 0), r.add(200, 0), r.add(300, 0)};
        QString why;
        QVERIFY2(coversEverySlice(r, r.rows[0], 100, 1, 100, &why), qPrintable(why)); // 200 at t1
        QVERIFY2(coversEverySlice(r, r.rows[0], 150, 1, 100, &why), qPrintable(why));
        QVERIFY2(coversEverySlice(r, r.rows[0], 200, 1, 100, &why, 1.0, true), qPrintable(why));
    }

    void scanOfAnEmptyRowOrOutsideTheSlices()
    {
        Rows r;
        std::vector<TimelineIndex::Item> items;
        TimelineIndex::scan(r.model, {}, 0, 0, 1, 100, items);
        QVERIFY(items.empty());
        const std::vector<SliceId> row = {r.add(1000, 10)};
        TimelineIndex::scan(r.model, row, 0, 0, 1, 100, items); // before the slice
        QVERIFY(items.empty());
        TimelineIndex::scan(r.model, row, 0, 1010, 1, 100, items); // it ends where the view starts
        QVERIFY(items.empty());
        TimelineIndex::scan(r.model, row, 0, 1005, 1, 100, items);
        QCOMPARE(items.size(), size_t(1));
        QCOMPARE(items[0].count, 1u);
        QCOMPARE(items[0].x0, -5.0);
        QCOMPARE(items[0].x1, 5.0);
    }

    // Zoomed in, nothing merges: one item per slice, at its exact pixels.
    void scanZoomedInDrawsEverySliceOnItsOwn()
    {
        Rows r;
        std::vector<SliceId> row;
        for (int i = 0; i < 50; ++i)
            row.push_back(r.add(TimeNs(i) * 10, 5));
        std::vector<TimelineIndex::Item> items;
        TimelineIndex::scan(r.model, row, 0, 0, 0.5, 2000, items);
        QCOMPARE(items.size(), row.size());
        for (size_t i = 0; i < items.size(); ++i) {
            QCOMPARE(items[i].slice, row[i]);
            QCOMPARE(items[i].count, 1u);
            QCOMPARE(items[i].x0, double(i) * 20);
            QCOMPARE(items[i].x1, double(i) * 20 + 10);
        }
        // Zoomed out to one pixel for all of them: a single run of all 50.
        items.clear();
        TimelineIndex::scan(r.model, row, 0, 0, 1000, 1, items);
        QCOMPARE(items.size(), size_t(1));
        QCOMPARE(items[0].count, 50u);
    }

    /*
     * A with_stack thread (µs):
     *   P0 [0, 5000] python > P1 [0, 500] python > A [10, 100] > B [20, 50]
     *                       > P1b [600, 900] python > P2 [610, 700] python > C [620, 650]
     *                       > D [950, 990]
     *   E [6000, 7000] > P3 [6100, 6200] python > F [6110, 6150]
     * Folded: ops by the ops above them (A, C, D, E at 0; B, F at 1); the band holds the
     * Python frames with no Python frame below them (P1, P2, P3), never P0 or P1b.
     */
    void pythonFramesFoldIntoABandAndOpRows()
    {
        const std::string py = "python_function";
        std::string e;
        e += test::completeEvent(py, "P0", 1, 0, 5000);
        e += test::completeEvent(py, "P1", 1, 0, 500);
        e += test::completeEvent("cpu_op", "A", 1, 10, 90);
        e += test::completeEvent("cpu_op", "B", 1, 20, 30);
        e += test::completeEvent(py, "P1b", 1, 600, 300);
        e += test::completeEvent(py, "P2", 1, 610, 90);
        e += test::completeEvent("cpu_op", "C", 1, 620, 30);
        e += test::completeEvent("cpu_op", "D", 1, 950, 40);
        e += test::completeEvent("cpu_op", "E", 1, 6000, 1000);
        e += test::completeEvent(py, "P3", 1, 6100, 100);
        e += test::completeEvent("cpu_op", "F", 1, 6110, 40);
        e.pop_back();
        const auto trace = test::link(test::traceWith(e));
        QVERIFY(trace);
        const TraceModel &m = *trace->model;
        const TimelineIndex index(m, *trace->graph);
        QVERIFY(index.hasPython(0));
        auto names = [&](std::span<const SliceId> row) {
            std::string text;
            for (SliceId s : row)
                text += std::string(m.sliceName(s)) + ' ';
            return text;
        };
        QCOMPARE(index.depthCount(0), 4u); // P0 > P1b > P2 > C
        QCOMPARE(index.opDepthCount(0), 2u);
        QCOMPARE(names(index.slices(0, {RowSet::Ops, 0})), std::string("A C D E "));
        QCOMPARE(names(index.slices(0, {RowSet::Ops, 1})), std::string("B F "));
        QCOMPARE(names(index.slices(0, {RowSet::PythonBand, 0})), std::string("P1 P2 P3 "));
        QVERIFY(index.slices(0, {RowSet::Ops, 2}).empty());
        for (const char *op : {"A", "B", "C", "D", "E", "F"}) {
            SliceId s = 0;
            while (m.sliceName(s) != op)
                ++s;
            const uint32_t depth = TimelineIndex::opDepth(m, s);
            const auto row = index.slices(0, {RowSet::Ops, depth});
            QVERIFY2(std::find(row.begin(), row.end(), s) != row.end(), op);
        }
        // Every row has its own slot; a lane without Python frames has the nesting rows only.
        QCOMPARE(index.rowSlots(0), 4u + 2u + 1u);
        QCOMPARE(index.rowSlot(0, {RowSet::PythonBand, 0}), 6u);
        QCOMPARE(index.rowSlot(0, {RowSet::Ops, 1}), 5u);
    }

    /*
     * Issue #32 2(d): streams holding only graph replays compact into one lane per graph and
     * device, packed first fit in start order (times in µs):
     *   GPU 0 stream 30: a [10, 20] g1, c [40, 50] g1, x [100, 110] g2
     *   GPU 0 stream 31: b [15, 25] g1 (overlaps a: a second row), d [60, 70] g1
     *   GPU 0 stream 7:  e [10, 20] g1 and n [30, 40] (no graph): stays a stream
     *   GPU 1 stream 30: f [10, 20] g1: another device, another lane
     * GPU 0's graph 1 is rows 0 (a c d) and 1 (b) of stream 30, graph 2 row 2 (x).
     */
    void graphReplaysCompactOneLanePerGraph()
    {
        const std::string e = kernel(0, 30, "a", 10, 10, 1) + ',' + kernel(0, 30, "c", 40, 10, 1)
            + ',' + kernel(0, 30, "x", 100, 10, 2) + ',' + kernel(0, 31, "b", 15, 10, 1) + ','
            + kernel(0, 31, "d", 60, 10, 1) + ',' + kernel(0, 7, "e", 10, 10, 1) + ','
            + kernel(0, 7, "n", 30, 10) + ',' + kernel(1, 30, "f", 10, 10, 1);
        const auto trace = test::link(test::traceWith(e));
        QVERIFY(trace);
        const TraceModel &m = *trace->model;
        const TimelineIndex index(m, *trace->graph);
        const GraphLanes &lanes = index.graphLanes();
        auto slice = [&](std::string_view name) {
            SliceId s = 0;
            while (m.sliceName(s) != name)
                ++s;
            return s;
        };
        auto laneOf = [&](std::string_view name) { return m.slices.lane[slice(name)]; };
        const LaneId s30 = laneOf("a"), s31 = laneOf("b"), s7 = laneOf("e"), gpu1 = laneOf("f");
        QVERIFY(lanes.compacted(s30) && lanes.compacted(s31) && lanes.compacted(gpu1));
        QVERIFY(!lanes.compacted(s7));
        QCOMPARE(lanes.graphs().size(), size_t(3));
        auto names = [&](LaneId host, uint32_t row) {
            std::string text;
            for (SliceId s : index.slices(host, {RowSet::Graph, row}))
                text += std::string(m.sliceName(s)) + ' ';
            return text;
        };
        const LaneId host = std::min(s30, s31);
        QCOMPARE(lanes.rowCount(host), 3u);
        QCOMPARE(names(host, 0), std::string("a c d "));
        QCOMPARE(names(host, 1), std::string("b "));
        QCOMPARE(names(host, 2), std::string("x "));
        QCOMPARE(lanes.rowCount(std::max(s30, s31)), 0u);
        const std::span<const GraphLanes::Graph> hosted = lanes.hostedBy(host);
        QCOMPARE(hosted.size(), size_t(2));
        QCOMPARE(hosted[0].graphId, int64_t(1));
        QCOMPARE(hosted[0].rowCount, 2u);
        QCOMPARE(hosted[0].streams, std::vector<LaneId>({std::min(s30, s31), std::max(s30, s31)}));
        QCOMPARE(hosted[1].graphId, int64_t(2));
        QCOMPARE(hosted[1].firstRow, 2u);
        QCOMPARE(names(gpu1, 0), std::string("f "));
        // Every event of a compacted stream is placed on a row of its graph that holds it.
        for (const char *name : {"a", "b", "c", "d", "x", "f"}) {
            const SliceId s = slice(name);
            const GraphLanes::Place p = lanes.placeOf(s);
            const GraphLanes::Graph &g = lanes.graphs()[p.graph];
            QVERIFY2(p.row >= g.firstRow && p.row < g.firstRow + g.rowCount, name);
            const auto row = index.slices(g.host, {RowSet::Graph, p.row});
            QVERIFY2(std::find(row.begin(), row.end(), s) != row.end(), name);
        }
        // The graph rows have cache slots of their own, after the lane's nesting rows.
        QCOMPARE(index.rowSlots(host), index.depthCount(host) + 3u);
        QCOMPARE(index.rowSlot(host, {RowSet::Graph, 2}), index.depthCount(host) + 2u);
    }

    /*
     * Qt Creator's indexAtFarParent: a long parent whose child lies far from the parent's start,
     * after many short siblings. A binary search on starts lands past the parent; hit() must
     * still find it, and looking from the deepest row up the child (the innermost) wins.
     *   depth 0: 200 siblings [i·10, i·10+5) µs, then parent [10 000, 1 010 000) µs
     *   depth 1: child [900 000, 900 010) µs, far from the parent's start
     */
    void hitFindsAFarParentAndTheInnermostWins()
    {
        std::string events;
        for (int i = 0; i < 200; ++i)
            events += hostOp("sibling", i * 10, 5) + ',';
        events += hostOp("parent", 10'000, 1'000'000) + ',';
        events += hostOp("child", 900'000, 10);
        const auto trace = test::link(test::traceWith(events));
        QVERIFY(trace);
        const TraceModel &m = *trace->model;
        const TimelineIndex index(m, *trace->graph);
        QCOMPARE(m.lanes.size(), size_t(1));
        QCOMPARE(index.depthCount(0), 2u);
        const SliceId parent = index.row(0, 0).back();
        const SliceId child = index.row(0, 1).front();
        QCOMPARE(std::string(m.sliceName(parent)), std::string("parent"));
        QCOMPARE(std::string(m.sliceName(child)), std::string("child"));

        auto at = [](double us) { return us * 1000; }; // relative to the trace start, ns
        auto innermost = [&](double t) {
            for (uint32_t d = index.depthCount(0); d-- > 0;) {
                const SliceId s = TimelineIndex::hit(m, index.row(0, d), m.minTime, t, 0);
                if (s != kNoSlice)
                    return s;
            }
            return kNoSlice;
        };
        // In the child: the child, as the model's own innermostAt says.
        QCOMPARE(innermost(at(900'005)), child);
        QCOMPARE(innermost(at(900'005)), m.innermostAt(0, m.minTime + TimeNs(900'005'000)));
        // In the parent, far from both its start and the child: the parent.
        QCOMPARE(TimelineIndex::hit(m, index.row(0, 0), m.minTime, at(500'000), 0), parent);
        QCOMPARE(TimelineIndex::hit(m, index.row(0, 0), m.minTime, at(1'009'999), 0), parent);
        QCOMPARE(innermost(at(500'000)), parent);
        // Past the parent's end: nothing, unless within the tolerance.
        QCOMPARE(TimelineIndex::hit(m, index.row(0, 0), m.minTime, at(1'010'002), 0), kNoSlice);
        QCOMPARE(TimelineIndex::hit(m, index.row(0, 0), m.minTime, at(1'010'002), 3000), parent);
        // Among the siblings: a gap goes to the nearer sibling within the tolerance.
        QCOMPARE(std::string(m.sliceName(
                     TimelineIndex::hit(m, index.row(0, 0), m.minTime, at(1006), 1500))),
            std::string("sibling"));
        QCOMPARE(TimelineIndex::hit(m, index.row(0, 0), m.minTime, at(1007.5), 1000), kNoSlice);
        QCOMPARE(TimelineIndex::hit(m, index.row(0, 1), m.minTime, at(500'000), 1000), kNoSlice);
    }
};

QTEST_GUILESS_MAIN(TestTimelineIndex)
#include "tst_timelineindex.moc"
