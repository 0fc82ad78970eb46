// SPDX-License-Identifier: MIT
// Memory you can act on (issue #33): the one rule for what owns an instant (an op's end
// included), held_bytes that add up to what the forward pass leaves for backward (and empty,
// never a guess, where frees cannot be matched), held_until, and reuse of an address counted.
// Inline cases worked out by hand; the per-step sum against a second, plainer computation on a
// generated trace and on the shared traces.
#include "analysis/memory/livememory.h"
#include "analysis/memory/pairmemory.h"
#include "export/difftable.h"
#include "export/livetable.h"
#include "export/moduletable.h"
#include "export/pairtable.h"
#include "memorytrace.h"
#include "session/comparedtraces.h"
#include "testutil.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <map>
#include <string>

using namespace ks;
using test::memory;
using test::op;

namespace {

std::string annotation(const char *name, int tid, int ts, int dur)
{
    return R"({"ph":"X","cat":"user_annotation","name":")" + std::string(name)
        + R"(","pid":1,"tid":)" + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts)
        + R"(,"dur":)" + std::to_string(dur) + "},\n";
}

//! An op without a sequence number (no backward node), as aten::empty is.
std::string plainOp(const char *name, int tid, int ts, int dur)
{
    return R"({"ph":"X","cat":"cpu_op","name":")" + std::string(name) + R"(","pid":1,"tid":)"
        + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)"
        + std::to_string(dur) + "},\n";
}

std::string trace(const std::string &events)
{
    return test::traceWith(
        events + R"({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}})");
}

/*!
 * Two layers and their backward (see heldBytesAddUpToWhatForwardLeaves), plus for live memory:
 * MmBackward0 allocates a gradient 40 B at 1210 (freed 2000, after the node), the optimizer 8 B
 * at 1960 (never freed), and a free of 64 B at 3000 matches no allocation (made before the
 * trace).
 */
std::string twoLayers()
{
    return trace(op("aten::mm", 1, 100, 100, 1) + op("aten::relu", 1, 300, 100, 2)
        + plainOp("aten::empty", 1, 500, 10) + op("ReluBackward0", 2, 1000, 100, 2)
        + op("MmBackward0", 2, 1200, 100, 1) + annotation("Optimizer.step#SGD.step", 1, 1950, 100)
        + memory(1, 110, 1, 0, 1, 10) + memory(1, 120, 1, 0, 2, 100) + memory(1, 130, 1, 0, 3, 200)
        + memory(1, 150, 1, 0, 1, -10) + memory(1, 310, 1, 0, 4, 50) + memory(1, 320, 1, 0, 5, 20)
        + memory(1, 505, 1, 0, 6, 30) + memory(2, 1050, 1, 0, 2, -100)
        + memory(2, 1210, 1, 0, 8, 40) + memory(2, 1250, 1, 0, 4, -50)
        + memory(1, 1900, 1, 0, 6, -30) + memory(1, 1960, 1, 0, 9, 8)
        + memory(1, 2000, 1, 0, 3, -200) + memory(1, 2000, 1, 0, 8, -40)
        + memory(1, 3000, 1, 0, 77, -64));
}

//! Adds \a bytes to every `Total Allocated` of the trace at \a path.
void raiseTotals(const QString &path, long long bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    file.close();
    static const QRegularExpression total(QStringLiteral(R"("Total Allocated": ?(\d+))"));
    QString out;
    qsizetype done = 0;
    for (auto it = total.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(done, m.capturedStart(1) - done);
        out += QString::number(m.captured(1).toLongLong() + bytes);
        done = m.capturedEnd(1);
    }
    out += QStringView(text).mid(done);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(out.toUtf8());
}

//! Bytes of \a blocks by category name, "activation=400 before_window=64" ("?": unknown).
std::string byCategory(const std::vector<LiveBlock> &blocks)
{
    std::map<std::string_view, int64_t> sums;
    for (const LiveBlock &b : blocks)
        sums[liveCategoryName(b.category)] += b.bytes;
    std::string out;
    for (const auto &[name, bytes] : sums) {
        if (!out.empty())
            out += ' ';
        out.append(name).append("=").append(bytes < 0 ? "?" : std::to_string(bytes));
    }
    return out;
}

