// SPDX-License-Identifier: MIT
// Why the step is as long as it is (issue #54): the step model's path accounts for every
// microsecond of the step, names idle time, late starts and blocking waits, and its what-ifs
// replay the trace; each expected number is worked out by hand from the events written here.
#include "analysis/criticalpath/criticalpath.h"
#include "runbuilder.h"
#include "session/loadedtrace.h"
#include "testutil.h"

#include <QTest>

#include <numeric>

using namespace ks;

namespace {

TimeNs us(double v)
{
    return TimeNs(v * 1000);
}

PathQuery model(PathModel m, bool assumeStreamOrder = false)
{
    PathQuery q;
    q.model = m;
    q.assumeStreamOrder = assumeStreamOrder;
    return q;
}

std::string gpuArgs(int correlation, int stream)
{
    return R"("correlation":)" + std::to_string(correlation) + R"(,"stream":)"
        + std::to_string(stream) + R"(,"device":0)";
}

/*
 * ProfilerStep#1 [0, 1000] on thread 1, a blocking copy after a long kernel:
 *   aten::mm [5, 15] > cudaLaunchKernel [6, 9] → gemm on stream 7 [12, 692]
 *   aten::to [20, 910] > cudaMemcpyAsync [22, 902] → Memcpy DtoH on stream 7 [695, 895]
 * The copy waits 880 µs in its call for the GPU. The step's path, from 0 to 1000: idle 5 before
 * aten::mm, aten::mm 1 until its launch, launch delay 6, gemm 680, 3 between gemm and the copy,
 * the copy 200, the call's return 7 after it (sync_wait), aten::to's own 8, idle 90 to the step's
 * end.
 */
std::string blockingCopyTrace()
{
    using test::completeEvent;
    std::string e;
    e += completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 1000);
    e += completeEvent("cpu_op", "aten::mm", 1, 5, 10);
    e += completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 6, 3, R"("correlation":1)");
    e += completeEvent("cpu_op", "aten::to", 1, 20, 890);
    e += completeEvent("cuda_runtime", "cudaMemcpyAsync", 1, 22, 880, R"("correlation":2)");
    e += completeEvent("kernel", "gemm", 7, 12, 680, gpuArgs(1, 7));
    e += completeEvent(
        "gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", 7, 695, 200, gpuArgs(2, 7));
    e.pop_back();
    return test::traceWith(e);
}

/*
 * ROCm-like: nothing records that the collective's stream waits for the compute stream.
 *   aten::conv2d [10, 30] > hipLaunchKernel [12, 16] → conv_kernel on stream 0 [20, 3000]
 *   c10d::allreduce_ [40, 60] > hipExtLaunchKernel [45, 50] → ncclDevKernel on stream 4
 *   [3005, 3105]
 * in ProfilerStep#1 [0, 3200].
 */
std::string unjoinedStreamsTrace()
{
    using test::completeEvent;
    std::string e;
    e += completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 3200);
    e += completeEvent("cpu_op", "aten::conv2d", 1, 10, 20);
    e += completeEvent("cuda_runtime", "hipLaunchKernel", 1, 12, 4, R"("correlation":1)");
    e += completeEvent("cpu_op", "c10d::allreduce_", 1, 40, 20);
    e += completeEvent("cuda_runtime", "hipExtLaunchKernel", 1, 45, 5, R"("correlation":2)");
    e += completeEvent("kernel", "conv_kernel", 7, 20, 2980, gpuArgs(1, 0));
    e += completeEvent("kernel", "ncclDevKernel_Generic", 7, 3005, 100, gpuArgs(2, 4));
    e.pop_back();
    return test::traceWith(e);
}

/*
 * Two kernels on two streams both end at 500, when cudaDeviceSynchronize returns: halving either
 * leaves the other holding the sync, so no change shortens the step.
 */
std::string tiedKernelsTrace()
{
    using test::completeEvent;
    std::string e;
    e += completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 600);
    e += completeEvent("cpu_op", "opA", 1, 10, 5);
    e += completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 11, 2, R"("correlation":1)");
    e += completeEvent("cpu_op", "opB", 1, 16, 5);
    e += completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 17, 2, R"("correlation":2)");
    e += completeEvent("cuda_runtime", "cudaDeviceSynchronize", 1, 100, 400, R"("correlation":3)");
    e += completeEvent("kernel", "kA", 7, 20, 480, gpuArgs(1, 7));
    e += completeEvent("kernel", "kB", 7, 30, 470, gpuArgs(2, 8));
    e += completeEvent(
        "cuda_sync", "Context Sync", 7, 495, 5, R"("correlation":3,"stream":-1,"device":0)");
    e.pop_back();
    return test::traceWith(e);
}

