// SPDX-License-Identifier: MIT
// The timeline's curves (issue: memory, the memory view): Curve's range over an interval against
// a brute force and its work bound, and the memory, counter and step-phase tracks of inline
// traces worked out by hand.
#include "analysis/timeline/curvetracks.h"
#include "memorytrace.h"
#include "testutil.h"

#include <QTest>

#include <random>

using namespace ks;

namespace {

//! The smallest and largest value in effect over [a, b), the slow way.
std::optional<Curve::Range> bruteRange(
    const std::vector<TimeNs> &time, const std::vector<double> &value, TimeNs a, TimeNs b)
{
    std::optional<Curve::Range> r;
    auto take = [&](double v) {
        r = r ? Curve::Range {std::min(r->min, v), std::max(r->max, v)} : Curve::Range {v, v};
    };
    int64_t holding = -1; // the last point at or before a
    for (size_t i = 0; i < time.size(); ++i) {
        if (time[i] <= a)
            holding = int64_t(i);
        else if (time[i] < b)
            take(value[i]);
    }
    if (holding >= 0)
        take(value[size_t(holding)]);
    return r;
}

//! A random walk of \a n points, several sharing a time.
Curve randomCurve(size_t n,
    uint32_t seed,
    std::vector<TimeNs> *times = nullptr,
    std::vector<double> *values = nullptr)
{
    std::mt19937 rng(seed);
    std::vector<TimeNs> t;
    std::vector<double> v;
    TimeNs now = 1000;
    double level = 0;
    for (size_t i = 0; i < n; ++i) {
        now += TimeNs(rng() % 4); // 0: a tie
        level += double(int(rng() % 2001) - 1000);
        t.push_back(now);
        v.push_back(level);
    }
    if (times)
        *times = t;
    if (values)
        *values = v;
    return Curve(std::move(t), std::move(v));
}

std::string counter(int ts, const char *args)
{
    return R"({"ph":"C","name":"queue","pid":1,"ts":)" + std::to_string(ts) + R"(,"args":{)" + args
        + "}},\n";
}

} // namespace

class TestCurves : public QObject {
    Q_OBJECT
private slots:
    void rangeMatchesBruteForce();
    void rangeWorkIsLogarithmic();
    void columnsMatchRangeOver();
    void columnsWorkIsLogarithmic();
    void peakAndPointAt();
    void memoryTracksPerDevice();
    void memoryWithoutTotalsIsARunningSum();
    void countersAreTracks();
    void stepPhases();
};

void TestCurves::rangeMatchesBruteForce()
{
    for (const size_t n : {size_t(1), size_t(17), size_t(300), size_t(5000)}) {
        std::vector<TimeNs> t;
        std::vector<double> v;
        const Curve c = randomCurve(n, uint32_t(n), &t, &v);
        std::mt19937 rng(7);
        const TimeNs lo = t.front() - 10, hi = t.back() + 10;
        for (int q = 0; q < 2000; ++q) {
            TimeNs a = lo + TimeNs(rng() % uint64_t(hi - lo));
            TimeNs b = a + 1 + TimeNs(rng() % uint64_t(q % 2 ? 8 : hi - lo));
            const auto expected = bruteRange(t, v, a, b);
            const auto got = c.rangeOver(a, b);
            QCOMPARE(got.has_value(), expected.has_value());
            if (got) {
                QCOMPARE(got->min, expected->min);
                QCOMPARE(got->max, expected->max);
            }
        }
    }
}