std::string_view allocOp(const LoadedTrace &t, size_t allocation)
{
    const SliceId op = t.memory().allocations()[allocation].op;
    return op == kNoSlice ? std::string_view() : t.model->sliceName(op);
}

/*!
 * Per ProfilerStep with backward nodes, what the forward pass leaves for backward, the plain
 * way: B = the first backward node starting in the step; bytes allocated in [step start, B)
 * that are never freed or freed at or after B. Returns (that, sum of held_bytes of the step's
 * rows + those bytes allocated outside any row's forward op).
 */
std::vector<std::pair<int64_t, int64_t>> forwardLeftPerStep(const LoadedTrace &t)
{
    const OpGraph &g = *t.graph;
    const TraceModel &m = *t.model;
    const MemoryTable &mt = m.memory;
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const ProfilerStep &step : g.steps()) {
        const TimeNs stepStart = step.start, stepEnd = step.end;
        TimeNs b = stepEnd + 1;
        for (const BackwardNode &n : g.nodes()) {
            const TimeNs s = m.slices.start[n.outer];
            if (s >= stepStart && s <= stepEnd)
                b = std::min(b, s);
        }
        if (b > stepEnd)
            continue;
        int64_t plain = 0, sum = 0;
        for (const Allocation &a : t.memory().allocations()) {
            const TimeNs at = mt.time[a.event];
            const bool alive = a.freeEvent < 0 || mt.time[size_t(a.freeEvent)] >= b;
            if (at < stepStart || at >= b || !alive)
                continue;
            plain += mt.bytes[a.event];
            if (a.row < 0 || !g.isForwardSide(a.op))
                sum += mt.bytes[a.event];
        }
        for (size_t r = 0; r < g.rows().size(); ++r) {
            const SliceId f = g.rows()[r].forward;
            if (f != kNoSlice && m.slices.start[f] >= stepStart && m.slices.end(f) <= b)
                sum += t.pairMemory()[r].held;
        }
        out.emplace_back(plain, sum);
    }
    return out;
}

} // namespace

class TestHeldMemory : public QObject {
    Q_OBJECT
private slots:
    /*
     * An instant at t belongs to the innermost op with start <= t <= end (times in µs):
     *   aten::native_batch_norm [100, 120] > aten::empty [105, 106]: 256 B at 106 → aten::empty
     *   AccumulateGrad [200, 210]: a free at 210 (of the 256 B) → AccumulateGrad, not outside
     *   aten::a [300, 310], aten::b [310, 320]: 8 B at 310 → aten::b (same depth: the one
     *     starting)
     *   aten::p [400, 500] > aten::q [400, 410] > aten::r [405, 410]; aten::s [410, 420]:
     *     16 B at 410 → aten::r (the deeper)
     *   [OutOfMemory] at 120 → named "in aten::native_batch_norm"
     */
    void anInstantOnAnOpsEndBelongsToIt()
    {
        const auto t = test::link(trace(plainOp("aten::native_batch_norm", 1, 100, 20)
            + plainOp("aten::empty", 1, 105, 1) + plainOp("AccumulateGrad", 1, 200, 10)
            + plainOp("aten::a", 1, 300, 10) + plainOp("aten::b", 1, 310, 10)
            + plainOp("aten::p", 1, 400, 100) + plainOp("aten::q", 1, 400, 10)
            + plainOp("aten::r", 1, 405, 5) + plainOp("aten::s", 1, 410, 10)
            + memory(1, 106, 1, 0, 1, 256) + memory(1, 210, 1, 0, 1, -256)
            + memory(1, 310, 1, 0, 2, 8) + memory(1, 410, 1, 0, 3, 16)
            + memory(1, 120, 1, 0, 0, 1 << 20, -1, -1, "[OutOfMemory]")));
        QVERIFY(t);
        QCOMPARE(allocOp(*t, 0), std::string_view("aten::empty"));
        QCOMPARE(t->model->sliceName(t->memory().allocations()[0].freeOp),
            std::string_view("AccumulateGrad"));
        QCOMPARE(allocOp(*t, 1), std::string_view("aten::b"));
        QCOMPARE(allocOp(*t, 2), std::string_view("aten::r"));
        const auto &examples = t->memory().diagnostics().examples();
        QCOMPARE(examples.size(), size_t(1));
        QCOMPARE(examples[0].counter, Diag::OutOfMemory);
        QVERIFY2(examples[0].message.find("in aten::native_batch_norm") != std::string::npos,
            examples[0].message.c_str());
    }