struct Expected {
    const char *name;
    PathBound bound;
    double dur;
};

//! The path's segments are \a expected, contiguous from the window's start to its end.
void comparePath(const TraceModel &m, const CriticalPath &p, const std::vector<Expected> &expected)
{
    QVERIFY2(p.problem.empty(), p.problem.c_str());
    QCOMPARE(p.segments.size(), expected.size());
    TimeNs at = p.windowStart;
    for (size_t i = 0; i < expected.size(); ++i) {
        const PathSegment &s = p.segments[i];
        QCOMPARE(m.sliceName(s.event), std::string_view(expected[i].name));
        QCOMPARE(pathBoundName(s.bound), pathBoundName(expected[i].bound));
        QCOMPARE(s.dur, us(expected[i].dur));
        QCOMPARE(s.start - m.minTime, at); // a single trace's run clock starts at its first event
        at += s.dur;
    }
    QCOMPARE(at, p.windowEnd);
    QCOMPARE(p.length, p.windowEnd - p.windowStart);
    QCOMPARE(std::accumulate(p.byBound.begin(), p.byBound.end(), TimeNs(0)), p.length);
}

} // namespace

class TestStepModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_copy = test::link(blockingCopyTrace());
        m_unjoined = test::link(unjoinedStreamsTrace());
        m_tied = test::link(tiedKernelsTrace());
        QVERIFY(m_copy && m_unjoined && m_tied);
    }

    void everyMicrosecondOfTheStepAccountedFor()
    {
        const CriticalPathAnalysis cp(*m_copy->graph);
        const CriticalPath &p = cp.path();
        QCOMPARE(p.model, PathModel::Step);
        QCOMPARE(p.windowEnd - p.windowStart, us(1000));
        comparePath(*m_copy->model, p,
            {{"aten::mm", PathBound::Idle, 5}, {"aten::mm", PathBound::Cpu, 1},
                {"gemm", PathBound::Launch, 6}, {"gemm", PathBound::GpuCompute, 680},
                {"gemm", PathBound::KernelKernel, 3},
                {"Memcpy DtoH (Device -> Pageable)", PathBound::GpuCompute, 200},
                {"cudaMemcpyAsync", PathBound::SyncWait, 7}, {"aten::to", PathBound::Cpu, 8},
                {"aten::to", PathBound::Idle, 90}});
        QCOMPARE(p.byBound[size_t(PathBound::Idle)], us(95));
        QCOMPARE(p.ranks[0].slack, TimeNs(0)); // its work leads to the step's end
        // HTA's model charges the copy's 880 µs in its call to the CPU, as HTA does (its runtime
        // lock edge is an operator edge): 1 + 3 + 6 before aten::to, then 2 + 880 + 8.
        const CriticalPath hta = CriticalPathAnalysis(*m_copy->graph, model(PathModel::Hta)).path();
        QCOMPARE(hta.length, us(900));
        QCOMPARE(hta.byBound[size_t(PathBound::Cpu)], us(900));
        QCOMPARE(hta.windowEnd - hta.windowStart, us(1000));
    }

    void whatIfsReplayTheSameGraph()
    {
        for (PathModel m : {PathModel::Step, PathModel::Hta}) {
            const CriticalPathAnalysis cp(*m_copy->graph, model(m));
            const TimeNs length = cp.path().length;
            // Nothing changed, or a change touching nothing: the baseline exactly.
            QCOMPARE(cp.lengthIf("gemm", 1), length);
            QCOMPARE(cp.lengthIf("aten::mm", 1), length);
            QCOMPARE(cp.lengthIf("aten::to", 1), length);
            for (const WhatIf &w : cp.bestChanges())
                QVERIFY(w.length < length);
        }
        const CriticalPathAnalysis cp(*m_copy->graph);
        // gemm at half: 340 µs less, the copy, its return and the idle tail after it kept.
        QCOMPARE(cp.lengthIf("gemm", 0.5), us(660));
        QCOMPARE(cp.lengthIf("aten::mm", 0.5), us(660));
        // The copy (launched inside aten::to) at half: 100 less; the call's own 880 µs were its
        // wait and hold nothing back.
        QCOMPARE(cp.lengthIf("aten::to", 0.5), us(900));
        const std::vector<WhatIf> best = cp.bestChanges();
        QCOMPARE(best.size(), size_t(2));
        QCOMPARE(best[0].change.name, std::string("aten::mm"));
        QCOMPARE(best[0].length, us(660));
        QCOMPARE(best[1].change.name, std::string("aten::to"));
    }

    void namesThatMatchNothingAreTold()
    {
        const CriticalPathAnalysis cp(*m_copy->graph);
        const auto problem = [&](const char *spec) { return cp.whatIfProblem(*parseWhatIf(spec)); };
        QCOMPARE(problem("aten::mm:0.5"), std::string());
        QCOMPARE(problem("no time: gemm"), std::string());
        QCOMPARE(problem("nosuchop:0.5").substr(0, 27), std::string("no event named 'nosuchop'"));
        // The names close to a typo, closest first.
        QCOMPARE(problem("no wait: aten::m").substr(0, 41),
            std::string("no event named 'aten::m'; close: aten::mm"));
        QCOMPARE(problem("on time: rank 0"), std::string());
        QCOMPARE(problem("on time: rank 3"), std::string("no rank 3"));
        QCOMPARE(
            problem("no recompute"), std::string("no recomputed ops (activation checkpointing)"));
    }

    void changesThatDoNotShortenAreNotListed()
    {
        const CriticalPathAnalysis cp(*m_tied->graph);
        const CriticalPath &p = cp.path();
        QVERIFY2(p.problem.empty(), p.problem.c_str());
        QCOMPARE(p.length, us(600));
        // One of the two kernels is on the path; halving it leaves the other holding the sync.
        const auto onPath = [&](std::string_view name) {
            return std::any_of(p.segments.begin(), p.segments.end(),
                [&](const PathSegment &s) { return m_tied->model->sliceName(s.event) == name; });
        };
        QVERIFY(onPath("kA") != onPath("kB"));
        QCOMPARE(cp.lengthIf("opA", 0.5), p.length);
        QCOMPARE(cp.lengthIf("opB", 0.5), p.length);
        QVERIFY(cp.bestChanges().empty());
        // Both at half do shorten it: 235 µs earlier.
        QCOMPARE(cp.lengthIf("kA", 0.5) + cp.lengthIf("kB", 0.5), 2 * p.length);
    }

    void unrecordedStreamWaitIsSaid()
    {
        const TraceModel &m = *m_unjoined->model;
        const CriticalPath p = CriticalPathAnalysis(*m_unjoined->graph).path();
        comparePath(m, p,
            {{"aten::conv2d", PathBound::Idle, 10}, {"aten::conv2d", PathBound::Cpu, 2},
                {"hipLaunchKernel", PathBound::Cpu, 4}, {"aten::conv2d", PathBound::Cpu, 14},
                {"c10d::allreduce_", PathBound::Idle, 10}, {"c10d::allreduce_", PathBound::Cpu, 5},
                {"ncclDevKernel_Generic", PathBound::Idle, 2960},
                {"ncclDevKernel_Generic", PathBound::GpuCommunication, 100},
                {"ncclDevKernel_Generic", PathBound::Idle, 95}});
        QCOMPARE(p.notes.size(), size_t(1));
        QVERIFY(p.notes[0].find("stream 4") != std::string::npos);
        QVERIFY(p.notes[0].find("stream 0 was busy") != std::string::npos);
        // HTA's model calls the wait a launch delay of 2 960 µs: said too.
        const CriticalPath hta
            = CriticalPathAnalysis(*m_unjoined->graph, model(PathModel::Hta)).path();
        QCOMPARE(hta.notes.size(), size_t(1));
        // Assumed in launch order, the collective follows the convolution.
        const CriticalPath assumed
            = CriticalPathAnalysis(*m_unjoined->graph, model(PathModel::Step, true)).path();
        comparePath(m, assumed,
            {{"aten::conv2d", PathBound::Idle, 10}, {"aten::conv2d", PathBound::Cpu, 2},
                {"conv_kernel", PathBound::Launch, 8}, {"conv_kernel", PathBound::GpuCompute, 2980},
                {"ncclDevKernel_Generic", PathBound::KernelKernel, 5},
                {"ncclDevKernel_Generic", PathBound::GpuCommunication, 100},
                {"ncclDevKernel_Generic", PathBound::Idle, 95}});
        QVERIFY(assumed.notes.empty());
    }

    /*
     * Three ranks, an all-reduce launched 5 µs before its kernel, all ending at 450:
     *   rank 0, 2: ProfilerStep#1 [0, 450], work [10, 60], all-reduce [100, 450]
     *   rank 1:    ProfilerStep#1 [300, 450] (late), work [310, 360], all-reduce [400, 450]
     * The path: rank 1's late start 300, idle 10, work 50, idle 35 until the launch, launch 5,
     * then the all-reduce on rank 0 from rank 1's arrival, 50: 450 in all.
     */
    void lateStartingRankIsOnThePath()
    {
        using test::RankBuilder;
        RankBuilder r0(0, 3), r1(1, 3), r2(2, 3);
        r0.step(1, 0, 450).cpuOp("work", 10, 50).comm(100, 350);
        r1.step(1, 300, 150).cpuOp("work", 310, 50).comm(400, 50);
        r2.step(1, 0, 450).cpuOp("work", 10, 50).comm(100, 350);
        const auto run = test::runOf({&r0, &r1, &r2});
        QVERIFY(run);
        const auto cp = run->criticalPath();
        const CriticalPath &p = cp->path();
        QVERIFY2(p.problem.empty(), p.problem.c_str());
        const std::vector<std::pair<uint32_t, PathBound>> expected
            = {{1, PathBound::LateStart}, {1, PathBound::Idle}, {1, PathBound::Cpu},
                {1, PathBound::Idle}, {1, PathBound::Launch}, {0, PathBound::GpuCommunication}};
        const std::vector<double> durs = {300, 10, 50, 35, 5, 50};
        QCOMPARE(p.segments.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(p.segments[i].rank, expected[i].first);
            QCOMPARE(pathBoundName(p.segments[i].bound), pathBoundName(expected[i].second));
            QCOMPARE(p.segments[i].dur, us(durs[i]));
        }
        QCOMPARE(p.segments.back().fromRank, 1u);
        QCOMPARE(p.segments.back().collective, 0);
        QCOMPARE(p.length, us(450));
        QCOMPARE(p.ranks[1].lateStart, us(300));
        QCOMPARE(p.ranks[0].lateStart, TimeNs(0));
        QCOMPARE(p.ranks[1].time, us(400));
        QCOMPARE(p.ranks[0].time, us(50));
        // Every rank has its slack: ranks 0 and 2 could have begun 300 µs later.
        QCOMPARE(p.ranks[0].slack, us(300));
        QCOMPARE(p.ranks[1].slack, TimeNs(0));
        QCOMPARE(p.ranks[2].slack, us(300));
        // The all-reduce free: it ends at rank 1's arrival, 400.
        QCOMPARE(cp->lengthIf("ncclKernel_AllReduce_RING_LL_Sum_float", 0), us(400));
        QCOMPARE(cp->lengthIf("ncclKernel_AllReduce_RING_LL_Sum_float", 1), us(450));
    }

    //! As above with every step at 0, rank 1 slow in a CPU op [10, 390] before the all-reduce.
    void rankSlowBeforeACollectiveIsOnThePath()
    {
        using test::RankBuilder;
        RankBuilder r0(0, 3), r1(1, 3), r2(2, 3);
        r0.step(1, 0, 450).cpuOp("work", 10, 50).comm(100, 350);
        r1.step(1, 0, 450).cpuOp("slow_op", 10, 380).comm(400, 50);
        r2.step(1, 0, 450).cpuOp("work", 10, 50).comm(100, 350);
        const auto run = test::runOf({&r0, &r1, &r2});
        QVERIFY(run);
        const CriticalPath &p = run->criticalPath()->path();
        QVERIFY2(p.problem.empty(), p.problem.c_str());
        QCOMPARE(p.segments.size(), size_t(5));
        const PathSegment &slow = p.segments[1];
        QCOMPARE(run->ranks[1].graph->model().sliceName(slow.event), std::string_view("slow_op"));
        QCOMPARE(slow.rank, 1u);
        QCOMPARE(slow.bound, PathBound::Cpu);
        QCOMPARE(slow.dur, us(380));
        QCOMPARE(p.segments[0].dur + p.segments[2].dur, us(15)); // idle before and after it
        QCOMPARE(p.length, us(450));
        QCOMPARE(p.ranks[1].slack, TimeNs(0));
        QCOMPARE(p.ranks[0].slack, us(300));
        // A change touching nothing (work launches no GPU work): the baseline exactly.
        QCOMPARE(run->criticalPath()->lengthIf("work", 0.5), p.length);
    }

private:
    std::shared_ptr<const LoadedTrace> m_copy, m_unjoined, m_tied;
};

QTEST_GUILESS_MAIN(TestStepModel)
#include "tst_stepmodel.moc"