void TestCurves::rangeWorkIsLogarithmic()
{
    // The whole range of n and of 64n points: the pyramid reads a few entries per level.
    auto work = [](size_t n) {
        const Curve c = randomCurve(n, 3);
        size_t visited = 0;
        const auto r = c.rangeOver(c.times().front() + 1, c.times().back(), &visited);
        return r ? visited : size_t(0);
    };
    const size_t small = work(16'384), large = work(1'048'576);
    QVERIFY2(small > 0 && small < 300, qPrintable(QString::number(small)));
    QVERIFY2(large < 2 * small, qPrintable(QStringLiteral("%1 vs %2").arg(large).arg(small)));
}

void TestCurves::columnsMatchRangeOver()
{
    // Columns of every width, from a fraction of a nanosecond to many points, against
    // rangeOver() (checked against the brute force above), on an epoch origin.
    const TimeNs origin = 1'700'000'000'000'000'000;
    std::vector<TimeNs> t;
    std::vector<double> v;
    randomCurve(3000, 11, &t, &v); // its points, moved to the origin below
    for (TimeNs &time : t)
        time += origin;
    const Curve c(t, v);
    for (const double width : {0.3, 1.0, 2.5, 7.0, 64.0, 1000.0}) {
        for (const double start : {-50.0, 0.0, 997.3, 4000.0}) {
            std::vector<Curve::Column> columns;
            c.columns(origin, start, width, 400, columns);
            QCOMPARE(columns.size(), size_t(400));
            for (int i = 0; i < 400; ++i) {
                const TimeNs a = origin + TimeNs(std::floor(start + i * width));
                const TimeNs b
                    = std::max(a + 1, origin + TimeNs(std::floor(start + (i + 1) * width)));
                const auto r = c.rangeOver(a, b);
                const Curve::Column &col = columns[size_t(i)];
                QCOMPARE(col.has_value(), r.has_value());
                if (!r)
                    continue;
                QCOMPARE(col->min, r->min);
                QCOMPARE(col->max, r->max);
            }
        }
    }
}

void TestCurves::columnsWorkIsLogarithmic()
{
    // A frame of 1000 columns over the whole curve: 16 times the points, not 16 times the work.
    auto work = [](size_t n) {
        const Curve c = randomCurve(n, 5);
        const double span = double(c.times().back() - c.times().front());
        std::vector<Curve::Column> columns;
        size_t visited = 0;
        c.columns(c.times().front(), 0, span / 1000, 1000, columns, &visited);
        return visited;
    };
    const size_t small = work(65'536), large = work(1'048'576);
    QVERIFY2(small > 1000, qPrintable(QString::number(small)));
    QVERIFY2(large < 2 * small, qPrintable(QStringLiteral("%1 vs %2").arg(large).arg(small)));
}

void TestCurves::peakAndPointAt()
{
    const Curve c({10, 20, 20, 30}, {5, 9, 7, 9});
    QCOMPARE(c.peakIndex(), size_t(1)); // the first of equals
    QCOMPARE(c.peak(), 9.0);
    QCOMPARE(c.pointAt(9), int64_t(-1));
    QCOMPARE(c.pointAt(20), int64_t(2)); // the last point of a time holds after it
    QCOMPARE(c.pointAt(1000), int64_t(3));
    QVERIFY(!c.rangeOver(0, 10)); // nothing in effect before the first point
    // At 20 the curve is 7 (9 held for no time); over [20, 30) only 7.
    QCOMPARE(c.rangeOver(20, 30)->min, 7.0);
    QCOMPARE(c.rangeOver(20, 30)->max, 7.0);
    QCOMPARE(c.rangeOver(15, 21)->min, 5.0);
    QCOMPARE(c.rangeOver(15, 21)->max, 9.0);
}

void TestCurves::memoryTracksPerDevice()
{
    auto t = test::link(test::memoryTrace());
    QVERIFY(t);
    const TraceCurves curves = traceCurves(*t->graph);
    QCOMPARE(curves.tracks.size(), size_t(2));
    const CurveTrack &cpu = curves.tracks[0], &cuda = curves.tracks[1];
    QCOMPARE(cpu.label, std::string("cpu"));
    QCOMPARE(cuda.label, std::string("cuda:0"));
    QCOMPARE(cuda.kind, CurveTrack::Kind::Memory);
    QVERIFY(!cuda.relative);
    QCOMPARE(cuda.curveNames, (std::vector<std::string> {"allocated", "reserved"}));
    // Total Allocated after each cuda:0 event, as the fixture lists them (the unmatched free and
    // the failed allocation change nothing).
    QCOMPARE(cuda.curves[0].values(),
        (std::vector<double> {256, 320, 352, 352, 288, 416, 416, 160, 32}));
    QCOMPARE(cuda.curves[0].times().front(), TimeNs(110'000));
    QCOMPARE(cuda.curves[1].values(), std::vector<double>(9, 2048));
    QCOMPARE(cuda.curves[0].peak(), 416.0);
    QCOMPARE(cuda.curves[0].times()[cuda.curves[0].peakIndex()], TimeNs(180'000));
    // Each point knows its event: the one at 550 µs is the free inside MmBackward0.
    QCOMPARE(cuda.events.size(), size_t(9));
    QCOMPARE(t->model->memory.time[cuda.events[7]], TimeNs(550'000));
    QCOMPARE(t->model->sliceName(memoryEventOp(*t->model, cuda.events[7])),
        std::string_view("MmBackward0"));
}

void TestCurves::memoryWithoutTotalsIsARunningSum()
{
    // The fixture's cpu events have no totals (as in 1.9 traces): +16 at 250, -16 at 260.
    auto t = test::link(test::memoryTrace());
    QVERIFY(t);
    const TraceCurves curves = traceCurves(*t->graph);
    const CurveTrack &cpu = curves.tracks[0];
    QVERIFY(cpu.relative);
    QCOMPARE(cpu.curves.size(), size_t(1)); // no reserved curve without Total Reserved
    QCOMPARE(cpu.curves[0].values(), (std::vector<double> {16, 0}));
    // An [OutOfMemory] event without totals adds nothing to the sum.
    auto oom = test::link(test::traceWith(test::memory(1, 10, 1, 0, 5, 100)
        + test::memory(1, 20, 1, 0, 0, 1000, -1, -1, "[OutOfMemory]")
        + test::memory(1, 30, 1, 0, 5, -100)));
    QVERIFY(oom);
    QCOMPARE(
        traceCurves(*oom->graph).tracks[0].curves[0].values(), (std::vector<double> {100, 100, 0}));
}

void TestCurves::countersAreTracks()
{
    auto t = test::link(test::traceWith(counter(30, R"("depth":3)") + counter(10, R"("depth":1)")
        + R"({"ph":"C","name":"power","pid":1,"ts":20,"args":{"gpu":70,"mem":20}})"));
    QVERIFY(t);
    const TraceCurves curves = traceCurves(*t->graph);
    QCOMPARE(curves.tracks.size(), size_t(3));
    const CurveTrack &queue = curves.tracks[0];
    QCOMPARE(queue.kind, CurveTrack::Kind::Counter);
    QCOMPARE(queue.label, std::string("queue")); // a single arg: the event's name
    QCOMPARE(queue.pid, int64_t(1));
    QCOMPARE(queue.curves[0].values(), (std::vector<double> {1, 3})); // in time order
    QCOMPARE(queue.curves[0].times(), (std::vector<TimeNs> {10'000, 30'000}));
    QCOMPARE(curves.tracks[1].label, std::string("power.gpu"));
    QCOMPARE(curves.tracks[2].label, std::string("power.mem"));
    QCOMPARE(curves.tracks[2].curves[0].values(), std::vector<double> {20});
    // The same counter in two processes: each track says whose it is.
    auto two = test::link(test::traceWith(counter(10, R"("depth":1)")
        + R"({"ph":"C","name":"queue","pid":2,"ts":20,"args":{"depth":5}})"));
    QVERIFY(two);
    const TraceCurves both = traceCurves(*two->graph);
    QCOMPARE(both.tracks.size(), size_t(2));
    QCOMPARE(both.tracks[0].label, std::string("queue (pid 1)"));
    QCOMPARE(both.tracks[1].label, std::string("queue (pid 2)"));
    // A trace of counters alone spans them (the timeline can show them).
    QCOMPARE(t->model->minTime, TimeNs(10'000));
    QCOMPARE(t->model->maxTime, TimeNs(30'000));
}

void TestCurves::stepPhases()
{
    // Step 1 [0, 1000): aten::mm [100, 200) with its node MmBackward0 [500, 600), and an
    // aten::add [300, 350) whose node AddBackward0 runs [450, 480); step 2 [1000, 2000) holds an
    // unpaired op only: no phases.
    auto t = test::link(test::traceWith(
        R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},)"
        R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":1,"tid":1,"ts":1000,"dur":1000},)"
        + test::op("aten::mm", 1, 100, 100, 1) + test::op("MmBackward0", 2, 500, 100, 1)
        + test::op("aten::add", 1, 300, 50, 2) + test::op("AddBackward0", 2, 450, 30, 2)
        + R"({"ph":"X","cat":"cpu_op","name":"aten::zeros","pid":1,"tid":1,"ts":1100,"dur":10})"));
    QVERIFY(t);
    const TraceCurves curves = traceCurves(*t->graph);
    QVERIFY(curves.tracks.empty());
    QCOMPARE(curves.phases.size(), size_t(1));
    const StepPhases &p = curves.phases[0];
    QCOMPARE(p.step, size_t(0));
    QCOMPARE(p.forwardBegin, TimeNs(100'000));
    QCOMPARE(p.forwardEnd, TimeNs(350'000));
    QCOMPARE(p.backwardBegin, TimeNs(450'000));
    QCOMPARE(p.backwardEnd, TimeNs(600'000));
}

QTEST_GUILESS_MAIN(TestCurves)
#include "tst_curves.moc"