    /*
     * Layer 1 aten::mm [100, 200] (N=1) allocates 10 B (freed 150, in it), its output 100 B
     * (freed 1050 in layer 2's backward, ReluBackward0 [1000, 1100]) and 200 B (freed 2000 under
     * Optimizer.step#SGD.step); layer 2 aten::relu [300, 400] (N=2) 50 B (freed 1250 in
     * MmBackward0 [1200, 1300]) and 20 B never freed; aten::empty [500, 510], no pair, 30 B
     * (freed 1900). The backward pass starts at 1000 for both layers:
     *   mm: fwd 310, held 300 (not the 10 B), held_until optimizer (200 B of 300)
     *   relu: fwd 70, held 70, held_until MmBackward0 (50 of 70)
     * The old rule (alive at the row's own first node) gave mm 200: its output, freed by the
     * next layer's backward, was lost. Held + outside any pair = 300 + 70 + 30 = 400, every byte
     * allocated before 1000 and alive then.
     */
    void heldBytesAddUpToWhatForwardLeaves()
    {
        const auto t = test::link(twoLayers());
        QVERIFY(t);
        const PairTable &pairs = *t->pairTable();
        QCOMPARE(pairs.rowCount(), size_t(2));
        QCOMPARE(pairs.text(0, PairTable::FwdName), std::string("aten::mm"));
        QCOMPARE(pairs.text(0, PairTable::FwdAllocBytes), std::string("310"));
        QCOMPARE(pairs.text(0, PairTable::HeldBytes), std::string("300"));
        QCOMPARE(pairs.text(0, PairTable::HeldUntil), std::string("optimizer"));
        QCOMPARE(pairs.text(1, PairTable::FwdAllocBytes), std::string("70"));
        QCOMPARE(pairs.text(1, PairTable::HeldBytes), std::string("70"));
        QCOMPARE(pairs.text(1, PairTable::HeldUntil), std::string("MmBackward0"));
        QCOMPARE(held(*t, 0) + held(*t, 1) + 30, int64_t(400));
    }

    /*
     * What is alive, and what it is, on the twoLayers() trace (µs):
     *   140: mm's 10 B (freed in mm: temporary), its 100 and 200 (activations), the 64 B block
     *        allocated before the trace
     *   1000 (backward starts): 100 + 200 + 50 + 20 = 370 activation; aten::empty's 30 B, in no
     *        pair and no module, other; 64 before the window
     *   1220: the 100 B went at 1050, the 50 B goes at 1250: 200 + 50 + 20 = 270 activation;
     *        the gradient 40 B
     *   2100: 20 never freed (activation), the optimizer's 8, 64 before the window
     */
    void liveAtTimeByCategory()
    {
        const auto t = test::link(twoLayers());
        QVERIFY(t);
        const LiveMemory live(t->memory());
        auto at = [&](int us) {
            return byCategory(live.at(t->model->minTime + TimeNs(us - 100) * 1000));
        };
        // No Total Allocated: what was there before the trace is not known.
        QCOMPARE(
            at(140), std::string("activation=300 before_trace=? before_window=64 temporary=10"));
        QCOMPARE(at(1000), std::string("activation=370 before_trace=? before_window=64 other=30"));
        QCOMPARE(at(1220),
            std::string("activation=270 before_trace=? before_window=64 gradient=40 other=30"));
        QCOMPARE(
            at(2100), std::string("activation=20 before_trace=? before_window=64 optimizer=8"));
        // Largest first, the unknown last.
        const std::vector<LiveBlock> blocks = live.at(t->model->minTime + 900'000);
        QCOMPARE(blocks.front().bytes, int64_t(200));
        QCOMPARE(blocks.back().category, LiveCategory::BeforeTrace);
        QCOMPARE(blocks[blocks.size() - 2].bytes, int64_t(20));
    }

    /*
     * On cuda:0, aten::x [5, 100] (µs):
     *   10  +100 at 1 (Total Allocated 1100): 1000 B were there before the trace
     *   20  -64 at 9, never allocated in the trace (1036): before_window, so before_trace is
     *       1000 - 64 = 936
     *   30  +40 at 2 (1076)
     *   40  +10 at 3 (1186): 100 B more than the events say, an event the trace lost
     *   50  -100 at 1 (1086): the 100 B were temporary; the 40 and 10 B, on the forward side
     *       and never freed, are activations
     * and a CPU allocation with no total (before_trace unknown). At each event the categories
     * add up to the total written with it; from 40 on, 100 B are unexplained.
     */
    void liveAddsUpToTotalAllocated()
    {
        const auto t = test::link(trace(plainOp("aten::x", 1, 5, 95)
            + memory(1, 10, 1, 0, 1, 100, 1100) + memory(1, 12, 0, -1, 5, 8)
            + memory(1, 20, 1, 0, 9, -64, 1036) + memory(1, 30, 1, 0, 2, 40, 1076)
            + memory(1, 40, 1, 0, 3, 10, 1186) + memory(1, 50, 1, 0, 1, -100, 1086)));
        QVERIFY(t);
        const LiveMemory live(t->memory());
        const std::pair<int64_t, int64_t> cuda {1, 0};
        QCOMPARE(live.beforeTrace(cuda), int64_t(936));
        QCOMPARE(live.beforeTrace({0, -1}), kNoValue);
        auto at = [&](int us) {
            std::string out;
            const std::vector<LiveBlock> blocks
                = live.at(t->model->minTime + TimeNs(us - 5) * 1000);
            const CategoryBytes bytes = live.composition(blocks, cuda);
            for (size_t c = 0; c < bytes.size(); ++c) {
                if (bytes[c] == 0)
                    continue;
                if (!out.empty())
                    out += ' ';
                out += liveCategoryName(LiveCategory(c));
                out += '=';
                out += std::to_string(bytes[c]);
            }
            return out;
        };
        QCOMPARE(at(15), std::string("temporary=100 before_window=64 before_trace=936"));
        QCOMPARE(at(25), std::string("temporary=100 before_trace=936"));
        QCOMPARE(at(35), std::string("activation=40 temporary=100 before_trace=936"));
        QCOMPARE(
            at(45), std::string("activation=50 temporary=100 before_trace=936 unexplained=100"));
        QCOMPARE(at(55), std::string("activation=50 before_trace=936 unexplained=100"));
        // The peak (1186 at 40) by the one-sweep composition: the same parts.
        const PeakComposition peak = live.peaks().front();
        QCOMPARE(peak.bytes[size_t(LiveCategory::BeforeTrace)], int64_t(936));
        QCOMPARE(peak.bytes[size_t(LiveCategory::Unexplained)], int64_t(100));
        int64_t sum = 0;
        for (int64_t bytes : peak.bytes)
            sum += bytes;
        QCOMPARE(sum, int64_t(1186));
        // The export: the figures have a device and bytes but no address or times; the CPU's
        // before_trace is there with its bytes empty.
        const LiveTable table(live, live.afterEvent(4));
        size_t figures = 0;
        for (size_t r = 0; r < table.rowCount(); ++r) {
            if (!isDeviceFigure(table.block(r).category))
                continue;
            ++figures;
            QCOMPARE(table.text(r, LiveTable::Addr), std::string());
            QCOMPARE(table.text(r, LiveTable::FreeTs), std::string());
            const std::string device = table.text(r, LiveTable::Device);
            const std::string bytes = table.text(r, LiveTable::Bytes);
            QVERIFY2(device == "cuda:0" ? bytes == "936" || bytes == "100" : bytes.empty(),
                (device + " " + bytes).c_str());
        }
        QCOMPARE(figures, size_t(3));
    }

    // Just after every [memory] event of a generated trace (every free matched), the live
    // blocks of cuda:0 add up to the Total Allocated the profiler wrote with it: a count
    // independent of the matching; at a time, to the total after its last event. With every
    // total raised by 1 MiB, as when weights were allocated before profiling began, the MiB is
    // the before_trace block.
    void liveMatchesTotalAllocated_data()
    {
        QTest::addColumn<long long>("before");
        QTest::newRow("from nothing") << 0LL;
        QTest::newRow("weights before the trace") << (1LL << 20);
    }

    void liveMatchesTotalAllocated()
    {
        QFETCH(long long, before);
        const QString path = test::tempDir() + QStringLiteral("/live.json");
        QCOMPARE(test::run(test::gentracePath(), {QStringLiteral("--memory"), path}).exitCode, 0);
        if (before != 0)
            raiseTotals(path, before);
        if (QTest::currentTestFailed())
            return;
        const OpenResult opened = openTrace(path.toStdString());
        QVERIFY(opened.trace);
        const MemoryTable &mt = opened.trace->model->memory;
        const LiveMemory live(opened.trace->memory());
        const std::pair<int64_t, int64_t> cuda {1, 0};
        auto unexplained = [&](const std::vector<LiveBlock> &blocks) {
            return live.composition(blocks, cuda)[size_t(LiveCategory::Unexplained)];
        };
        auto liveSum = [&](const std::vector<LiveBlock> &blocks) {
            int64_t sum = 0;
            for (int64_t bytes : live.composition(blocks, cuda))
                sum += bytes;
            return sum;
        };
        size_t checked = 0;
        for (size_t e = 0; e < mt.size(); ++e) {
            if (mt.deviceType[e] != 1 || mt.totalAllocated[e] == kNoValue)
                continue;
            QCOMPARE(liveSum(live.afterEvent(int64_t(e))), mt.totalAllocated[e]);
            // By what the blocks are, not by an unexplained remainder: the generated trace
            // loses nothing.
            QCOMPARE(unexplained(live.afterEvent(int64_t(e))), int64_t(0));
            const bool lastAtItsTime = e + 1 == mt.size() || mt.time[e + 1] != mt.time[e];
            if (lastAtItsTime)
                QCOMPARE(liveSum(live.at(mt.time[e])), mt.totalAllocated[e]);
            ++checked;
        }
        QVERIFY(checked > 100);
        QCOMPARE(live.beforeTrace(cuda), int64_t(before));
        const auto device = live.peakDevice();
        QVERIFY(device && *device == cuda);
        const TraceModel &m = *opened.trace->model;
        const int64_t peak = live.peakEvent(cuda, m.minTime, m.maxTime);
        QCOMPARE(
            liveSum(live.afterEvent(peak)), opened.trace->memory().devices().back().peakAllocated);
        // The one-sweep composition of peaks() is the same count.
        int64_t swept = 0;
        const std::vector<PeakComposition> peaks = live.peaks(); // kept: the loop reads into it
        for (int64_t bytes : peaks.front().bytes)
            swept += bytes;
        QCOMPARE(peaks.front().bytes[size_t(LiveCategory::Unexplained)], int64_t(0));
        QCOMPARE(swept, opened.trace->memory().devices().back().peakAllocated);
    }

    // A run's ranks show their peaks (--export-ranks): the fixture's cuda:0 peaks at 416 B
    // allocated, 2048 reserved, whatever its CPU does; a trace with only CPU events gives the
    // CPU's.
    void peaksOfARank()
    {
        const auto gpu = test::link(test::memoryTrace());
        QVERIFY(gpu);
        QCOMPARE(allocatorPeaks(gpu->model->memory).allocated, int64_t(416));
        QCOMPARE(allocatorPeaks(gpu->model->memory).reserved, int64_t(2048));
        const auto cpu = test::link(trace(plainOp("aten::x", 1, 100, 10)
            + memory(1, 105, 0, -1, 5, 8, 8, 96) + memory(1, 107, 0, -1, 5, -8, 0, 96)));
        QVERIFY(cpu);
        QCOMPARE(allocatorPeaks(cpu->model->memory).allocated, int64_t(8));
        QCOMPARE(allocatorPeaks(cpu->model->memory).reserved, int64_t(96));
    }

    /*
     * A comparison shows the change in held bytes per pair (and module rollup) and in the peak:
     * aten::mm holds 20 B (base) and 50 B (candidate, its 50 B freed in MmBackward0), peaks
     * 30 B → 60 B allocated.
     */
    void comparisonShowsHeldAndPeak()
    {
        auto side = [](int bytes) {
            return test::link(
                trace(op("aten::mm", 1, 100, 100, 1) + op("MmBackward0", 2, 500, 100, 1)
                    + memory(1, 110, 1, 0, 1, 10, 10) + memory(1, 120, 1, 0, 2, bytes, 10 + bytes)
                    + memory(1, 150, 1, 0, 1, -10, bytes) + memory(2, 550, 1, 0, 2, -bytes, 0)));
        };
        const auto base = side(20), candidate = side(50);
        QVERIFY(base && candidate);
        std::string error;
        const auto compared = ComparedTraces::make(base, candidate, DiffOptions {}, error);
        QVERIFY2(compared, error.c_str());
        const DiffTable table(*compared->diff);
        QCOMPARE(table.rowCount(), size_t(1));
        const size_t held = table.metricColumn(DiffMetric::HeldBytes);
        QCOMPARE(table.text(0, held), std::string("20"));
        QCOMPARE(table.text(0, held + 1), std::string("50"));
        QCOMPARE(table.text(0, held + 2), std::string("30"));
        const std::string headline = comparisonHeadline(*compared->diff);
        QVERIFY2(
            headline.find("peak allocated 30 B → 60 B") != std::string::npos, headline.c_str());
        QVERIFY2(
            headline.find("held for backward 20 B → 50 B") != std::string::npos, headline.c_str());
    }

    /*
     * A peak and a free in one µs: 100 B allocated at 10 (Total Allocated 100), freed at 10 too
     * (0), 40 B at 20. The peak is the allocation's event: 100 B alive just after it, though
     * nothing is at the end of its µs; peaks() and the export say the same.
     */
    void peakIsAnEventNotAMicrosecond()
    {
        const auto t
            = test::link(trace(plainOp("aten::x", 1, 5, 30) + memory(1, 10, 1, 0, 1, 100, 100, 512)
                + memory(1, 10, 1, 0, 1, -100, 0, 512) + memory(1, 20, 1, 0, 2, 40, 40, 512)));
        QVERIFY(t);
        const LiveMemory live(t->memory());
        const int64_t peak = live.peakEvent({1, 0}, t->model->minTime, t->model->maxTime);
        QCOMPARE(peak, int64_t(0));
        QCOMPARE(live.afterEvent(peak).size(), size_t(1));
        QCOMPARE(live.afterEvent(peak).front().bytes, int64_t(100));
        QVERIFY(live.at(t->model->memory.time[0]).empty());
        const std::vector<PeakComposition> peaks = live.peaks();
        QCOMPARE(peaks.front().event, int64_t(0));
        QCOMPARE(peaks.front().bytes[size_t(LiveCategory::Temporary)], int64_t(100));
    }

    /*
     * Held bytes are a footprint: two steps, each nn.Module Net_0 > aten::mm holding a block for
     * its MmBackward0 (20 B in step 1, 50 B in step 2). Net_0 holds 20 and 50 B per step and 50 B
     * over the whole trace (the largest step), not 70; what it allocates adds up (70).
     */
    void moduleHeldIsTheLargestStep()
    {
        const std::string module
            = R"({"ph":"X","cat":"python_function","name":"nn.Module: Net_0",)";
        auto step = [&](int n, int at, int seq, int bytes) {
            return R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" + std::to_string(n)
                + R"(","pid":1,"tid":1,"ts":)" + std::to_string(at) + R"(,"dur":1000},)" + "\n"
                + module + R"("pid":1,"tid":1,"ts":)" + std::to_string(at + 80) + R"(,"dur":140},)"
                + "\n" + op("aten::mm", 1, at + 100, 100, seq)
                + op("MmBackward0", 2, at + 500, 100, seq) + memory(1, at + 120, 1, 0, seq, bytes)
                + memory(2, at + 550, 1, 0, seq, -bytes);
        };
        const auto t = test::link(trace(step(1, 0, 1, 20) + step(2, 1000, 2, 50)));
        QVERIFY(t);
        const ModuleTable whole(
            t->modules(), ModuleTable::Rows::WholeTrace, t->pairMemory(), t->efficiency());
        const ModuleTable perStep(
            t->modules(), ModuleTable::Rows::EachStep, t->pairMemory(), t->efficiency());
        std::vector<std::string> held, allocated;
        for (const ModuleTable *table : {&whole, &perStep}) {
            for (size_t r = 0; r < table->rowCount(); ++r) {
                if (table->text(r, ModuleTable::Name) != "Net_0")
                    continue;
                held.push_back(table->text(r, ModuleTable::HeldBytes));
                allocated.push_back(table->text(r, ModuleTable::FwdAllocBytes));
            }
        }
        QCOMPARE(held, (std::vector<std::string> {"50", "20", "50"}));
        QCOMPARE(allocated, (std::vector<std::string> {"70", "20", "50"}));
    }

    // 1.9 traces have no `Addr`: no free can be matched, so held bytes are unknown, empty in
    // the pair and module exports, never the allocated bytes; what is alive is unknown too.
    void heldIsEmptyWithoutAddresses()
    {
        const std::string noAddr
            = R"({"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":120,)"
              R"("args":{"Device Type":1,"Device Id":0,"Bytes":64}},)"
              "\n";
        const auto t = test::link(trace(op("aten::mm", 1, 100, 100, 1)
            + op("MmBackward0", 2, 500, 100, 1) + noAddr + memory(2, 510, 1, 0, 7, 16)));
        QVERIFY(t);
        const PairTable &pairs = *t->pairTable();
        QCOMPARE(pairs.text(0, PairTable::FwdAllocBytes), std::string("64"));
        QCOMPARE(pairs.text(0, PairTable::HeldBytes), std::string());
        QCOMPARE(pairs.text(0, PairTable::HeldUntil), std::string());
        QCOMPARE(pairs.text(0, PairTable::BwdAllocBytes), std::string("16"));
        QVERIFY(std::isnan(pairs.number(0, PairTable::HeldBytes)));
        const ModuleTable modules(t->modules());
        QCOMPARE(modules.text(0, ModuleTable::HeldBytes), std::string());
        QCOMPARE(modules.text(0, ModuleTable::FwdAllocBytes), std::string("64"));
        // Nor is what is alive: nothing, not every allocation ever made.
        const LiveMemory live(t->memory());
        QVERIFY(!live.known());
        QVERIFY(live.at(t->model->maxTime).empty());
        QVERIFY(live.peaks().empty());
    }

    // Two allocations at one address before a free: the free ends the later one, and the
    // earlier is counted as alloc_address_reused (--summary's diagnostics).
    void reusedAddressIsCounted()
    {
        const auto t = test::link(trace(plainOp("aten::x", 1, 100, 100) + memory(1, 110, 1, 0, 9, 8)
            + memory(1, 120, 1, 0, 9, 24) + memory(1, 130, 1, 0, 9, -24)));
        QVERIFY(t);
        const MemoryIndex &index = t->memory();
        QCOMPARE(index.diagnostics().count(Diag::AllocAddressReused), uint64_t(1));
        QCOMPARE(index.allocations()[0].freeEvent, int64_t(-1));
        QCOMPARE(index.allocations()[1].freeEvent, int64_t(2));
        QCOMPARE(kDiagnostics[size_t(Diag::AllocAddressReused)].name,
            std::string_view("alloc_address_reused"));
    }

    /*
     * Per step, held_bytes plus what ops outside any pair allocated is every forward byte alive
     * at the backward pass's start: generated traces (--memory, two steps; and with
     * checkpointing). The shared traces cannot say: the one with forward allocations (1.9
     * ResNet-50) has no `Addr`, and tl_mi300's allocations are all outside forward ops.
     */
    void heldAddsUpPerStep_data()
    {
        QTest::addColumn<QString>("path");
        for (const bool checkpoint : {false, true}) {
            const QString path = test::tempDir()
                + (checkpoint ? QStringLiteral("/checkpoint.json") : QStringLiteral("/plain.json"));
            QStringList args {
                QStringLiteral("--memory"), QStringLiteral("--steps"), QStringLiteral("2"), path};
            if (checkpoint)
                args.prepend(QStringLiteral("--checkpoint"));
            QCOMPARE(test::run(test::gentracePath(), args).exitCode, 0);
            QTest::newRow(checkpoint ? "checkpointed" : "plain") << path;
        }
    }

    void heldAddsUpPerStep()
    {
        QFETCH(QString, path);
        const OpenResult opened = openTrace(path.toStdString());
        QVERIFY2(opened.trace, opened.error.c_str());
        const auto steps = forwardLeftPerStep(*opened.trace);
        QVERIFY(!steps.empty());
        for (const auto &[plain, sum] : steps) {
            QVERIFY(plain > 0);
            QCOMPARE(sum, plain);
        }
    }

private:
    static int64_t held(const LoadedTrace &t, size_t row) { return t.pairMemory()[row].held; }
};

QTEST_GUILESS_MAIN(TestHeldMemory)
#include "tst_heldmemory.moc"
