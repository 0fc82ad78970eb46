// SPDX-License-Identifier: MIT
// Unit tests of the linker (core/opgraph) and what is built on it (pair table, step breakdown,
// summary): docs/linking.md §7 and every row of §8, and the `--export-pairs` format of cli.md.
// Each test links a small hand-written trace; the expected values are worked out by hand in the
// comments from the JSON (times in the JSON are µs, the model keeps ns: 52.000 µs = 52000 ns).
#include "analysis/health/tracecheck.h"
#include "analysis/time/gputime.h"
#include "analysis/time/stepbreakdown.h"
#include "export/pairtable.h"
#include "export/summary.h"
#include "export/table.h"
#include "link/opgraph.h"
#include "link/opnames.h"
#include "testutil.h"
#include "tracequery.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace ks;
using namespace ks::test;

namespace {

QJsonArray readJsonArray(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    return error.error == QJsonParseError::NoError ? doc.array() : QJsonArray();
}

const QString kPairHeader
    = S("fwd_name,fwd_pid,fwd_tid,fwd_ts,fwd_dur,input_dims,sequence_numbers,"
        "link,bwd_names,bwd_pid,bwd_tid,bwd_ts,bwd_dur,fwd_gpu_events,"
        "fwd_gpu_us,bwd_gpu_events,bwd_gpu_us,step,module,recompute_gpu_events,"
        "recompute_gpu_us,recomputed_gpu_us");

/*
 * aten::linear → aten::t (N=40, creates TBackward0) + aten::addmm (N+1=41, creates
 * AddmmBackward0), paired by two fwdbwd flows, inside nn.Module: Linear_0 (inside
 * nn.Module: Model_0, with a non-module Python frame in between) and ProfilerStep#3.
 *   main thread 100: ProfilerStep#3 [0, 5000]
 *     nn.Module: Model_0 [5, 405] > nn.Module: Linear_0 [10, 310]
 *     > linear.py(114): forward [15, 235] >
 *       aten::linear [20, 220] N=40
 *         aten::t [25, 35] N=40 (fwdbwd s id 1 at 25) > aten::transpose [27, 32]
 *         aten::addmm [40, 190] N=41 (fwdbwd s id 2 at 40) > cudaLaunchKernel 50 corr 401
 *   autograd thread 200:
 *     evaluate_function: AddmmBackward0 [1000, 1100] > AddmmBackward0 [1001, 1099] (f id 2)
 *       aten::mm [1005, 1045] > launch corr 402;  aten::mm [1050, 1090] > launch corr 403
 *     evaluate_function: TBackward0 [1200, 1230] > TBackward0 [1201, 1229] (f id 1) > aten::t
 *   stream 7: gemm_fwd 20.125 (corr 401), gemm_dgrad 30 (402), gemm_wgrad 10.5 (403)
 */
const char kLinear[] = R"json(
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#3","pid":100,"tid":100,"ts":0,"dur":5000},
{"ph":"X","cat":"python_function","name":"nn.Module: Model_0","pid":100,"tid":100,"ts":5,"dur":400,"args":{"Python id":1,"Python module id":0}},
{"ph":"X","cat":"python_function","name":"nn.Module: Linear_0","pid":100,"tid":100,"ts":10,"dur":300,"args":{"Python id":2,"Python parent id":1,"Python module id":1}},
{"ph":"X","cat":"python_function","name":"torch/nn/modules/linear.py(114): forward","pid":100,"tid":100,"ts":15,"dur":220,"args":{"Python id":3,"Python parent id":2}},
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":100,"tid":100,"ts":20,"dur":200,"args":{"External id":1,"Sequence number":40,"Fwd thread id":0,"Input Dims":[[8, 16], [32, 16], [32]]}},
{"ph":"X","cat":"cpu_op","name":"aten::t","pid":100,"tid":100,"ts":25,"dur":10,"args":{"External id":2,"Sequence number":40,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::transpose","pid":100,"tid":100,"ts":27,"dur":5,"args":{"External id":3}},
{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":100,"tid":100,"ts":40,"dur":150,"args":{"External id":4,"Sequence number":41,"Fwd thread id":0}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":50,"dur":5,"args":{"External id":4,"correlation":401}},
{"ph":"s","id":1,"pid":100,"tid":100,"ts":25,"cat":"fwdbwd","name":"fwdbwd"},
{"ph":"s","id":2,"pid":100,"tid":100,"ts":40,"cat":"fwdbwd","name":"fwdbwd"},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: AddmmBackward0","pid":100,"tid":200,"ts":1000,"dur":100,"args":{"External id":10,"Sequence number":41,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"AddmmBackward0","pid":100,"tid":200,"ts":1001,"dur":98,"args":{"External id":11,"Sequence number":41,"Fwd thread id":1}},
{"ph":"f","id":2,"pid":100,"tid":200,"ts":1001,"cat":"fwdbwd","name":"fwdbwd","bp":"e"},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":200,"ts":1005,"dur":40,"args":{"External id":12}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":1010,"dur":5,"args":{"External id":12,"correlation":402}},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":200,"ts":1050,"dur":40,"args":{"External id":13}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":1055,"dur":5,"args":{"External id":13,"correlation":403}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: TBackward0","pid":100,"tid":200,"ts":1200,"dur":30,"args":{"External id":14,"Sequence number":40,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"TBackward0","pid":100,"tid":200,"ts":1201,"dur":28,"args":{"External id":15,"Sequence number":40,"Fwd thread id":1}},
{"ph":"f","id":1,"pid":100,"tid":200,"ts":1201,"cat":"fwdbwd","name":"fwdbwd","bp":"e"},
{"ph":"X","cat":"cpu_op","name":"aten::t","pid":100,"tid":200,"ts":1205,"dur":10,"args":{"External id":16}},
{"ph":"X","cat":"kernel","name":"gemm_fwd","pid":0,"tid":7,"ts":100,"dur":20.125,"args":{"device":0,"stream":7,"correlation":401}},
{"ph":"X","cat":"kernel","name":"gemm_dgrad","pid":0,"tid":7,"ts":1100,"dur":30,"args":{"device":0,"stream":7,"correlation":402}},
{"ph":"X","cat":"kernel","name":"gemm_wgrad","pid":0,"tid":7,"ts":1140,"dur":10.5,"args":{"device":0,"stream":7,"correlation":403}}
)json";

/*
 * 2.x conv2d with ns-resolution times; the fwdbwd flow starts on the creator aten::convolution
 * (not aten::conv2d, which starts 0.5 µs earlier) and ends on the node (not its wrapper).
 *   main 100: ProfilerStep#1 [1000, 3000]
 *     aten::conv2d [1010, 1110] N=10 > aten::convolution [1010.5, 1109.5] N=10 (s id 1)
 *       > aten::_convolution [1011, 1109] (no number) > cudaLaunchKernel 1020 corr 101
 *   autograd 200: evaluate_function: ConvolutionBackward0 [2000, 2200] N=10
 *     > ConvolutionBackward0 [2001.25, 2191.25] (f id 1) > aten::convolution_backward [2002, 2182]
 *       > launches corr 102 (2010), corr 103 (2020)
 *   stream 7: implicit_convolve_sgemm 52.5 (101), dgrad_kernel 30.25 (102), wgrad_kernel 20 (103)
 */
const char kConv[] = R"json(
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":100,"tid":100,"ts":1000.000,"dur":2000.000},
{"ph":"X","cat":"cpu_op","name":"aten::conv2d","pid":100,"tid":100,"ts":1010.000,"dur":100.000,"args":{"External id":1,"Sequence number":10,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::convolution","pid":100,"tid":100,"ts":1010.500,"dur":99.000,"args":{"External id":2,"Sequence number":10,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::_convolution","pid":100,"tid":100,"ts":1011.000,"dur":98.000,"args":{"External id":3}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":1020.000,"dur":5.000,"args":{"External id":3,"correlation":101}},
{"ph":"s","id":1,"pid":100,"tid":100,"ts":1010.500,"cat":"fwdbwd","name":"fwdbwd"},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ConvolutionBackward0","pid":100,"tid":200,"ts":2000.000,"dur":200.000,"args":{"External id":10,"Sequence number":10,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"ConvolutionBackward0","pid":100,"tid":200,"ts":2001.250,"dur":190.000,"args":{"External id":11,"Sequence number":10,"Fwd thread id":1}},
{"ph":"f","id":1,"pid":100,"tid":200,"ts":2001.250,"cat":"fwdbwd","name":"fwdbwd","bp":"e"},
{"ph":"X","cat":"cpu_op","name":"aten::convolution_backward","pid":100,"tid":200,"ts":2002.000,"dur":180.000,"args":{"External id":12}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":2010.000,"dur":5.000,"args":{"External id":12,"correlation":102}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":2020.000,"dur":5.000,"args":{"External id":12,"correlation":103}},
{"ph":"X","cat":"kernel","name":"implicit_convolve_sgemm","pid":0,"tid":7,"ts":1100.000,"dur":52.500,"args":{"correlation":101}},
{"ph":"X","cat":"kernel","name":"dgrad_kernel","pid":0,"tid":7,"ts":2100.000,"dur":30.250,"args":{"correlation":102}},
{"ph":"X","cat":"kernel","name":"wgrad_kernel","pid":0,"tid":7,"ts":2140.000,"dur":20.000,"args":{"correlation":103}}
)json";

/*
 * The pair table trace (cli.md): pid/tid 4100/4100 forward, 4133 backward, stream 7.
 *   ProfilerStep#7 [811000, 816000]
 *     nn.Module: Conv2d_0 [811990, 812290]
 *       aten::conv2d ts 812000.250 dur 200 N=312, Input Dims [[1, 3, 8, 8], [4, 3, 3, 3]]
 *         aten::convolution [812000.5, 812181] N=312 (fwdbwd s id 9) > launch corr 5501
 *     Fn<"x", y> ts 812500 (integer) dur 100 N=313 (custom Function, no flow; the quotes are
 *       written \u0022 in the JSON: moc misreads \" inside raw string literals)
 *   4133: evaluate_function: Fn<"x", y>Backward [815000, 815100] > node at 815000.500 N=313
 *         evaluate_function: ConvolutionBackward0 [815400, 815810]
 *           > ConvolutionBackward0 at 815405.125 (f id 9) > convolution_backward > corr 5502, 5503
 *         evaluate_function: AddBackward0 [815900, 815950] > AddBackward0 at 815901.000 N=311
 *           (no forward op with 311 in the trace)
 *   stream 7: implicit_convolve_sgemm 52 (5501), dgrad 100.25 (5502), wgrad 40 (5503)
 */
const char kPairs[] = R"json(
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#7","pid":4100,"tid":4100,"ts":811000.000,"dur":5000.000},
{"ph":"X","cat":"python_function","name":"nn.Module: Conv2d_0","pid":4100,"tid":4100,"ts":811990.000,"dur":300.000},
{"ph":"X","cat":"cpu_op","name":"aten::conv2d","pid":4100,"tid":4100,"ts":812000.250,"dur":200.000,"args":{"External id":76,"Sequence number":312,"Fwd thread id":0,"Input Dims":[[1, 3, 8, 8], [4, 3, 3, 3]]}},
{"ph":"X","cat":"cpu_op","name":"aten::convolution","pid":4100,"tid":4100,"ts":812000.500,"dur":180.500,"args":{"External id":77,"Sequence number":312,"Fwd thread id":0}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":4100,"tid":4100,"ts":812090.000,"dur":6.500,"args":{"External id":77,"correlation":5501}},
{"ph":"s","id":9,"pid":4100,"tid":4100,"ts":812000.500,"cat":"fwdbwd","name":"fwdbwd"},
{"ph":"X","cat":"cpu_op","name":"Fn<\u0022x\u0022, y>","pid":4100,"tid":4100,"ts":812500,"dur":100,"args":{"External id":78,"Sequence number":313,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: Fn<\u0022x\u0022, y>Backward","pid":4100,"tid":4133,"ts":815000.000,"dur":100.000,"args":{"External id":900,"Sequence number":313,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"Fn<\u0022x\u0022, y>Backward","pid":4100,"tid":4133,"ts":815000.500,"dur":99.000,"args":{"External id":901,"Sequence number":313,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ConvolutionBackward0","pid":4100,"tid":4133,"ts":815400.000,"dur":410.000,"args":{"External id":902,"Sequence number":312,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"ConvolutionBackward0","pid":4100,"tid":4133,"ts":815405.125,"dur":395.000,"args":{"External id":903,"Sequence number":312,"Fwd thread id":1}},
{"ph":"f","id":9,"pid":4100,"tid":4133,"ts":815405.125,"cat":"fwdbwd","name":"fwdbwd","bp":"e"},
{"ph":"X","cat":"cpu_op","name":"aten::convolution_backward","pid":4100,"tid":4133,"ts":815410.000,"dur":380.000,"args":{"External id":904}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":4100,"tid":4133,"ts":815420.000,"dur":5.000,"args":{"External id":904,"correlation":5502}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":4100,"tid":4133,"ts":815430.000,"dur":5.000,"args":{"External id":904,"correlation":5503}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: AddBackward0","pid":4100,"tid":4133,"ts":815900.000,"dur":50.000,"args":{"External id":905,"Sequence number":311,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"AddBackward0","pid":4100,"tid":4133,"ts":815901.000,"dur":48.000,"args":{"External id":906,"Sequence number":311,"Fwd thread id":1}},
{"ph":"X","cat":"kernel","name":"implicit_convolve_sgemm","pid":0,"tid":7,"ts":812140.750,"dur":52.000,"args":{"External id":77,"device":0,"stream":7,"correlation":5501}},
{"ph":"X","cat":"kernel","name":"dgrad","pid":0,"tid":7,"ts":815500.000,"dur":100.250,"args":{"device":0,"stream":7,"correlation":5502}},
{"ph":"X","cat":"kernel","name":"wgrad","pid":0,"tid":7,"ts":815610.000,"dur":40.000,"args":{"device":0,"stream":7,"correlation":5503}}
)json";

} // namespace

class TestLinker : public QObject {
    Q_OBJECT

private slots:
    // The names the unpaired classification reads (docs/linking.md §7 step 9).
    void opNamesThatSayWhatWorkIs()
    {
        QVERIFY(looksLikeBackwardNode("ConvolutionBackward0"));
        QVERIFY(looksLikeBackwardNode("CudnnConvolutionBackward"));
        QVERIFY(!looksLikeBackwardNode("aten::convolution_backward"));
        QVERIFY(!looksLikeBackwardNode("Backwards"));
        QVERIFY(isHousekeepingScope("Optimizer.step#SGD.step"));
        QVERIFY(isHousekeepingScope("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
        QVERIFY(isHousekeepingScope("## optimizer ##"));
        QVERIFY(isHousekeepingScope("AdamOptimizerStep"));
        QVERIFY(!isHousekeepingScope("## forward ##"));
        QVERIFY(!isHousekeepingScope("optimize")); // not the whole word
    }

    // GPU attribution (§7 steps 4–5)
    void gpuEventsJoinTheirLaunchByCorrelation();
    void launchFlowIsTheFallbackWithoutCorrelation();
    void launchGoesToInnermostOpRefinedByExternalId();
    void graphReplayIsNamedByWhatItRanUnder();
    void annotatedGraphKernelsBelongToTheirAnnotation();
    void externalIdEqualToCorrelationIsIgnored();
    void launchWithoutEnclosingOpUsesExternalIdMatch();
    void legacyLowercaseExternalIdIsRead();
    void windowEdgeGpuEventsStayUnattributed();
    void ncclKernelsAreAttributedAndCountedAsCommunication();
    void gpuUserAnnotationIsNotGpuWork();
    void otherAcceleratorsDoDeviceWork();

    // Forward ↔ backward (§7 steps 6–8, §8)
    void fwdbwdFlowPairsCreatorWithNodeNotWrapper();
    void legacyForwardBackwardFlowPrefersDeepestNumberedOp();
    void flowWithDifferentNumbersIsDroppedForSequence();
    void flowAndSequenceDisagreementIsCounted();
    void sequenceFallbackPicksLastStartingOpEndedBeforeNode();
    void sequenceFallbackWithoutFlowsReproducesFlowPairs();
    void forwardThreadsAreMappedNeverPairedByNumberAlone();
    void gradientAccumulationPairsEachForward();
    void checkpointRecomputeIsItsOwnFlaggedRow();
    void createGraphOpsInsideNodeAreHigherOrderForward();
    void customFunctionPairsWithItsBackward();
    void compiledFunctionPairsWithCompiledFunctionBackward();
    void accumulateGradIsNotPairedAndCountsAsBackwardOther();
    void backwardHookNodeIsNotPaired();
    void graphRootWithNumberIsNotANode();
    void nodeWithoutForwardIsAnUnpairedRow();
    void forwardOpWithoutNodeHasNoRow();
    void cpuOnlyTracePairsOnTheMainThread();
    void traceWithoutSequenceNumbersHasNoPairs();
    void reusedSequenceNumberTakesClosestPrecedingCreator();
    void pairMayStraddleStepsAndRowsSortByFirstEvent();
    void stepNamesNeedAFittingNumber();

    // Display level, counterparts, GPU time per row (§7 steps 10–12)
    void linearRowOwnsBothNodes();
    void counterpartsAndRowOfFollowTheDisplayRow();
    void displayClimbStopsAtStepsAnnotationsAndPython();

    // Tables and reports
    void pairTableCsvMatchesCliFormat();
    void pairTableJsonExportHasNumbersAsNumbers();
    void summaryCountsMatchTheGraph();
    void stepBreakdownSplitsGpuTimeAndMergesStreams();
    void gzippedTraceWithInvalidEscapeLinksTheSame();
};

// ---------------------------------------------------------------------------------------------
// GPU attribution

void TestLinker::gpuEventsJoinTheirLaunchByCorrelation()
{
    // One op launches a kernel, a CUDA graph (two kernels on one correlation), a memcpy and a
    // memset. All five GPU events belong to aten::mm.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":100,"dur":50,"args":{"External id":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":110,"dur":5,"args":{"External id":1,"correlation":11}},
{"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":100,"tid":100,"ts":120,"dur":10,"args":{"External id":1,"correlation":12}},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":100,"tid":100,"ts":135,"dur":5,"args":{"External id":1,"correlation":13}},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemsetAsync","pid":100,"tid":100,"ts":142,"dur":3,"args":{"External id":1,"correlation":14}},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":200,"dur":20,"args":{"device":0,"stream":7,"correlation":11}},
{"ph":"X","cat":"kernel","name":"graph_k1","pid":0,"tid":7,"ts":230,"dur":10,"args":{"device":0,"stream":7,"correlation":12}},
{"ph":"X","cat":"kernel","name":"graph_k2","pid":0,"tid":7,"ts":245,"dur":15,"args":{"device":0,"stream":7,"correlation":12}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoD (Device -> Device)","pid":0,"tid":7,"ts":265,"dur":5,"args":{"device":0,"stream":7,"correlation":13}},
{"ph":"X","cat":"gpu_memset","name":"Memset (Device)","pid":0,"tid":7,"ts":275,"dur":2,"args":{"device":0,"stream":7,"correlation":14}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.gpuEvents().size(), size_t(5));
    QCOMPARE(g.stats().gpuEvents, uint64_t(5));
    QCOMPARE(g.stats().gpuEventsWithLaunch, uint64_t(5));
    QCOMPARE(g.stats().gpuEventsAttributed, uint64_t(5));

    const SliceId mm = find(m, "aten::mm");
    const SliceId graphLaunch = find(m, "cudaGraphLaunch");
    QCOMPARE(g.launchOf(gpuEvent(g, "gemm")), find(m, "cudaLaunchKernel"));
    QCOMPARE(g.launchOf(gpuEvent(g, "graph_k1")), graphLaunch);
    QCOMPARE(g.launchOf(gpuEvent(g, "graph_k2")), graphLaunch);
    QCOMPARE(g.launchOf(gpuEvent(g, "Memcpy DtoD (Device -> Device)")), find(m, "cudaMemcpyAsync"));
    QCOMPARE(g.launchOf(gpuEvent(g, "Memset (Device)")), find(m, "cudaMemsetAsync"));
    for (SliceId k : g.gpuEvents())
        QCOMPARE(nameOf(m, g.launchingOp(k)), S("aten::mm"));

    // Both graph kernels under the graph launch: 10 + 15 = 25 µs.
    const auto underGraph = g.gpuEventsUnder(graphLaunch);
    QCOMPARE(namesOf(m, {underGraph.begin(), underGraph.end()}),
        QStringList({S("graph_k1"), S("graph_k2")}));
    QCOMPARE(g.gpuTotalsUnder(graphLaunch).count, 2u);
    QCOMPARE(g.gpuTotalsUnder(graphLaunch).time, TimeNs(25000));
    // Everything under aten::mm: 20 + 10 + 15 + 5 (memcpy) + 2 (memset) = 52 µs in 5 events.
    QCOMPARE(g.gpuTotalsUnder(mm).count, 5u);
    QCOMPARE(g.gpuTotalsUnder(mm).time, TimeNs(52000));
}

void TestLinker::launchFlowIsTheFallbackWithoutCorrelation()
{
    // No runtime carries a correlation: the kernels are joined to their launches only by the
    // launch flows, one per category name used over the years (ac2g, async_cpu_to_gpu, async).
    // k_add's flow ends at 400, where a gpu_user_annotation starts too (2.x shape): the kernel,
    // not the annotation, is the flow's end. k_lost has neither runtime nor flow.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":100,"tid":100,"ts":100,"dur":20,"args":{"External id":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":105,"dur":5,"args":{"External id":1}},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":200,"dur":20,"args":{"External id":2}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":205,"dur":5,"args":{"External id":2}},
{"ph":"X","cat":"cpu_op","name":"aten::sub","pid":100,"tid":100,"ts":300,"dur":20,"args":{"External id":3}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":305,"dur":5,"args":{"External id":3}},
{"ph":"X","cat":"gpu_user_annotation","name":"my_block","pid":0,"tid":7,"ts":400,"dur":30},
{"ph":"X","cat":"kernel","name":"k_add","pid":0,"tid":7,"ts":400,"dur":4,"args":{"correlation":21}},
{"ph":"X","cat":"kernel","name":"k_mul","pid":0,"tid":7,"ts":410,"dur":4,"args":{"correlation":22}},
{"ph":"X","cat":"kernel","name":"k_sub","pid":0,"tid":7,"ts":420,"dur":4,"args":{"correlation":23}},
{"ph":"X","cat":"kernel","name":"k_lost","pid":0,"tid":7,"ts":440,"dur":4,"args":{"correlation":24}},
{"ph":"s","id":21,"pid":100,"tid":100,"ts":105,"cat":"ac2g","name":"ac2g"},
{"ph":"f","id":21,"pid":0,"tid":7,"ts":400,"cat":"ac2g","name":"ac2g","bp":"e"},
{"ph":"s","id":22,"pid":100,"tid":100,"ts":205,"cat":"async_cpu_to_gpu","name":"async_gpu"},
{"ph":"f","id":22,"pid":0,"tid":7,"ts":410,"cat":"async_cpu_to_gpu","name":"async_gpu","bp":"e"},
{"ph":"s","id":23,"pid":100,"tid":100,"ts":305,"cat":"async","name":"launch"},
{"ph":"f","id":23,"pid":0,"tid":7,"ts":420,"cat":"async","name":"launch","bp":"e"}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.gpuEvents().size(), size_t(4)); // the annotation is not GPU work
    QCOMPARE(g.launchOf(gpuEvent(g, "k_add")), find(m, "cudaLaunchKernel", 0));
    QCOMPARE(g.launchOf(gpuEvent(g, "k_mul")), find(m, "cudaLaunchKernel", 1));
    QCOMPARE(g.launchOf(gpuEvent(g, "k_sub")), find(m, "cudaLaunchKernel", 2));
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "k_add"))), S("aten::add"));
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "k_mul"))), S("aten::mul"));
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "k_sub"))), S("aten::sub"));
    QCOMPARE(g.launchOf(gpuEvent(g, "k_lost")), kNoSlice);
    QCOMPARE(g.stats().gpuEventsWithLaunch, uint64_t(3));
    QCOMPARE(g.stats().gpuEventsAttributed, uint64_t(3));
}

void TestLinker::launchGoesToInnermostOpRefinedByExternalId()
{
    // aten::linear [100, 200] ext 1 > aten::addmm [110, 190] ext 2
    //   L1 (120) ext 2                       → addmm (innermost, its own External id)
    //   my_scope [130, 170] ext 5 (user-scope cpu_op)
    //     L2 (140) ext 2                     → addmm (External id names an ancestor)
    //     L3 (150) no External id            → my_scope (innermost)
    //     L4 (160) ext 999, matches nothing  → my_scope (innermost)
    //   my_range [175, 185] user_annotation > L5 (178) ext 2 → addmm (annotations are not ops)
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":100,"tid":100,"ts":100,"dur":100,"args":{"External id":1}},
{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":100,"tid":100,"ts":110,"dur":80,"args":{"External id":2}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":120,"dur":5,"args":{"External id":2,"correlation":31}},
{"ph":"X","cat":"cpu_op","name":"my_scope","pid":100,"tid":100,"ts":130,"dur":40,"args":{"External id":5}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":140,"dur":5,"args":{"External id":2,"correlation":32}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":150,"dur":5,"args":{"correlation":33}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":160,"dur":5,"args":{"External id":999,"correlation":34}},
{"ph":"X","cat":"user_annotation","name":"my_range","pid":100,"tid":100,"ts":175,"dur":10},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":178,"dur":3,"args":{"External id":2,"correlation":35}},
{"ph":"X","cat":"kernel","name":"k31","pid":0,"tid":7,"ts":300,"dur":5,"args":{"correlation":31}},
{"ph":"X","cat":"kernel","name":"k32","pid":0,"tid":7,"ts":310,"dur":5,"args":{"correlation":32}},
{"ph":"X","cat":"kernel","name":"k33","pid":0,"tid":7,"ts":320,"dur":5,"args":{"correlation":33}},
{"ph":"X","cat":"kernel","name":"k34","pid":0,"tid":7,"ts":330,"dur":5,"args":{"correlation":34}},
{"ph":"X","cat":"kernel","name":"k35","pid":0,"tid":7,"ts":340,"dur":5,"args":{"correlation":35}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "k31"))), S("aten::addmm"));
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "k32"))), S("aten::addmm"));
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "k33"))), S("my_scope"));
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "k34"))), S("my_scope"));
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "k35"))), S("aten::addmm"));
    QCOMPARE(g.stats().gpuEventsAttributed, uint64_t(5));
}

/*
 * A replay whose nodes PyTorch's exporter annotated (torch.cuda.graph_annotations baked in:
 * `"cudaGraphInlineAnnotated": true`, the annotation's fields in the kernel's args, moved to lane
 * 7 with `original_stream`, as PyTorch's 2026 streaming exporter export_chrome_trace writes them,
 * _INLINE_ANNOTATED_KEY and _annotation_args): k1 belongs to "attention", k2 to "mlp", k3 (none)
 * to the Python frame. k1 and k2 ran on streams 13 and 14 at once: no overlap on one stream.
 */
void TestLinker::annotatedGraphKernelsBelongToTheirAnnotation()
{
    const std::string events = R"json(
{"ph":"X","cat":"python_function","name":"cuda_graph.py(208): __call__","pid":100,"tid":100,"ts":100,"dur":50},
{"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":100,"tid":100,"ts":110,"dur":5,"args":{"correlation":12}},
{"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":230,"dur":20,"args":{"device":0,"stream":7,"correlation":12,"graph id":3,"graph node id":5,"original_stream":13,"name":"attention"}},
{"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":7,"ts":240,"dur":20,"args":{"device":0,"stream":7,"correlation":12,"graph id":3,"graph node id":6,"original_stream":14,"name":"mlp"}},
{"ph":"X","cat":"kernel","name":"k3","pid":0,"tid":7,"ts":270,"dur":5,"args":{"device":0,"stream":7,"correlation":12,"graph id":3,"graph node id":7}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const KernelTable kernels(*trace->graph);
    QStringList rows;
    for (size_t r = 0; r < kernels.rowCount(); ++r)
        rows << QString::fromStdString(kernels.text(r, KernelTable::Name) + " | "
            + kernels.text(r, KernelTable::OpName) + " | " + kernels.text(r, KernelTable::OpTs));
    QCOMPARE(rows,
        QStringList({S("k1 | attention | "), S("k2 | mlp | "),
            S("k3 | cuda_graph.py(208): __call__ | 100")}));
    for (const Finding &f : trace->findings())
        QVERIFY2(f.check != Check::KernelsOverlapOnStream, f.example.c_str());
}

void TestLinker::externalIdEqualToCorrelationIsIgnored()
{
    // 2022–2024 traces: External id on the runtime repeats its correlation.
    //   aten::outer [100, 200] ext 5001 > aten::inner [110, 160] ext 7 > launch ext = corr = 5001
    //   Were the External id used, it would climb to aten::outer; ignored, containment says
    //   aten::inner.
    //   Thread 300 has a launch and no op; its External id = corr = 6001 equals the External id
    //   of aten::elsewhere only by coincidence: the kernel keeps its launch but no op.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::outer","pid":100,"tid":100,"ts":100,"dur":100,"args":{"External id":5001}},
{"ph":"X","cat":"cpu_op","name":"aten::inner","pid":100,"tid":100,"ts":110,"dur":50,"args":{"External id":7}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":120,"dur":5,"args":{"External id":5001,"correlation":5001}},
{"ph":"X","cat":"cpu_op","name":"aten::elsewhere","pid":100,"tid":100,"ts":300,"dur":50,"args":{"External id":6001}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":300,"ts":310,"dur":5,"args":{"External id":6001,"correlation":6001}},
{"ph":"X","cat":"kernel","name":"k_a","pid":0,"tid":7,"ts":400,"dur":10,"args":{"External id":5001,"correlation":5001}},
{"ph":"X","cat":"kernel","name":"k_b","pid":0,"tid":7,"ts":420,"dur":10,"args":{"External id":6001,"correlation":6001}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "k_a"))), S("aten::inner"));
    QVERIFY(g.launchOf(gpuEvent(g, "k_b")) != kNoSlice);
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "k_b"))), S("<none>"));
    QCOMPARE(g.stats().gpuEventsWithLaunch, uint64_t(2));
    QCOMPARE(g.stats().gpuEventsAttributed, uint64_t(1));
}

void TestLinker::launchWithoutEnclosingOpUsesExternalIdMatch()
{
    // The memcpy's launch runs on thread 300 with no op around it; its External id 42 names
    // aten::copy_ on thread 100 (and no other op), so the memcpy is attributed to aten::copy_.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":100,"tid":100,"ts":100,"dur":50,"args":{"External id":42}},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":100,"tid":300,"ts":120,"dur":5,"args":{"External id":42,"correlation":51}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pinned -> Device)","pid":0,"tid":7,"ts":200,"dur":8,"args":{"correlation":51}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    const SliceId memcpy = gpuEvent(g, "Memcpy HtoD (Pinned -> Device)");
    QCOMPARE(g.launchOf(memcpy), find(m, "cudaMemcpyAsync"));
    QCOMPARE(g.launchingOp(memcpy), find(m, "aten::copy_"));
    QCOMPARE(g.stats().gpuEventsAttributed, uint64_t(1));
}

void TestLinker::legacyLowercaseExternalIdIsRead()
{
    // PyTorch 1.8–1.10: `Operator`/`Runtime`/`Kernel`/`Memcpy` categories, `external id` in
    // lower case on runtime and GPU events, string stream tids.
    //   aten::foo [100, 200] ext 3 > aten::bar [110, 190] ext 4 > launch "external id" 3
    //     → aten::foo (the lowercase id names the ancestor; containment alone says aten::bar)
    //   thread 300: cudaMemcpyAsync "external id" 4, no op around it → aten::bar by id
    const std::string events = R"json(
{"ph":"X","cat":"Operator","name":"aten::foo","pid":100,"tid":100,"ts":100,"dur":100,"args":{"External id":3}},
{"ph":"X","cat":"Operator","name":"aten::bar","pid":100,"tid":100,"ts":110,"dur":80,"args":{"External id":4}},
{"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":120,"dur":5,"args":{"correlation":61,"external id":3,"external ts":100}},
{"ph":"X","cat":"Runtime","name":"cudaMemcpyAsync","pid":100,"tid":300,"ts":130,"dur":5,"args":{"correlation":62,"external id":4,"external ts":110}},
{"ph":"X","cat":"Kernel","name":"k61","pid":0,"tid":"stream 7","ts":300,"dur":10,"args":{"correlation":61,"external id":3,"stream":7,"device":0}},
{"ph":"X","cat":"Memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":"stream 7","ts":320,"dur":4,"args":{"correlation":62,"external id":4,"stream":7,"device":0}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.gpuEvents().size(), size_t(2));
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "k61"))), S("aten::foo"));
    QCOMPARE(
        nameOf(m, g.launchingOp(gpuEvent(g, "Memcpy HtoD (Pageable -> Device)"))), S("aten::bar"));
    QCOMPARE(g.stats().gpuEventsAttributed, uint64_t(2));
}

void TestLinker::windowEdgeGpuEventsStayUnattributed()
{
    // k_before_window: launched before the profile started (no runtime, no flow).
    // k_no_op: its launch is found but no op encloses it and it has no External id.
    // The launch in aten::mul (corr 901) lost its kernel at the end of the window.
    // A lone ac2g `f` on cudaStreamSynchronize and a lone `s` on cudaDeviceSynchronize are
    // ignored (informational loader diagnostics, nothing for the linker).
    const std::string events = R"json(
{"ph":"X","cat":"kernel","name":"k_before_window","pid":0,"tid":7,"ts":50,"dur":10,"args":{"correlation":900}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":100,"dur":5,"args":{"correlation":902}},
{"ph":"X","cat":"kernel","name":"k_no_op","pid":0,"tid":7,"ts":120,"dur":10,"args":{"correlation":902}},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":200,"dur":20,"args":{"External id":5}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":210,"dur":5,"args":{"External id":5,"correlation":901}},
{"ph":"X","cat":"cuda_runtime","name":"cudaStreamSynchronize","pid":100,"tid":100,"ts":230,"dur":5,"args":{"correlation":903}},
{"ph":"f","id":903,"pid":100,"tid":100,"ts":230,"cat":"ac2g","name":"ac2g","bp":"e"},
{"ph":"X","cat":"cuda_runtime","name":"cudaDeviceSynchronize","pid":100,"tid":100,"ts":240,"dur":5,"args":{"correlation":904}},
{"ph":"s","id":904,"pid":100,"tid":100,"ts":240,"cat":"ac2g","name":"ac2g"}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.gpuEvents().size(), size_t(2));
    const SliceId before = gpuEvent(g, "k_before_window");
    const SliceId noOp = gpuEvent(g, "k_no_op");
    QCOMPARE(g.launchOf(before), kNoSlice);
    QCOMPARE(g.launchingOp(before), kNoSlice);
    QCOMPARE(g.rowOf(before), -1);
    QCOMPARE(side(g, before), S("unattributed"));
    QCOMPARE(g.launchOf(noOp), find(m, "cudaLaunchKernel", 0));
    QCOMPARE(g.launchingOp(noOp), kNoSlice);
    QCOMPARE(side(g, noOp), S("other"));
    QCOMPARE(g.stats().gpuEventsWithLaunch, uint64_t(1));
    QCOMPARE(g.stats().gpuEventsAttributed, uint64_t(0));
    QCOMPARE(g.gpuTotalsUnder(find(m, "aten::mul")).count, 0u);

    QCOMPARE(m.diagnostics.count("flow_end_without_start"), uint64_t(1));
    QCOMPARE(m.diagnostics.count("flow_start_without_end"), uint64_t(1));
    QCOMPARE(m.diagnostics.warnings(), uint64_t(0));
    QVERIFY(g.diagnostics().empty());
}

void TestLinker::ncclKernelsAreAttributedAndCountedAsCommunication()
{
    // c10d::allreduce_ > record_param_comms > nccl:all_reduce (user annotation) > launch ext 2:
    // the NCCL kernel belongs to record_param_comms, the innermost cpu_op (§5, §8).
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"c10d::allreduce_","pid":100,"tid":100,"ts":100,"dur":50,"args":{"External id":1}},
{"ph":"X","cat":"cpu_op","name":"record_param_comms","pid":100,"tid":100,"ts":105,"dur":40,"args":{"External id":2,"Collective name":"allreduce"}},
{"ph":"X","cat":"user_annotation","name":"nccl:all_reduce","pid":100,"tid":100,"ts":110,"dur":30},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":115,"dur":5,"args":{"External id":2,"correlation":61}},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":200,"dur":20,"args":{"External id":3}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":205,"dur":5,"args":{"External id":3,"correlation":62}},
{"ph":"X","cat":"gpu_user_annotation","name":"nccl:all_reduce","pid":0,"tid":20,"ts":300,"dur":100},
{"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","pid":0,"tid":20,"ts":300,"dur":100,"args":{"device":0,"stream":20,"correlation":61}},
{"ph":"X","cat":"kernel","name":"elementwise_kernel","pid":0,"tid":7,"ts":300,"dur":10,"args":{"device":0,"stream":7,"correlation":62}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    const SliceId nccl = gpuEvent(g, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    QCOMPARE(g.gpuEvents().size(), size_t(2));
    QCOMPARE(nameOf(m, g.launchingOp(nccl)), S("record_param_comms"));
    QCOMPARE(g.stats().communicationGpuEvents, uint64_t(1));
    QCOMPARE(g.stats().gpuEventsAttributed, uint64_t(2));
    // Under c10d::allreduce_: the NCCL kernel only, 100 µs.
    QCOMPARE(g.gpuTotalsUnder(find(m, "c10d::allreduce_")).count, 1u);
    QCOMPARE(g.gpuTotalsUnder(find(m, "c10d::allreduce_")).time, TimeNs(100000));

    const KernelTable kernels(g);
    QCOMPARE(kernels.rowCount(), size_t(2));
    for (size_t r = 0; r < kernels.rowCount(); ++r) {
        const bool isNccl = g.gpuEvents()[r] == nccl;
        QCOMPARE(QString::fromStdString(kernels.text(r, KernelTable::Communication)),
            isNccl ? S("1") : S("0"));
        QCOMPARE(QString::fromStdString(kernels.text(r, KernelTable::OpName)),
            isNccl ? S("record_param_comms") : S("aten::mul"));
    }
}

/*
 * Issue #32: a CUDA graph replayed from Python (vLLM's cuda_graph.py __call__) has no cpu_op
 * around its cudaGraphLaunch: its kernels are unattributed, yet op_name names the innermost host
 * event around the launch; a kernel whose launch is at the thread's top sits under a GPU
 * annotation, which names it. graph id / graph node id (kineto#1276/#1277, "graph id" and
 * "graph node id" in pytorch/kineto 032aa9ee MetadataFieldCatalog.h) are exported.
 */
void TestLinker::graphReplayIsNamedByWhatItRanUnder()
{
    const std::string events = R"json(
{"ph":"X","cat":"python_function","name":"vllm/compilation/cuda_graph.py(208): __call__","pid":100,"tid":100,"ts":100,"dur":50},
{"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":100,"tid":100,"ts":110,"dur":5,"args":{"correlation":12}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":300,"dur":5,"args":{"correlation":13}},
{"ph":"X","cat":"kernel","name":"graph_k1","pid":0,"tid":7,"ts":230,"dur":10,"args":{"device":0,"stream":7,"correlation":12,"graph id":3,"graph node id":17}},
{"ph":"X","cat":"kernel","name":"graph_k2","pid":0,"tid":7,"ts":245,"dur":15,"args":{"device":0,"stream":7,"correlation":12,"graph id":3,"graph node id":18}},
{"ph":"X","cat":"gpu_user_annotation","name":"execute_model","pid":0,"tid":7,"ts":400,"dur":50},
{"ph":"X","cat":"kernel","name":"lone","pid":0,"tid":7,"ts":410,"dur":10,"args":{"device":0,"stream":7,"correlation":13}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;
    QCOMPARE(g.stats().gpuEventsAttributed, uint64_t(0)); // no op launched any of them
    const KernelTable kernels(g);
    QStringList rows;
    for (size_t r = 0; r < kernels.rowCount(); ++r)
        rows << QString::fromStdString(kernels.text(r, KernelTable::Name) + " | "
            + kernels.text(r, KernelTable::OpName) + " | " + kernels.text(r, KernelTable::OpTs)
            + " | " + kernels.text(r, KernelTable::GraphId) + " | "
            + kernels.text(r, KernelTable::GraphNodeId));
    QCOMPARE(rows,
        QStringList({S("graph_k1 | vllm/compilation/cuda_graph.py(208): __call__ | 100 | 3 | 17"),
            S("graph_k2 | vllm/compilation/cuda_graph.py(208): __call__ | 100 | 3 | 18"),
            S("lone | execute_model | 400 |  | ")}));
    QCOMPARE(kernels.columnName(KernelTable::GraphId), std::string_view("graph_id"));
    QCOMPARE(g.launchScope(find(m, "cudaLaunchKernel")), kNoSlice); // not a GPU event
}

void TestLinker::otherAcceleratorsDoDeviceWork()
{
    // Categories as Kineto names them (pytorch/kineto 114171df, libkineto/include/ActivityType.h):
    // an MTIA op launches a CCP event joined by an ac2g flow only (output_json.cpp,
    // handleGenericLink), an XPU op a kernel by correlation; one CCP event has no launch; CUPTI's
    // own overhead (pid -1, handleOverheadInfo) is no GPU work; a stream wait keeps its record.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":100,"dur":50,"args":{"External id":1}},
{"ph":"X","cat":"mtia_runtime","name":"runFunction","pid":100,"tid":100,"ts":110,"dur":5,"args":{"External id":1}},
{"ph":"s","id":77,"pid":100,"tid":100,"ts":110,"cat":"ac2g","name":"ac2g"},
{"ph":"X","cat":"mtia_ccp_events","name":"mm_kernel","pid":2,"tid":3,"ts":200,"dur":40},
{"ph":"f","id":77,"pid":2,"tid":3,"ts":200,"cat":"ac2g","name":"ac2g","bp":"e"},
{"ph":"X","cat":"mtia_ccp_events","name":"orphan","pid":2,"tid":3,"ts":300,"dur":10},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":100,"tid":100,"ts":400,"dur":50,"args":{"External id":2}},
{"ph":"X","cat":"xpu_runtime","name":"zeCommandListAppendLaunchKernel","pid":100,"tid":100,"ts":410,"dur":5,"args":{"External id":2,"correlation":9}},
{"ph":"X","cat":"kernel","name":"add_kernel","pid":1,"tid":4,"ts":500,"dur":30,"args":{"device":1,"stream":4,"correlation":9}},
{"ph":"X","cat":"overhead","name":"Buffer Flush","pid":-1,"tid":0,"ts":600,"dur":80},
{"ph":"M","name":"process_labels","pid":2,"tid":0,"args":{"labels":"MTIA 0"}},
{"ph":"X","cat":"cuda_sync","name":"Stream Wait Event","pid":1,"tid":4,"ts":700,"dur":1,"args":{"cuda_sync_kind":"Stream Wait Event","wait_on_stream":7,"wait_on_cuda_event_record_corr_id":55,"stream":4,"device":1}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;
    QCOMPARE(
        namesOf(m, g.gpuEvents()), QStringList({S("add_kernel"), S("mm_kernel"), S("orphan")}));
    QCOMPARE(g.stats().gpuEvents, uint64_t(3));
    QCOMPARE(g.stats().gpuEventsAttributed, uint64_t(2));
    QCOMPARE(g.gpuTotalsUnder(find(m, "aten::mm")).time, TimeNs(40000));
    QCOMPARE(g.gpuTotalsUnder(find(m, "aten::add")).time, TimeNs(30000));
    const SliceId overhead = find(m, "Buffer Flush");
    QCOMPARE(m.slices.kind[overhead], EventKind::Overhead);
    QVERIFY(!m.lanes[m.slices.lane[overhead]].device);
    const GpuInfo *wait = m.gpu(find(m, "Stream Wait Event"));
    QVERIFY(wait);
    QCOMPARE(wait->waitOnRecord, int64_t(55));
    QCOMPARE(wait->stream, 4);
    // "MTIA 0" labels the device side of pid 2, as "GPU 0" would.
    const auto mtia = std::find_if(m.processes.begin(), m.processes.end(),
        [](const Process &p) { return p.pid == 2 && p.device; });
    QVERIFY(mtia != m.processes.end());
    QCOMPARE(m.str(mtia->labels), std::string_view("MTIA 0"));
}

void TestLinker::gpuUserAnnotationIsNotGpuWork()
{
    // The gpu_user_annotation copies of ProfilerStep#1 and my_range on stream 7 are not GPU work
    // and not steps: one GPU event (gemm, 100 µs) and one step.
    const std::string events = R"json(
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":100,"tid":100,"ts":0,"dur":1000},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":10,"dur":50,"args":{"External id":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":20,"dur":5,"args":{"External id":1,"correlation":1}},
{"ph":"X","cat":"gpu_user_annotation","name":"ProfilerStep#1","pid":0,"tid":7,"ts":0,"dur":1000},
{"ph":"X","cat":"gpu_user_annotation","name":"my_range","pid":0,"tid":7,"ts":100,"dur":200},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":150,"dur":100,"args":{"correlation":1}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(namesOf(m, g.gpuEvents()), QStringList({S("gemm")}));
    QCOMPARE(g.stats().gpuEvents, uint64_t(1));
    QCOMPARE(g.steps().size(), size_t(1));
    QCOMPARE(g.gpuTotalsUnder(find(m, "aten::mm")).time, TimeNs(100000));
    // Busy = the kernel only (100 µs), not the 1000 µs annotation; the GPU span is the kernel's.
    const std::vector<StepBreakdown> steps = stepBreakdown(g);
    QCOMPARE(steps.size(), size_t(1));
    QCOMPARE(steps[0].busy, TimeNs(100000));
    QCOMPARE(steps[0].span(), TimeNs(100000));
    QCOMPARE(steps[0].idle(), TimeNs(0));
    // No op of this trace carries a sequence number, so nothing pairs: the main thread's op is
    // forward work by its thread (docs/linking.md §7 step 9), in every view alike.
    QCOMPARE(steps[0].part(WorkPart::Forward), TimeNs(100000));
    QCOMPARE(steps[0].part(WorkPart::Other), TimeNs(0));
}

// ---------------------------------------------------------------------------------------------
// Forward ↔ backward

void TestLinker::fwdbwdFlowPairsCreatorWithNodeNotWrapper()
{
    const auto trace = test::link(test::traceWith(kConv));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    const SliceId conv2d = find(m, "aten::conv2d");
    const SliceId creator = find(m, "aten::convolution");
    const SliceId node = find(m, "ConvolutionBackward0");
    const SliceId wrapper = find(m, "autograd::engine::evaluate_function: ConvolutionBackward0");

    QCOMPARE(g.nodes().size(), size_t(1));
    const BackwardNode &n = g.nodes()[0];
    QCOMPARE(n.node, node);
    QCOMPARE(n.outer, wrapper);
    QCOMPARE(nameOf(m, n.creator), S("aten::convolution"));
    QCOMPARE(n.creator, creator);
    QCOMPARE(link(n.method), S("flow"));
    QCOMPARE(g.nodeOf(wrapper), 0);
    QCOMPARE(g.nodeOf(node), 0);

    const LinkStats &s = g.stats();
    QCOMPARE(s.backwardNodes, uint64_t(1));
    QCOMPARE(s.pairsFromFlows, uint64_t(1));
    QCOMPARE(s.pairsFromSequence, uint64_t(0));
    QCOMPARE(s.unpairedBackward, uint64_t(0));
    QVERIFY(s.hasSequenceNumbers);
    // The fallback alone would also choose aten::convolution (the last-starting op with
    // number 10 that ended, at 1109.5, before the node's 2001.25).
    QCOMPARE(s.flowPairsCheckedBySequence, uint64_t(1));
    QCOMPARE(s.flowPairsAgreeingWithSequence, uint64_t(1));
    QVERIFY(g.diagnostics().empty());

    // Display row aten::conv2d. GPU: forward 52.5 µs (1 kernel), backward 30.25 + 20 = 50.25 µs
    // (2 kernels); bwd_dur = the wrapper's 200 µs; step 1 (1010 in [1000, 3000]).
    QCOMPARE(g.rows().size(), size_t(1));
    const PairRow &row = g.rows()[0];
    QCOMPARE(row.forward, conv2d);
    QCOMPARE(link(row.link), S("flow"));
    QVERIFY(!row.recompute);
    QCOMPARE(row.forwardGpu.count, 1u);
    QCOMPARE(row.forwardGpu.time, TimeNs(52500));
    QCOMPARE(row.backwardGpu.count, 2u);
    QCOMPARE(row.backwardGpu.time, TimeNs(50250));
    QCOMPARE(row.backwardDur, TimeNs(200000));
    QCOMPARE(row.step, int64_t(1));
    QCOMPARE(side(g, gpuEvent(g, "implicit_convolve_sgemm")), S("forward"));
    QCOMPARE(side(g, gpuEvent(g, "dgrad_kernel")), S("backward"));

    const PairTable table(g);
    QCOMPARE(cell(table, 0, PairTable::FwdTs), S("1010.000"));
    QCOMPARE(cell(table, 0, PairTable::FwdGpuUs), S("52.500"));
    QCOMPARE(cell(table, 0, PairTable::BwdGpuUs), S("50.250"));
    QCOMPARE(cell(table, 0, PairTable::BwdTs), S("2001.250"));
    QCOMPARE(cell(table, 0, PairTable::BwdDur), S("200.000"));
}

void TestLinker::legacyForwardBackwardFlowPrefersDeepestNumberedOp()
{
    // PyTorch 1.10: category `forward_backward`, name `fwd_bwd`, integer µs, `bp:"e"` on both
    // ends; the wrapper has no number yet. aten::conv2d, aten::convolution (both N=10) and
    // aten::_convolution (no number) all start at 1010, where the flow starts: the deepest op
    // with a number, aten::convolution, is the creator (§7 step 7, §8 "nested starts").
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::conv2d","pid":100,"tid":100,"ts":1010,"dur":100,"args":{"External id":1,"Sequence number":10,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::convolution","pid":100,"tid":100,"ts":1010,"dur":99,"args":{"External id":2,"Sequence number":10,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::_convolution","pid":100,"tid":100,"ts":1010,"dur":98,"args":{"External id":3}},
{"ph":"s","id":1,"pid":100,"tid":100,"ts":1010,"cat":"forward_backward","name":"fwd_bwd","bp":"e"},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ConvolutionBackward0","pid":100,"tid":200,"ts":2000,"dur":200,"args":{"External id":10}},
{"ph":"X","cat":"cpu_op","name":"ConvolutionBackward0","pid":100,"tid":200,"ts":2001,"dur":190,"args":{"External id":11,"Sequence number":10,"Fwd thread id":1}},
{"ph":"f","id":1,"pid":100,"tid":200,"ts":2001,"cat":"forward_backward","name":"fwd_bwd","bp":"e"}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.stats().pairsFromFlows, uint64_t(1));
    QCOMPARE(g.stats().pairsFromSequence, uint64_t(0));
    QCOMPARE(g.nodes().size(), size_t(1));
    QCOMPARE(nameOf(m, g.nodes()[0].creator), S("aten::convolution"));
    QCOMPARE(nameOf(m, g.nodes()[0].outer),
        S("autograd::engine::evaluate_function: ConvolutionBackward0"));
    QCOMPARE(g.rows().size(), size_t(1));
    QCOMPARE(nameOf(m, g.rows()[0].forward), S("aten::conv2d"));
    QCOMPARE(link(g.rows()[0].link), S("flow"));
    QCOMPARE(g.rows()[0].backwardDur, TimeNs(200000)); // the wrapper, 200 µs

    const PairTable table(g);
    QCOMPARE(cell(table, 0, PairTable::FwdTs), S("1010")); // integer as written
}

void TestLinker::flowWithDifferentNumbersIsDroppedForSequence()
{
    // Flow 1 joins aten::relu (N=4) to MulBackward0 (N=5): dropped with a diagnostic, and the
    // node is paired by the fallback with aten::mul (N=5). Flow 2 (relu → ReluBackward0, both
    // N=4) is right and kept.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::relu","pid":100,"tid":100,"ts":100,"dur":10,"args":{"External id":1,"Sequence number":4,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":120,"dur":10,"args":{"External id":2,"Sequence number":5,"Fwd thread id":0}},
{"ph":"s","id":1,"pid":100,"tid":100,"ts":100,"cat":"fwdbwd","name":"fwdbwd"},
{"ph":"s","id":2,"pid":100,"tid":100,"ts":100,"cat":"fwdbwd","name":"fwdbwd"},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: MulBackward0","pid":100,"tid":200,"ts":300,"dur":20,"args":{"External id":3,"Sequence number":5,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":100,"tid":200,"ts":301,"dur":18,"args":{"External id":4,"Sequence number":5,"Fwd thread id":1}},
{"ph":"f","id":1,"pid":100,"tid":200,"ts":301,"cat":"fwdbwd","name":"fwdbwd","bp":"e"},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ReluBackward0","pid":100,"tid":200,"ts":330,"dur":20,"args":{"External id":5,"Sequence number":4,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"ReluBackward0","pid":100,"tid":200,"ts":331,"dur":18,"args":{"External id":6,"Sequence number":4,"Fwd thread id":1}},
{"ph":"f","id":2,"pid":100,"tid":200,"ts":331,"cat":"fwdbwd","name":"fwdbwd","bp":"e"}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.diagnostics().count("fwdbwd_flow_sequence_mismatch"), uint64_t(1));
    const BackwardNode &mul = nodeRecord(g, find(m, "MulBackward0"));
    QCOMPARE(nameOf(m, mul.creator), S("aten::mul"));
    QCOMPARE(link(mul.method), S("sequence"));
    const BackwardNode &relu = nodeRecord(g, find(m, "ReluBackward0"));
    QCOMPARE(nameOf(m, relu.creator), S("aten::relu"));
    QCOMPARE(link(relu.method), S("flow"));
    QCOMPARE(g.stats().pairsFromFlows, uint64_t(1));
    QCOMPARE(g.stats().pairsFromSequence, uint64_t(1));
    QCOMPARE(g.stats().flowPairsCheckedBySequence, uint64_t(1));
    QCOMPARE(g.stats().flowPairsAgreeingWithSequence, uint64_t(1));

    // Rows by fwd_ts: relu (100, flow), mul (120, sequence).
    QCOMPARE(g.rows().size(), size_t(2));
    QCOMPARE(nameOf(m, g.rows()[0].forward), S("aten::relu"));
    QCOMPARE(link(g.rows()[0].link), S("flow"));
    QCOMPARE(nameOf(m, g.rows()[1].forward), S("aten::mul"));
    QCOMPARE(link(g.rows()[1].link), S("sequence"));
}

void TestLinker::flowAndSequenceDisagreementIsCounted()
{
    // The flow starts on aten::conv2d (1010), the only numbered op at that time; the fallback
    // would pick aten::convolution (N=10 too, starts later at 1011). The flow wins, the
    // cross-check counts one disagreement. Both have the same display row, aten::conv2d.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::conv2d","pid":100,"tid":100,"ts":1010,"dur":100,"args":{"External id":1,"Sequence number":10,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::convolution","pid":100,"tid":100,"ts":1011,"dur":98,"args":{"External id":2,"Sequence number":10,"Fwd thread id":0}},
{"ph":"s","id":1,"pid":100,"tid":100,"ts":1010,"cat":"fwdbwd","name":"fwdbwd"},
{"ph":"X","cat":"cpu_op","name":"ConvolutionBackward0","pid":100,"tid":200,"ts":2001,"dur":190,"args":{"External id":11,"Sequence number":10,"Fwd thread id":1}},
{"ph":"f","id":1,"pid":100,"tid":200,"ts":2001,"cat":"fwdbwd","name":"fwdbwd","bp":"e"}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(nameOf(m, g.nodes()[0].creator), S("aten::conv2d"));
    QCOMPARE(link(g.nodes()[0].method), S("flow"));
    QCOMPARE(g.stats().flowPairsCheckedBySequence, uint64_t(1));
    QCOMPARE(g.stats().flowPairsAgreeingWithSequence, uint64_t(0));
    QCOMPARE(g.diagnostics().count("flow_and_sequence_disagree"), uint64_t(1));
    QCOMPARE(g.rows().size(), size_t(1));
    QCOMPARE(nameOf(m, g.rows()[0].forward), S("aten::conv2d"));
}

void TestLinker::sequenceFallbackPicksLastStartingOpEndedBeforeNode()
{
    // PyTorch 1.9: `Operator` everywhere (ProfilerStep#1 too), string tids on X events, no
    // wrappers, no flows, many ops sharing one number.
    //   N=7: conv2d [110,170], convolution [111,169], _convolution [112,168],
    //        cudnn_convolution [113,167]                → creator cudnn_convolution (last start)
    //   N=8: zeros [180,185], relu [190,200], add [700,710]; node ReluBackward0 at 430:
    //        add ends after 430, so the last-starting op that ended before is relu
    //   N=9: matmul [210,230] and mm [210,220] start together → the later end, matmul
    //   Nodes on "25750": MmBackward 400, ReluBackward0 430, CudnnConvolutionBackward [460,510]
    const std::string events = R"json(
{"ph":"X","cat":"Operator","name":"ProfilerStep#1","pid":25738,"tid":"25738","ts":100,"dur":900,"args":{}},
{"ph":"X","cat":"Operator","name":"aten::conv2d","pid":25738,"tid":"25738","ts":110,"dur":60,"args":{"External id":1,"Sequence number":7,"Fwd thread id":0}},
{"ph":"X","cat":"Operator","name":"aten::convolution","pid":25738,"tid":"25738","ts":111,"dur":58,"args":{"External id":2,"Sequence number":7,"Fwd thread id":0}},
{"ph":"X","cat":"Operator","name":"aten::_convolution","pid":25738,"tid":"25738","ts":112,"dur":56,"args":{"External id":3,"Sequence number":7,"Fwd thread id":0}},
{"ph":"X","cat":"Operator","name":"aten::cudnn_convolution","pid":25738,"tid":"25738","ts":113,"dur":54,"args":{"External id":4,"Sequence number":7,"Fwd thread id":0}},
{"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":25738,"tid":"25738","ts":120,"dur":5,"args":{"correlation":71,"external id":4}},
{"ph":"X","cat":"Operator","name":"aten::zeros","pid":25738,"tid":"25738","ts":180,"dur":5,"args":{"External id":5,"Sequence number":8,"Fwd thread id":0}},
{"ph":"X","cat":"Operator","name":"aten::relu","pid":25738,"tid":"25738","ts":190,"dur":10,"args":{"External id":6,"Sequence number":8,"Fwd thread id":0}},
{"ph":"X","cat":"Operator","name":"aten::matmul","pid":25738,"tid":"25738","ts":210,"dur":20,"args":{"External id":7,"Sequence number":9,"Fwd thread id":0}},
{"ph":"X","cat":"Operator","name":"aten::mm","pid":25738,"tid":"25738","ts":210,"dur":10,"args":{"External id":8,"Sequence number":9,"Fwd thread id":0}},
{"ph":"X","cat":"Operator","name":"aten::add","pid":25738,"tid":"25738","ts":700,"dur":10,"args":{"External id":9,"Sequence number":8,"Fwd thread id":0}},
{"ph":"X","cat":"Operator","name":"MmBackward","pid":25738,"tid":"25750","ts":400,"dur":20,"args":{"External id":20,"Sequence number":9,"Fwd thread id":1}},
{"ph":"X","cat":"Operator","name":"ReluBackward0","pid":25738,"tid":"25750","ts":430,"dur":20,"args":{"External id":21,"Sequence number":8,"Fwd thread id":1}},
{"ph":"X","cat":"Operator","name":"CudnnConvolutionBackward","pid":25738,"tid":"25750","ts":460,"dur":50,"args":{"External id":22,"Sequence number":7,"Fwd thread id":1}},
{"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":25738,"tid":"25750","ts":470,"dur":5,"args":{"correlation":72,"external id":22}},
{"ph":"X","cat":"Kernel","name":"cudnn_fwd","pid":0,"tid":"stream 7","ts":150,"dur":40,"args":{"correlation":71,"external id":4,"stream":7,"device":0}},
{"ph":"X","cat":"Kernel","name":"cudnn_bwd","pid":0,"tid":"stream 7","ts":480,"dur":30,"args":{"correlation":72,"external id":22,"stream":7,"device":0}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QVERIFY(g.stats().hasSequenceNumbers);
    QCOMPARE(g.stats().backwardNodes, uint64_t(3));
    QCOMPARE(g.stats().pairsFromFlows, uint64_t(0));
    QCOMPARE(g.stats().pairsFromSequence, uint64_t(3));
    QCOMPARE(g.stats().flowPairsCheckedBySequence, uint64_t(0));

    const BackwardNode &conv = nodeRecord(g, find(m, "CudnnConvolutionBackward"));
    QCOMPARE(nameOf(m, conv.creator), S("aten::cudnn_convolution"));
    QCOMPARE(conv.outer, conv.node); // no wrapper in 1.9
    QCOMPARE(link(conv.method), S("sequence"));
    QCOMPARE(nameOf(m, nodeRecord(g, find(m, "ReluBackward0")).creator), S("aten::relu"));
    QCOMPARE(nameOf(m, nodeRecord(g, find(m, "MmBackward")).creator), S("aten::matmul"));
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "cudnn_fwd"))), S("aten::cudnn_convolution"));

    // Rows climb to the op under the `Operator` ProfilerStep#1, never into it.
    // conv2d: fwd GPU 40 µs, bwd GPU 30 µs, bwd_dur = node 50 µs (no wrapper).
    QCOMPARE(g.rows().size(), size_t(3));
    const PairTable table(g);
    const QStringList lines = csvLines(table);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[1],
        S("aten::conv2d,25738,25738,110,60.000,,7,sequence,CudnnConvolutionBackward,25738,25750,"
          "460,50.000,1,40.000,1,30.000,1,,0,0.000,0.000"));
    QCOMPARE(lines[2],
        S("aten::relu,25738,25738,190,10.000,,8,sequence,ReluBackward0,25738,25750,430,20.000,0,"
          "0.000,0,0.000,1,,0,0.000,0.000"));
    QCOMPARE(lines[3],
        S("aten::matmul,25738,25738,210,20.000,,9,sequence,MmBackward,25738,25750,400,20.000,0,"
          "0.000,0,0.000,1,,0,0.000,0.000"));
}

void TestLinker::sequenceFallbackWithoutFlowsReproducesFlowPairs()
{
    // LinkOptions{useFlows=false} on traces with flows: the fallback finds the same creator for
    // every node, now counted as sequence pairs (linear: aten::t, aten::addmm; conv:
    // aten::convolution).
    for (const char *events : {kLinear, kConv}) {
        const auto trace = test::link(test::traceWith(events));
        QVERIFY(trace);
        const OpGraph &withFlows = *trace->graph;
        const std::unique_ptr<OpGraph> seq = OpGraph::build(*trace->model, LinkOptions {false});
        QVERIFY(withFlows.stats().pairsFromFlows > 0);
        QCOMPARE(withFlows.stats().pairsFromSequence, uint64_t(0));
        QCOMPARE(withFlows.stats().flowPairsAgreeingWithSequence,
            withFlows.stats().flowPairsCheckedBySequence);
        QCOMPARE(seq->stats().pairsFromFlows, uint64_t(0));
        QCOMPARE(seq->stats().pairsFromSequence, withFlows.stats().pairsFromFlows);
        QCOMPARE(seq->stats().flowPairsCheckedBySequence, uint64_t(0));
        QCOMPARE(seq->nodes().size(), withFlows.nodes().size());
        for (size_t i = 0; i < seq->nodes().size(); ++i) {
            QCOMPARE(seq->nodes()[i].node, withFlows.nodes()[i].node);
            QCOMPARE(seq->nodes()[i].creator, withFlows.nodes()[i].creator);
            QCOMPARE(link(seq->nodes()[i].method), S("sequence"));
        }
        QCOMPARE(seq->rows().size(), withFlows.rows().size());
        for (size_t r = 0; r < seq->rows().size(); ++r) {
            QCOMPARE(seq->rows()[r].forward, withFlows.rows()[r].forward);
            QCOMPARE(link(seq->rows()[r].link), S("sequence"));
        }
    }
}

void TestLinker::forwardThreadsAreMappedNeverPairedByNumberAlone()
{
    // Two forward threads with their own counters:
    //   B (tid 150): div [100,110] N=1, exp [120,130] N=7
    //   A (tid 100): add [300,310] N=1, mul [320,330] N=2, sub [340,350] N=3
    // Nodes on 200: Fwd thread id 1 → N 3, 2, 1; Fwd thread id 2 → N 7, 1.
    // Overlap: T=1 {1,2,3} ∩ A = 3, ∩ B = 1 → A; T=2 {1,7} ∩ A = 1, ∩ B = 2 → B.
    // DivBackward0 (T=2, N=1) → aten::div, although aten::add (A, N=1) started later.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::div","pid":100,"tid":150,"ts":100,"dur":10,"args":{"Sequence number":1,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::exp","pid":100,"tid":150,"ts":120,"dur":10,"args":{"Sequence number":7,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":100,"tid":100,"ts":300,"dur":10,"args":{"Sequence number":1,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":320,"dur":10,"args":{"Sequence number":2,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::sub","pid":100,"tid":100,"ts":340,"dur":10,"args":{"Sequence number":3,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"SubBackward0","pid":100,"tid":200,"ts":500,"dur":20,"args":{"Sequence number":3,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":100,"tid":200,"ts":530,"dur":20,"args":{"Sequence number":2,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"AddBackward0","pid":100,"tid":200,"ts":560,"dur":20,"args":{"Sequence number":1,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"ExpBackward0","pid":100,"tid":200,"ts":590,"dur":20,"args":{"Sequence number":7,"Fwd thread id":2}},
{"ph":"X","cat":"cpu_op","name":"DivBackward0","pid":100,"tid":200,"ts":620,"dur":20,"args":{"Sequence number":1,"Fwd thread id":2}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(nameOf(m, nodeRecord(g, find(m, "DivBackward0")).creator), S("aten::div"));
    QCOMPARE(nameOf(m, nodeRecord(g, find(m, "ExpBackward0")).creator), S("aten::exp"));
    QCOMPARE(nameOf(m, nodeRecord(g, find(m, "AddBackward0")).creator), S("aten::add"));
    QCOMPARE(nameOf(m, nodeRecord(g, find(m, "MulBackward0")).creator), S("aten::mul"));
    QCOMPARE(nameOf(m, nodeRecord(g, find(m, "SubBackward0")).creator), S("aten::sub"));
    QCOMPARE(g.stats().pairsFromSequence, uint64_t(5));

    const PairTable table(g);
    QCOMPARE(table.rowCount(), size_t(5));
    // Rows in fwd_ts order: div 100, exp 120, add 300, mul 320, sub 340.
    const QStringList expected
        = {S("aten::div"), S("aten::exp"), S("aten::add"), S("aten::mul"), S("aten::sub")};
    for (size_t r = 0; r < 5; ++r)
        QCOMPARE(cell(table, r, PairTable::FwdName), expected[int(r)]);
    QCOMPARE(cell(table, 0, PairTable::FwdTid), S("150"));
    QCOMPARE(cell(table, 2, PairTable::FwdTid), S("100"));
}

void TestLinker::gradientAccumulationPairsEachForward()
{
    // Two identical forwards (micro-batches) then one backward; numbers keep increasing.
    //   linear#0 [100,150] N=20: t [105,110] N=20, addmm [115,145] N=21
    //   linear#1 [200,250] N=22: t [205,210] N=22, addmm [215,245] N=23
    //   nodes: AddmmBackward0 400 (23), TBackward0 430 (22), AddmmBackward0 440 (21),
    //          TBackward0 470 (20)
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":100,"tid":100,"ts":100,"dur":50,"args":{"Sequence number":20,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::t","pid":100,"tid":100,"ts":105,"dur":5,"args":{"Sequence number":20,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":100,"tid":100,"ts":115,"dur":30,"args":{"Sequence number":21,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":100,"tid":100,"ts":200,"dur":50,"args":{"Sequence number":22,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::t","pid":100,"tid":100,"ts":205,"dur":5,"args":{"Sequence number":22,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":100,"tid":100,"ts":215,"dur":30,"args":{"Sequence number":23,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"AddmmBackward0","pid":100,"tid":200,"ts":400,"dur":20,"args":{"Sequence number":23,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"TBackward0","pid":100,"tid":200,"ts":430,"dur":5,"args":{"Sequence number":22,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"AddmmBackward0","pid":100,"tid":200,"ts":440,"dur":20,"args":{"Sequence number":21,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"TBackward0","pid":100,"tid":200,"ts":470,"dur":5,"args":{"Sequence number":20,"Fwd thread id":1}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(nodeRecord(g, find(m, "AddmmBackward0", 0)).creator, find(m, "aten::addmm", 1));
    QCOMPARE(nodeRecord(g, find(m, "TBackward0", 0)).creator, find(m, "aten::t", 1));
    QCOMPARE(nodeRecord(g, find(m, "AddmmBackward0", 1)).creator, find(m, "aten::addmm", 0));
    QCOMPARE(nodeRecord(g, find(m, "TBackward0", 1)).creator, find(m, "aten::t", 0));

    QCOMPARE(g.rows().size(), size_t(2));
    QCOMPARE(g.rows()[0].forward, find(m, "aten::linear", 0));
    QCOMPARE(g.rows()[1].forward, find(m, "aten::linear", 1));
    const PairTable table(g);
    QCOMPARE(cell(table, 0, PairTable::SequenceNumbers), S("20;21"));
    QCOMPARE(cell(table, 1, PairTable::SequenceNumbers), S("22;23"));
    // Each row's nodes in time order: Addmm (440) before T (470); Addmm (400) before T (430).
    QCOMPARE(cell(table, 0, PairTable::BwdNames), S("AddmmBackward0;TBackward0"));
    QCOMPARE(cell(table, 0, PairTable::BwdTs), S("440"));
    QCOMPARE(cell(table, 1, PairTable::BwdNames), S("AddmmBackward0;TBackward0"));
    QCOMPARE(cell(table, 1, PairTable::BwdTs), S("400"));
    // bwd_dur = node durations (no wrappers): 20 + 5 = 25 µs each.
    QCOMPARE(cell(table, 0, PairTable::BwdDur), S("25.000"));
    QCOMPARE(cell(table, 1, PairTable::BwdDur), S("25.000"));
}

void TestLinker::checkpointRecomputeIsItsOwnFlaggedRow()
{
    // Reentrant activation checkpointing.
    //   main 100: CheckpointFunction [100,150] N=5 > aten::linear > aten::addmm (no numbers,
    //             no_grad) > launch corr 81 → gemm_fwd 10 µs
    //   autograd 200 (profiler thread id 2):
    //     evaluate_function: CheckpointFunctionBackward [500,900] N=5 T=1
    //       > CheckpointFunctionBackward [501,899]
    //         > aten::linear [510,570] N=0 (recompute) > aten::t [511,516] N=0,
    //           aten::addmm [520,560] N=1 > launch corr 82 → gemm_recompute 12 µs
    //         > evaluate_function: AddmmBackward0 [600,700] N=1 T=2 > node > aten::mm
    //           > launch corr 83 → gemm_bwd 14 µs
    //         > evaluate_function: TBackward0 [720,750] N=0 T=2 > node
    // Threads: T=1 {5} → main; T=2 {0,1} → the autograd thread (the recomputed ops).
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"CheckpointFunction","pid":100,"tid":100,"ts":100,"dur":50,"args":{"External id":1,"Sequence number":5,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":100,"tid":100,"ts":105,"dur":40,"args":{"External id":2}},
{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":100,"tid":100,"ts":110,"dur":30,"args":{"External id":3}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":115,"dur":5,"args":{"External id":3,"correlation":81}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: CheckpointFunctionBackward","pid":100,"tid":200,"ts":500,"dur":400,"args":{"External id":10,"Sequence number":5,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"CheckpointFunctionBackward","pid":100,"tid":200,"ts":501,"dur":398,"args":{"External id":11,"Sequence number":5,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":100,"tid":200,"ts":510,"dur":60,"args":{"External id":12,"Sequence number":0,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::t","pid":100,"tid":200,"ts":511,"dur":5,"args":{"External id":13,"Sequence number":0,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":100,"tid":200,"ts":520,"dur":40,"args":{"External id":14,"Sequence number":1,"Fwd thread id":0}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":525,"dur":5,"args":{"External id":14,"correlation":82}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: AddmmBackward0","pid":100,"tid":200,"ts":600,"dur":100,"args":{"External id":15,"Sequence number":1,"Fwd thread id":2}},
{"ph":"X","cat":"cpu_op","name":"AddmmBackward0","pid":100,"tid":200,"ts":601,"dur":98,"args":{"External id":16,"Sequence number":1,"Fwd thread id":2}},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":200,"ts":605,"dur":50,"args":{"External id":17}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":610,"dur":5,"args":{"External id":17,"correlation":83}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: TBackward0","pid":100,"tid":200,"ts":720,"dur":30,"args":{"External id":18,"Sequence number":0,"Fwd thread id":2}},
{"ph":"X","cat":"cpu_op","name":"TBackward0","pid":100,"tid":200,"ts":721,"dur":28,"args":{"External id":19,"Sequence number":0,"Fwd thread id":2}},
{"ph":"X","cat":"kernel","name":"gemm_fwd","pid":0,"tid":7,"ts":200,"dur":10,"args":{"correlation":81}},
{"ph":"X","cat":"kernel","name":"gemm_recompute","pid":0,"tid":7,"ts":600,"dur":12,"args":{"correlation":82}},
{"ph":"X","cat":"kernel","name":"gemm_bwd","pid":0,"tid":7,"ts":700,"dur":14,"args":{"correlation":83}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.stats().backwardNodes, uint64_t(3));
    QCOMPARE(g.stats().pairsFromSequence, uint64_t(3));
    QCOMPARE(nameOf(m, nodeRecord(g, find(m, "CheckpointFunctionBackward")).creator),
        S("CheckpointFunction"));
    QCOMPARE(nodeRecord(g, find(m, "AddmmBackward0")).creator, find(m, "aten::addmm", 1));
    QCOMPARE(nodeRecord(g, find(m, "TBackward0")).creator, find(m, "aten::t"));

    QCOMPARE(g.rows().size(), size_t(2));
    QCOMPARE(g.stats().recomputeRows, uint64_t(1));
    // Row 0: CheckpointFunction; under its CheckpointFunctionBackward wrapper gemm_recompute
    // (12 µs) and gemm_bwd (14 µs). The re-run aten::linear is numbered inside the node: its
    // kernel is recompute (docs/recompute.md), so backward keeps gemm_bwd only; bwd_dur 400 µs.
    // The re-run repeats the aten::linear inside CheckpointFunction: recomputed 12 µs.
    const PairRow &ckpt = g.rows()[0];
    QCOMPARE(nameOf(m, ckpt.forward), S("CheckpointFunction"));
    QVERIFY(!ckpt.recompute);
    QCOMPARE(rowNodeNames(g, ckpt), QStringList({S("CheckpointFunctionBackward")}));
    QCOMPARE(ckpt.forwardGpu.count, 1u);
    QCOMPARE(ckpt.forwardGpu.time, TimeNs(10000));
    QCOMPARE(ckpt.backwardGpu.count, 1u);
    QCOMPARE(ckpt.backwardGpu.time, TimeNs(14000));
    QCOMPARE(ckpt.recomputeGpu.count, 1u);
    QCOMPARE(ckpt.recomputeGpu.time, TimeNs(12000));
    QCOMPARE(ckpt.recomputations, 1u);
    QCOMPARE(ckpt.recomputedGpu.time, TimeNs(12000));
    QCOMPARE(ckpt.backwardDur, TimeNs(400000));
    QCOMPARE(g.recomputations().size(), size_t(1));
    QCOMPARE(g.recomputations()[0].op, find(m, "aten::linear", 1));
    QCOMPARE(g.recomputations()[0].original, find(m, "aten::linear", 0));
    QCOMPARE(g.recomputations()[0].candidates, 1u);
    QVERIFY(!g.stats().doubleBackward);
    // Row 1: the recomputed aten::linear on the autograd thread (the climb stops at the
    // CheckpointFunctionBackward node), flagged; it owns AddmmBackward0 (601) and TBackward0
    // (721); forward GPU 12 µs (its own subtree, as for every row), backward GPU 14 µs,
    // bwd_dur 100 + 30 = 130 µs; no recompute inside its nodes.
    const PairRow &recompute = g.rows()[1];
    QCOMPARE(recompute.forward, find(m, "aten::linear", 1));
    QVERIFY(recompute.recompute);
    QCOMPARE(rowNodeNames(g, recompute), QStringList({S("AddmmBackward0"), S("TBackward0")}));
    QCOMPARE(recompute.forwardGpu.count, 1u);
    QCOMPARE(recompute.forwardGpu.time, TimeNs(12000));
    QCOMPARE(recompute.backwardGpu.count, 1u);
    QCOMPARE(recompute.backwardGpu.time, TimeNs(14000));
    QCOMPARE(recompute.backwardDur, TimeNs(130000));
    QCOMPARE(recompute.recomputeGpu.count, 0u);

    QCOMPARE(side(g, gpuEvent(g, "gemm_fwd")), S("forward"));
    QCOMPARE(side(g, gpuEvent(g, "gemm_recompute")), S("recompute"));
    QCOMPARE(side(g, gpuEvent(g, "gemm_bwd")), S("backward"));
    QCOMPARE(g.rowOf(gpuEvent(g, "gemm_recompute")), 1);
}

void TestLinker::createGraphOpsInsideNodeAreHigherOrderForward()
{
    // create_graph=True: aten::mul inside MulBackward0 (N=0, Fwd thread id 0) is a forward op
    // of the higher-order graph and creates the second MulBackward0 (T=2, N=0).
    //   main: aten::mul [100,120] N=10
    //   200:  evaluate_function: MulBackward0 [300,400] N=10 T=1 > MulBackward0 [301,399]
    //           > aten::mul [305,335] N=0 T=0
    //         evaluate_function: MulBackward0 [500,550] N=0 T=2 > MulBackward0 [501,549]
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":100,"dur":20,"args":{"External id":1,"Sequence number":10,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: MulBackward0","pid":100,"tid":200,"ts":300,"dur":100,"args":{"External id":2,"Sequence number":10,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":100,"tid":200,"ts":301,"dur":98,"args":{"External id":3,"Sequence number":10,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":200,"ts":305,"dur":30,"args":{"External id":4,"Sequence number":0,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: MulBackward0","pid":100,"tid":200,"ts":500,"dur":50,"args":{"External id":5,"Sequence number":0,"Fwd thread id":2}},
{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":100,"tid":200,"ts":501,"dur":48,"args":{"External id":6,"Sequence number":0,"Fwd thread id":2}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    const SliceId mainMul = find(m, "aten::mul", 0);
    const SliceId innerMul = find(m, "aten::mul", 1);
    const SliceId firstNode = find(m, "MulBackward0", 0);
    const SliceId secondNode = find(m, "MulBackward0", 1);
    QCOMPARE(g.nodes().size(), size_t(2)); // the inner aten::mul is not a node
    QVERIFY(!g.isBackwardNode(innerMul));
    QCOMPARE(nodeRecord(g, firstNode).creator, mainMul);
    QCOMPARE(nodeRecord(g, secondNode).creator, innerMul);

    // Row of the inner op is the op itself: the climb does not enter MulBackward0.
    QCOMPARE(g.rows().size(), size_t(2));
    QCOMPARE(g.rows()[0].forward, mainMul);
    QCOMPARE(g.rows()[1].forward, innerMul);
    QCOMPARE(g.rowOf(innerMul), 1);
    QVERIFY(g.isForwardSide(innerMul));
    QCOMPARE(g.counterparts(innerMul), std::vector<SliceId>({secondNode}));
    QCOMPARE(g.counterparts(secondNode), std::vector<SliceId>({innerMul}));
    QCOMPARE(g.counterparts(firstNode), std::vector<SliceId>({mainMul}));
}

void TestLinker::customFunctionPairsWithItsBackward()
{
    // A user autograd.Function: MyFn [100,150] N=3 ↔ MyFnBackward (wrapper [300,360]).
    // Forward GPU: mul_fwd 3 µs; backward GPU: mul_bwd 4 µs; bwd_dur 60 µs.
    // Module: nn.Module: MyModel_0 [90,190] around MyFn.
    const std::string events = R"json(
{"ph":"X","cat":"python_function","name":"nn.Module: MyModel_0","pid":100,"tid":100,"ts":90,"dur":100},
{"ph":"X","cat":"cpu_op","name":"MyFn","pid":100,"tid":100,"ts":100,"dur":50,"args":{"External id":1,"Sequence number":3,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":110,"dur":20,"args":{"External id":2}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":112,"dur":5,"args":{"External id":2,"correlation":91}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: MyFnBackward","pid":100,"tid":200,"ts":300,"dur":60,"args":{"External id":3,"Sequence number":3,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"MyFnBackward","pid":100,"tid":200,"ts":301,"dur":58,"args":{"External id":4,"Sequence number":3,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":200,"ts":305,"dur":20,"args":{"External id":5}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":306,"dur":5,"args":{"External id":5,"correlation":92}},
{"ph":"X","cat":"kernel","name":"mul_fwd","pid":0,"tid":7,"ts":150,"dur":3,"args":{"correlation":91}},
{"ph":"X","cat":"kernel","name":"mul_bwd","pid":0,"tid":7,"ts":350,"dur":4,"args":{"correlation":92}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.rows().size(), size_t(1));
    QCOMPARE(nameOf(m, nodeRecord(g, find(m, "MyFnBackward")).creator), S("MyFn"));
    const PairTable table(g);
    QCOMPARE(csvLines(table).value(1),
        S("MyFn,100,100,100,50.000,,3,sequence,MyFnBackward,100,200,301,60.000,1,3.000,1,4.000,,"
          "nn.Module: MyModel_0,0,0.000,0.000"));
}

void TestLinker::compiledFunctionPairsWithCompiledFunctionBackward()
{
    // torch.compile: CompiledFunction [105,295] N=20 under `Torch-Compiled Region: 0/0`
    // (user_annotation); Triton kernels launched by cuLaunchKernel (cuda_driver) under cpu_ops
    // named after the kernels. Forward GPU 7.5 µs, backward GPU 8.25 µs, bwd_dur 100 µs.
    const std::string events = R"json(
{"ph":"X","cat":"user_annotation","name":"Torch-Compiled Region: 0/0","pid":100,"tid":100,"ts":100,"dur":200},
{"ph":"X","cat":"cpu_op","name":"CompiledFunction","pid":100,"tid":100,"ts":105,"dur":190,"args":{"External id":1,"Sequence number":20,"Fwd thread id":0}},
{"ph":"X","cat":"user_annotation","name":"## Call CompiledFxGraph fabc123 ##","pid":100,"tid":100,"ts":110,"dur":180},
{"ph":"X","cat":"cpu_op","name":"triton_poi_fused_add_0","pid":100,"tid":100,"ts":120,"dur":20,"args":{"External id":2}},
{"ph":"X","cat":"cuda_driver","name":"cuLaunchKernel","pid":100,"tid":100,"ts":125,"dur":5,"args":{"External id":2,"correlation":95}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: CompiledFunctionBackward","pid":100,"tid":200,"ts":500,"dur":100,"args":{"External id":3,"Sequence number":20,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"CompiledFunctionBackward","pid":100,"tid":200,"ts":501,"dur":98,"args":{"External id":4,"Sequence number":20,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"triton_poi_fused_mul_1","pid":100,"tid":200,"ts":510,"dur":20,"args":{"External id":5}},
{"ph":"X","cat":"cuda_driver","name":"cuLaunchKernel","pid":100,"tid":200,"ts":512,"dur":5,"args":{"External id":5,"correlation":96}},
{"ph":"X","cat":"kernel","name":"triton_poi_fused_add_0","pid":0,"tid":7,"ts":130,"dur":7.5,"args":{"correlation":95}},
{"ph":"X","cat":"kernel","name":"triton_poi_fused_mul_1","pid":0,"tid":7,"ts":520,"dur":8.25,"args":{"correlation":96}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    const SliceId fwdKernel = gpuEvent(g, "triton_poi_fused_add_0");
    QCOMPARE(nameOf(m, g.launchOf(fwdKernel)), S("cuLaunchKernel"));
    QCOMPARE(g.launchingOp(fwdKernel), find(m, "triton_poi_fused_add_0", 0)); // the cpu_op
    QCOMPARE(g.rows().size(), size_t(1));
    const PairTable table(g);
    QCOMPARE(csvLines(table).value(1),
        S("CompiledFunction,100,100,105,190.000,,20,sequence,CompiledFunctionBackward,100,200,501,"
          "100.000,1,7.500,1,8.250,,,0,0.000,0.000"));
}

void TestLinker::accumulateGradIsNotPairedAndCountsAsBackwardOther()
{
    // Backward thread 200:
    //   MulBackward0 (N=1) ↔ aten::mul: paired; its kernel mul_bwd is "backward".
    //   evaluate_function: torch::autograd::AccumulateGrad [380,480] (no number)
    //     > AccumulateGrad > aten::add_ > launch → add_kernel                → backward_other
    //     > nccl:all_reduce > record_param_comms > launch → NCCL kernel    → backward_other
    //   evaluate_function: torch::autograd::AccumulateGrad [490,500] carrying N=9, T=1 (as a
    //   nested backward could): still not a node, although aten::ones has N=9 in the forward.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":100,"dur":10,"args":{"External id":1,"Sequence number":1,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::ones","pid":100,"tid":100,"ts":140,"dur":5,"args":{"External id":2,"Sequence number":9,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: MulBackward0","pid":100,"tid":200,"ts":340,"dur":30,"args":{"External id":10,"Sequence number":1,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":100,"tid":200,"ts":341,"dur":28,"args":{"External id":11,"Sequence number":1,"Fwd thread id":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":345,"dur":3,"args":{"External id":11,"correlation":202}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: torch::autograd::AccumulateGrad","pid":100,"tid":200,"ts":380,"dur":100,"args":{"External id":12}},
{"ph":"X","cat":"cpu_op","name":"torch::autograd::AccumulateGrad","pid":100,"tid":200,"ts":381,"dur":98,"args":{"External id":13}},
{"ph":"X","cat":"cpu_op","name":"aten::add_","pid":100,"tid":200,"ts":385,"dur":10,"args":{"External id":14}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":386,"dur":3,"args":{"External id":14,"correlation":203}},
{"ph":"X","cat":"user_annotation","name":"nccl:all_reduce","pid":100,"tid":200,"ts":400,"dur":50},
{"ph":"X","cat":"cpu_op","name":"record_param_comms","pid":100,"tid":200,"ts":401,"dur":48,"args":{"External id":15}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":405,"dur":3,"args":{"External id":15,"correlation":204}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: torch::autograd::AccumulateGrad","pid":100,"tid":200,"ts":490,"dur":10,"args":{"External id":16,"Sequence number":9,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"torch::autograd::AccumulateGrad","pid":100,"tid":200,"ts":491,"dur":8,"args":{"External id":17,"Sequence number":9,"Fwd thread id":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":492,"dur":3,"args":{"External id":17,"correlation":205}},
{"ph":"X","cat":"kernel","name":"mul_bwd","pid":0,"tid":7,"ts":600,"dur":5,"args":{"correlation":202}},
{"ph":"X","cat":"kernel","name":"add_kernel","pid":0,"tid":7,"ts":620,"dur":6,"args":{"correlation":203}},
{"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","pid":0,"tid":20,"ts":630,"dur":50,"args":{"correlation":204}},
{"ph":"X","cat":"kernel","name":"add_kernel_2","pid":0,"tid":7,"ts":700,"dur":7,"args":{"correlation":205}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.stats().backwardNodes, uint64_t(1));
    QCOMPARE(g.nodes().size(), size_t(1));
    QCOMPARE(nameOf(m, g.nodes()[0].node), S("MulBackward0"));
    for (SliceId s : slicesNamed(m, "torch::autograd::AccumulateGrad"))
        QVERIFY(!g.isBackwardNode(s));
    QCOMPARE(g.rows().size(), size_t(1));
    QCOMPARE(nameOf(m, g.rows()[0].forward), S("aten::mul"));
    QCOMPARE(g.rows()[0].backwardGpu.time, TimeNs(5000)); // mul_bwd only

    QCOMPARE(side(g, gpuEvent(g, "mul_bwd")), S("backward"));
    QCOMPARE(side(g, gpuEvent(g, "add_kernel")), S("backward_other"));
    QCOMPARE(side(g, gpuEvent(g, "ncclDevKernel_AllReduce_Sum_f32_RING_LL")), S("backward_other"));
    QCOMPARE(side(g, gpuEvent(g, "add_kernel_2")), S("backward_other"));
    QCOMPARE(g.rowOf(gpuEvent(g, "add_kernel")), -1);
    QCOMPARE(g.stats().communicationGpuEvents, uint64_t(1));
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "ncclDevKernel_AllReduce_Sum_f32_RING_LL"))),
        S("record_param_comms"));
}

void TestLinker::backwardHookNodeIsNotPaired()
{
    // §8: hooks (BackwardHookFunctionBackward) are not paired; their GPU time goes to
    // "backward – other". The forward BackwardHookFunction (N=2) is in the trace, so only the
    // hook rule keeps its node out of the pair table.
    //   Expected: one node (MulBackward0), one row (aten::mul), copy_kernel → backward_other.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":100,"dur":10,"args":{"External id":1,"Sequence number":1,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"BackwardHookFunction","pid":100,"tid":100,"ts":120,"dur":10,"args":{"External id":2,"Sequence number":2,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: BackwardHookFunctionBackward","pid":100,"tid":200,"ts":300,"dur":30,"args":{"External id":10,"Sequence number":2,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"BackwardHookFunctionBackward","pid":100,"tid":200,"ts":301,"dur":28,"args":{"External id":11,"Sequence number":2,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":100,"tid":200,"ts":303,"dur":10,"args":{"External id":12}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":305,"dur":3,"args":{"External id":12,"correlation":201}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: MulBackward0","pid":100,"tid":200,"ts":340,"dur":30,"args":{"External id":13,"Sequence number":1,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":100,"tid":200,"ts":341,"dur":28,"args":{"External id":14,"Sequence number":1,"Fwd thread id":1}},
{"ph":"X","cat":"kernel","name":"copy_kernel","pid":0,"tid":7,"ts":600,"dur":4,"args":{"correlation":201}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QVERIFY(!g.isBackwardNode(find(m, "BackwardHookFunctionBackward")));
    QCOMPARE(g.stats().backwardNodes, uint64_t(1));
    QCOMPARE(g.rows().size(), size_t(1));
    QCOMPARE(nameOf(m, g.rows()[0].forward), S("aten::mul"));
    QCOMPARE(side(g, gpuEvent(g, "copy_kernel")), S("backward_other"));
}

void TestLinker::graphRootWithNumberIsNotANode()
{
    // torch::autograd::GraphRoot carrying N=4 and Fwd thread id 1 (nested backward) is the
    // engine's root, not a node created by aten::sum: only SumBackward0 pairs.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::sum","pid":100,"tid":100,"ts":100,"dur":10,"args":{"External id":1,"Sequence number":4,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"torch::autograd::GraphRoot","pid":100,"tid":200,"ts":300,"dur":5,"args":{"External id":2,"Sequence number":4,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: SumBackward0","pid":100,"tid":200,"ts":310,"dur":20,"args":{"External id":3,"Sequence number":4,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"SumBackward0","pid":100,"tid":200,"ts":311,"dur":18,"args":{"External id":4,"Sequence number":4,"Fwd thread id":1}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QVERIFY(!g.isBackwardNode(find(m, "torch::autograd::GraphRoot")));
    QCOMPARE(g.stats().backwardNodes, uint64_t(1));
    QCOMPARE(g.stats().unpairedBackward, uint64_t(0));
    QCOMPARE(g.rows().size(), size_t(1));
    QCOMPARE(rowNodeNames(g, g.rows()[0]), QStringList({S("SumBackward0")}));
    QCOMPARE(g.rowOf(find(m, "torch::autograd::GraphRoot")), -1);
}

void TestLinker::nodeWithoutForwardIsAnUnpairedRow()
{
    // AddmmBackward0 (N=49): no forward op with 49 in the trace (the window began after it).
    // ReluBackward0 (N=50) pairs with aten::relu. The unpaired row: forward columns empty,
    // link none, bwd_dur = wrapper 40 µs, bwd GPU mm_bwd 9 µs, step 4 (node at 331 in [0,1000]).
    const std::string events = R"json(
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#4","pid":100,"tid":100,"ts":0,"dur":1000},
{"ph":"X","cat":"cpu_op","name":"aten::relu","pid":100,"tid":100,"ts":100,"dur":10,"args":{"External id":1,"Sequence number":50,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ReluBackward0","pid":100,"tid":200,"ts":300,"dur":20,"args":{"External id":2,"Sequence number":50,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"ReluBackward0","pid":100,"tid":200,"ts":301,"dur":18,"args":{"External id":3,"Sequence number":50,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: AddmmBackward0","pid":100,"tid":200,"ts":330,"dur":40,"args":{"External id":4,"Sequence number":49,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"AddmmBackward0","pid":100,"tid":200,"ts":331,"dur":38,"args":{"External id":5,"Sequence number":49,"Fwd thread id":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":335,"dur":5,"args":{"External id":5,"correlation":301}},
{"ph":"X","cat":"kernel","name":"mm_bwd","pid":0,"tid":7,"ts":400,"dur":9,"args":{"correlation":301}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.stats().unpairedBackward, uint64_t(1));
    QCOMPARE(g.stats().pairsFromSequence, uint64_t(1));
    const SliceId addmmNode = find(m, "AddmmBackward0");
    QCOMPARE(nodeRecord(g, addmmNode).creator, kNoSlice);
    QCOMPARE(link(nodeRecord(g, addmmNode).method), S("none"));
    QCOMPARE(g.rows().size(), size_t(2));
    const PairRow &none = g.rows()[1];
    QCOMPARE(none.forward, kNoSlice);
    QCOMPARE(link(none.link), S("none"));
    QVERIFY(g.counterparts(addmmNode).empty());

    const PairTable table(g);
    const QStringList lines = csvLines(table);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[1],
        S("aten::relu,100,100,100,10.000,,50,sequence,ReluBackward0,100,200,301,20.000,0,0.000,0,"
          "0.000,4,,0,0.000,0.000"));
    QCOMPARE(lines[2], S(",,,,,,49,none,AddmmBackward0,100,200,331,40.000,,,1,9.000,4,,0,0.000,"));
}

void TestLinker::forwardOpWithoutNodeHasNoRow()
{
    // §8 "forward op with no backward": aten::relu (N=3, creates nothing that ran) and
    // aten::add (no number, no_grad) own no node. cli.md: the table has one row per op that
    // owns at least one node, so only aten::mul (↔ MulBackward0) has a row.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::relu","pid":100,"tid":100,"ts":100,"dur":10,"args":{"Sequence number":3,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":120,"dur":10,"args":{"Sequence number":4,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":100,"tid":100,"ts":140,"dur":10,"args":{"External id":9}},
{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":100,"tid":200,"ts":300,"dur":10,"args":{"Sequence number":4,"Fwd thread id":1}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.rows().size(), size_t(1));
    QCOMPARE(nameOf(m, g.rows()[0].forward), S("aten::mul"));
    QCOMPARE(g.rowOf(find(m, "aten::relu")), -1);
    QCOMPARE(g.rowOf(find(m, "aten::add")), -1);
    QVERIFY(g.counterparts(find(m, "aten::relu")).empty());
}

void TestLinker::cpuOnlyTracePairsOnTheMainThread()
{
    // CPU only: one host thread, no device lanes, no flows; backward runs on the main thread
    // inside ProfilerStep#0.
    //   linear [10,110] N=0 > t [12,17] N=0, addmm [20,100] N=1;  sum [120,130] N=2
    //   evaluate_function wrappers: SumBackward0 [200,220], AddmmBackward0 [230,280],
    //   TBackward0 [290,300]
    // linear row: bwd_dur 50 + 10 = 60 µs, first node AddmmBackward0 at 231; sum: 20 µs.
    const std::string events = R"json(
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#0","pid":100,"tid":100,"ts":0,"dur":1000},
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":100,"tid":100,"ts":10,"dur":100,"args":{"External id":1,"Sequence number":0,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::t","pid":100,"tid":100,"ts":12,"dur":5,"args":{"External id":2,"Sequence number":0,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":100,"tid":100,"ts":20,"dur":80,"args":{"External id":3,"Sequence number":1,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::sum","pid":100,"tid":100,"ts":120,"dur":10,"args":{"External id":4,"Sequence number":2,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: SumBackward0","pid":100,"tid":100,"ts":200,"dur":20,"args":{"External id":5,"Sequence number":2,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"SumBackward0","pid":100,"tid":100,"ts":201,"dur":18,"args":{"External id":6,"Sequence number":2,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: AddmmBackward0","pid":100,"tid":100,"ts":230,"dur":50,"args":{"External id":7,"Sequence number":1,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"AddmmBackward0","pid":100,"tid":100,"ts":231,"dur":48,"args":{"External id":8,"Sequence number":1,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":235,"dur":40,"args":{"External id":9}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: TBackward0","pid":100,"tid":100,"ts":290,"dur":10,"args":{"External id":10,"Sequence number":0,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"TBackward0","pid":100,"tid":100,"ts":291,"dur":8,"args":{"External id":11,"Sequence number":0,"Fwd thread id":1}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(m.lanes.size(), size_t(1));
    QVERIFY(g.gpuEvents().empty());
    QCOMPARE(g.stats().pairsFromSequence, uint64_t(3));
    QCOMPARE(g.stats().unpairedBackward, uint64_t(0));
    const PairTable table(g);
    const QStringList lines = csvLines(table);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[1],
        S("aten::linear,100,100,10,100.000,,0;1,sequence,AddmmBackward0;TBackward0,100,100,231,"
          "60.000,0,0.000,0,0.000,0,,0,0.000,0.000"));
    QCOMPARE(lines[2],
        S("aten::sum,100,100,120,10.000,,2,sequence,SumBackward0,100,100,201,20.000,0,0.000,0,"
          "0.000,0,,0,0.000,0.000"));
}

void TestLinker::traceWithoutSequenceNumbersHasNoPairs()
{
    // No numbers anywhere (inference, or the 2020 pre-release format): no nodes, no rows; the
    // kernels are still attributed, and classified by thread and name (§7 step 9): the main
    // thread's op forward; the backward thread's (node-named ops on their own thread, here
    // CudnnConvolutionBackward) backward; a launch outside every op other.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":100,"tid":100,"ts":100,"dur":50,"args":{"External id":1}},
{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":100,"tid":100,"ts":105,"dur":40,"args":{"External id":2}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":110,"dur":5,"args":{"External id":2,"correlation":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemsetAsync","pid":100,"tid":100,"ts":160,"dur":5,"args":{"correlation":3}},
{"ph":"X","cat":"cpu_op","name":"CudnnConvolutionBackward","pid":100,"tid":200,"ts":300,"dur":50},
{"ph":"X","cat":"cpu_op","name":"aten::cudnn_convolution_backward","pid":100,"tid":200,"ts":305,"dur":40},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":310,"dur":5,"args":{"correlation":2}},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":200,"dur":10,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","name":"wgrad","pid":0,"tid":7,"ts":400,"dur":10,"args":{"correlation":2}},
{"ph":"X","cat":"gpu_memset","name":"Memset (Device)","pid":0,"tid":7,"ts":420,"dur":1,"args":{"correlation":3}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QVERIFY(!g.stats().hasSequenceNumbers);
    QVERIFY(g.nodes().empty());
    QVERIFY(g.rows().empty());
    QCOMPARE(g.stats().pairs(), uint64_t(0));
    QCOMPARE(g.stats().gpuEventsAttributed, uint64_t(2));
    QCOMPARE(nameOf(m, g.launchingOp(gpuEvent(g, "gemm"))), S("aten::addmm"));
    QCOMPARE(side(g, gpuEvent(g, "gemm")), S("forward"));
    QCOMPARE(side(g, gpuEvent(g, "wgrad")), S("backward"));
    QCOMPARE(side(g, gpuEvent(g, "Memset (Device)")), S("other"));
    QVERIFY(g.isBackwardThread(m.slices.lane[find(m, "CudnnConvolutionBackward")]));
    QVERIFY(!g.isBackwardThread(m.slices.lane[find(m, "aten::linear")]));
    const PairTable table(g);
    QCOMPARE(csvLines(table), QStringList({kPairHeader}));
}

void TestLinker::reusedSequenceNumberTakesClosestPrecedingCreator()
{
    // Number 5 appears on two aten::mul ops on one thread ([100,110] and [300,310]).
    // MulBackward0 at 200: only the first has ended → mul@100.
    // MulBackward0 at 400: both ended; the closest preceding (last-starting) → mul@300.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":100,"dur":10,"args":{"Sequence number":5,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":300,"dur":10,"args":{"Sequence number":5,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":100,"tid":200,"ts":200,"dur":10,"args":{"Sequence number":5,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":100,"tid":200,"ts":400,"dur":10,"args":{"Sequence number":5,"Fwd thread id":1}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(nodeRecord(g, find(m, "MulBackward0", 0)).creator, find(m, "aten::mul", 0));
    QCOMPARE(nodeRecord(g, find(m, "MulBackward0", 1)).creator, find(m, "aten::mul", 1));
    QCOMPARE(g.rows().size(), size_t(2));
}

void TestLinker::pairMayStraddleStepsAndRowsSortByFirstEvent()
{
    //   ProfilerStep#1 [0,1000]: aten::mul [900,950] N=7
    //   ProfilerStep#2 [1000,2000]: aten::relu [1500,1510] N=8
    //   thread 200: MulBackward0 1100 (N=7), AddBackward0 1200 (N=6, no forward),
    //               ReluBackward0 1800 (N=8)
    // The mul pair straddles the boundary (row step = step of the forward op, 1). Rows sorted
    // by their first event: mul (fwd 900), the unpaired AddBackward0 (bwd 1200), relu (fwd
    // 1500): an unpaired row sits between paired rows by its bwd_ts (cli.md).
    const std::string events = R"json(
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":100,"tid":100,"ts":0,"dur":1000},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":900,"dur":50,"args":{"Sequence number":7,"Fwd thread id":0}},
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":100,"tid":100,"ts":1000,"dur":1000},
{"ph":"X","cat":"cpu_op","name":"aten::relu","pid":100,"tid":100,"ts":1500,"dur":10,"args":{"Sequence number":8,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":100,"tid":200,"ts":1100,"dur":20,"args":{"Sequence number":7,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"AddBackward0","pid":100,"tid":200,"ts":1200,"dur":20,"args":{"Sequence number":6,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"ReluBackward0","pid":100,"tid":200,"ts":1800,"dur":20,"args":{"Sequence number":8,"Fwd thread id":1}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.steps().size(), size_t(2));
    QCOMPARE(g.stepAt(999999), int64_t(1));
    QCOMPARE(g.stepAt(1000000), int64_t(2)); // a boundary belongs to the step starting there
    QCOMPARE(g.stepAt(2000000), kNoValue);
    const PairTable table(g);
    const QStringList lines = csvLines(table);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[1],
        S("aten::mul,100,100,900,50.000,,7,sequence,MulBackward0,100,200,1100,20.000,0,0.000,0,"
          "0.000,1,,0,0.000,0.000"));
    QCOMPARE(lines[2], S(",,,,,,6,none,AddBackward0,100,200,1200,20.000,,,0,0.000,2,,0,0.000,"));
    QCOMPARE(lines[3],
        S("aten::relu,100,100,1500,10.000,,8,sequence,ReluBackward0,100,200,1800,20.000,0,0.000,"
          "0,0.000,2,,0,0.000,0.000"));
}

// ---------------------------------------------------------------------------------------------
// Display level, counterparts, GPU time per row

void TestLinker::linearRowOwnsBothNodes()
{
    const auto trace = test::link(test::traceWith(kLinear));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    const SliceId linear = find(m, "aten::linear");
    QCOMPARE(nodeRecord(g, find(m, "TBackward0")).creator, find(m, "aten::t", 0));
    QCOMPARE(nodeRecord(g, find(m, "AddmmBackward0")).creator, find(m, "aten::addmm"));
    QCOMPARE(g.stats().pairsFromFlows, uint64_t(2));

    // ONE row for aten::linear owning both nodes, in time order (Addmm 1001, T 1201).
    QCOMPARE(g.rows().size(), size_t(1));
    const PairRow &row = g.rows()[0];
    QCOMPARE(row.forward, linear);
    QCOMPARE(rowNodeNames(g, row), QStringList({S("AddmmBackward0"), S("TBackward0")}));
    // Forward GPU: gemm_fwd 20.125 µs. Backward GPU: 30 + 10.5 = 40.5 µs (both in the Addmm
    // wrapper). bwd_dur: wrappers 100 + 30 = 130 µs. Step 3. Module: the innermost nn.Module,
    // Linear_0 (not Model_0, not the non-module frame linear.py(114): forward).
    QCOMPARE(row.forwardGpu.count, 1u);
    QCOMPARE(row.forwardGpu.time, TimeNs(20125));
    QCOMPARE(row.backwardGpu.count, 2u);
    QCOMPARE(row.backwardGpu.time, TimeNs(40500));
    QCOMPARE(row.backwardDur, TimeNs(130000));
    QCOMPARE(row.step, int64_t(3));
    QCOMPARE(nameOf(m, row.module), S("nn.Module: Linear_0"));
    QCOMPARE(nameOf(m, g.moduleOf(find(m, "aten::addmm"))), S("nn.Module: Linear_0"));

    const PairTable table(g);
    QCOMPARE(csvLines(table).value(1),
        S("aten::linear,100,100,20,200.000,\"[[8,16],[32,16],[32]]\",40;41,flow,"
          "AddmmBackward0;TBackward0,100,200,1001,130.000,1,20.125,2,40.500,3,"
          "nn.Module: Linear_0,0,0.000,0.000"));
}

void TestLinker::counterpartsAndRowOfFollowTheDisplayRow()
{
    const auto trace = test::link(test::traceWith(kLinear));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    const SliceId linear = find(m, "aten::linear");
    const SliceId t = find(m, "aten::t", 0);
    const SliceId addmm = find(m, "aten::addmm");
    const SliceId tNode = find(m, "TBackward0");
    const SliceId addmmNode = find(m, "AddmmBackward0");
    const SliceId tWrapper = find(m, "autograd::engine::evaluate_function: TBackward0");
    const SliceId mmInNode = find(m, "aten::mm", 0);
    const SliceId tInNode = find(m, "aten::t", 1);

    // Forward side: the op's own nodes, the display op all of them (row order).
    QCOMPARE(g.counterparts(t), std::vector<SliceId>({tNode}));
    QCOMPARE(g.counterparts(addmm), std::vector<SliceId>({addmmNode}));
    QCOMPARE(g.counterparts(linear), std::vector<SliceId>({addmmNode, tNode}));
    // Backward side: the node, its wrapper or any op inside → the forward (display) op.
    QCOMPARE(g.counterparts(tNode), std::vector<SliceId>({linear}));
    QCOMPARE(g.counterparts(addmmNode), std::vector<SliceId>({linear}));
    QCOMPARE(g.counterparts(tWrapper), std::vector<SliceId>({linear}));
    QCOMPARE(g.counterparts(mmInNode), std::vector<SliceId>({linear}));
    QCOMPARE(g.counterparts(tInNode), std::vector<SliceId>({linear}));

    // rowOf / isForwardSide, also for GPU events (through their launch).
    const SliceId fwdKernel = gpuEvent(g, "gemm_fwd");
    const SliceId bwdKernel = gpuEvent(g, "gemm_dgrad");
    QCOMPARE(g.rowOf(t), 0);
    QCOMPARE(g.rowOf(tWrapper), 0);
    QCOMPARE(g.rowOf(fwdKernel), 0);
    QVERIFY(g.isForwardSide(fwdKernel));
    QCOMPARE(g.rowOf(bwdKernel), 0);
    QVERIFY(!g.isForwardSide(bwdKernel));
    QVERIFY(g.isForwardSide(t));
    QVERIFY(!g.isForwardSide(tWrapper));
    QCOMPARE(g.rowOf(find(m, "ProfilerStep#3")), -1);
    QCOMPARE(g.rowOf(find(m, "nn.Module: Linear_0")), -1);
    QCOMPARE(side(g, fwdKernel), S("forward"));
    QCOMPARE(side(g, bwdKernel), S("backward"));
    QCOMPARE(side(g, gpuEvent(g, "gemm_wgrad")), S("backward"));
}

void TestLinker::stepNamesNeedAFittingNumber()
{
    // Found by the fuzzer: a step number beyond int64 overflowed. Such a name is no step.
    const std::string events = R"json(
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#9223372036854775807","pid":1,"tid":1,"ts":0,"dur":10},
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#9223372036854775808","pid":1,"tid":1,"ts":20,"dur":10},
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#33333333333333333333333333","pid":1,"tid":1,"ts":40,"dur":10},
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#12a","pid":1,"tid":1,"ts":60,"dur":10},
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#","pid":1,"tid":1,"ts":80,"dur":10}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const OpGraph &g = *trace->graph;
    QCOMPARE(g.steps().size(), size_t(1));
    QCOMPARE(g.steps()[0].number, std::numeric_limits<int64_t>::max());
}

void TestLinker::displayClimbStopsAtStepsAnnotationsAndPython()
{
    // The climb from a creator stops below any user_annotation, python_function or
    // ProfilerStep (also a 1.9 `Operator` ProfilerStep#N):
    //   ProfilerStep#1 (Operator) [0,1000] > aten::relu [10,20] N=1
    //   user_annotation "block" [30,80] > aten::mul [40,50] N=2
    //   python_function "model.py(3): f" [90,140] > aten::add [100,110] N=3
    //   nodes on 200: ReluBackward0, MulBackward0, AddBackward0
    // Rows: aten::relu, aten::mul, aten::add (never ProfilerStep#1, block or the frame).
    const std::string events = R"json(
{"ph":"X","cat":"Operator","name":"ProfilerStep#1","pid":100,"tid":100,"ts":0,"dur":1000},
{"ph":"X","cat":"Operator","name":"aten::relu","pid":100,"tid":100,"ts":10,"dur":10,"args":{"Sequence number":1,"Fwd thread id":0}},
{"ph":"X","cat":"user_annotation","name":"block","pid":100,"tid":100,"ts":30,"dur":50},
{"ph":"X","cat":"Operator","name":"aten::mul","pid":100,"tid":100,"ts":40,"dur":10,"args":{"Sequence number":2,"Fwd thread id":0}},
{"ph":"X","cat":"python_function","name":"model.py(3): f","pid":100,"tid":100,"ts":90,"dur":50},
{"ph":"X","cat":"Operator","name":"aten::add","pid":100,"tid":100,"ts":100,"dur":10,"args":{"Sequence number":3,"Fwd thread id":0}},
{"ph":"X","cat":"Operator","name":"AddBackward0","pid":100,"tid":200,"ts":500,"dur":10,"args":{"Sequence number":3,"Fwd thread id":1}},
{"ph":"X","cat":"Operator","name":"MulBackward0","pid":100,"tid":200,"ts":520,"dur":10,"args":{"Sequence number":2,"Fwd thread id":1}},
{"ph":"X","cat":"Operator","name":"ReluBackward0","pid":100,"tid":200,"ts":540,"dur":10,"args":{"Sequence number":1,"Fwd thread id":1}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(g.rows().size(), size_t(3));
    QCOMPARE(nameOf(m, g.rows()[0].forward), S("aten::relu"));
    QCOMPARE(nameOf(m, g.rows()[1].forward), S("aten::mul"));
    QCOMPARE(nameOf(m, g.rows()[2].forward), S("aten::add"));
    for (const PairRow &row : g.rows())
        QCOMPARE(row.step, int64_t(1));
}

// ---------------------------------------------------------------------------------------------
// Tables and reports

void TestLinker::pairTableCsvMatchesCliFormat()
{
    const auto trace = test::link(test::traceWith(kPairs));
    QVERIFY(trace);
    const PairTable table(*trace->graph);

    // cli.md's 22 columns, then the memory columns (tests/core/tst_memory), the efficiency
    // ones (tests/core/tst_opefficiency) and critical_us (tests/core/tst_criticalpath).
    QCOMPARE(table.columnCount(), size_t(32));
    // Row 1 aten::conv2d: ts as written (812000.250); Input Dims compact and quoted (commas);
    //   flow; bwd_ts 815405.125; bwd_dur = wrapper 410; fwd GPU 1 × 52; bwd GPU
    //   100.25 + 40 = 140.25 in 2; step 7; module nn.Module: Conv2d_0.
    // Row 2 Fn<"x", y>: integer ts (812500, no decimals), durations still 3 decimals; name with
    //   a comma and quotes → quoted, quotes doubled; paired by the fallback (no flow); outside
    //   the module; step 7.
    // Row 3 AddBackward0: no forward op (N=311) → forward columns empty, link none, sorted by
    //   its bwd_ts 815901.000 after the forward rows; step of the node, 7.
    const QStringList expected = {
        kPairHeader,
        S("aten::conv2d,4100,4100,812000.250,200.000,\"[[1,3,8,8],[4,3,3,3]]\",312,flow,"
          "ConvolutionBackward0,4100,4133,815405.125,410.000,1,52.000,2,140.250,7,"
          "nn.Module: Conv2d_0,0,0.000,0.000"),
        S("\"Fn<\"\"x\"\", y>\",4100,4100,812500,100.000,,313,sequence,"
          "\"Fn<\"\"x\"\", "
          "y>Backward\",4100,4133,815000.500,100.000,0,0.000,0,0.000,7,,0,0.000,0.000"),
        S(",,,,,,311,none,AddBackward0,4100,4133,815901.000,50.000,,,0,0.000,7,,0,0.000,"),
    };
    QCOMPARE(csvLines(table), expected);

    // The file export writes the same text.
    const QString path = test::tempDir() + S("/pairs.csv");
    std::string error;
    QVERIFY2(exportTable(table, path.toStdString(), error), error.c_str());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray::fromStdString(tableToCsv(table)));
}

void TestLinker::pairTableJsonExportHasNumbersAsNumbers()
{
    const auto trace = test::link(test::traceWith(kPairs));
    QVERIFY(trace);
    const PairTable table(*trace->graph);

    const QString path = test::tempDir() + S("/pairs.json");
    std::string error;
    QVERIFY2(exportTable(table, path.toStdString(), error), error.c_str());
    const QJsonArray rows = readJsonArray(path);
    QCOMPARE(rows.size(), 3);

    QStringList headerKeys = kPairHeader.split(QLatin1Char(','));
    headerKeys << S("fwd_alloc_bytes") << S("held_bytes") << S("bwd_alloc_bytes") << S("held_until")
               << S("fwd_tflops") << S("bwd_tflops") << S("fwd_pct_roofline")
               << S("bwd_pct_roofline") << S("bound") << S("critical_us");
    headerKeys.sort();
    for (const QJsonValue &v : rows) {
        QStringList keys = v.toObject().keys();
        keys.sort();
        QCOMPARE(keys, headerKeys);
    }

    const QJsonObject conv = rows[0].toObject();
    QCOMPARE(conv[S("fwd_name")].toString(), S("aten::conv2d"));
    QVERIFY(conv[S("fwd_pid")].isDouble());
    QCOMPARE(conv[S("fwd_pid")].toInteger(), 4100);
    QCOMPARE(conv[S("fwd_tid")].toInteger(), 4100);
    QVERIFY(conv[S("fwd_ts")].isDouble());
    QCOMPARE(conv[S("fwd_ts")].toDouble(), 812000.25);
    QCOMPARE(conv[S("fwd_dur")].toDouble(), 200.0);
    QCOMPARE(conv[S("input_dims")].toArray(),
        QJsonArray({QJsonArray({1, 3, 8, 8}), QJsonArray({4, 3, 3, 3})}));
    QCOMPARE(conv[S("sequence_numbers")].toArray(), QJsonArray({312}));
    QCOMPARE(conv[S("link")].toString(), S("flow"));
    QCOMPARE(conv[S("bwd_names")].toArray(), QJsonArray({S("ConvolutionBackward0")}));
    QCOMPARE(conv[S("bwd_tid")].toInteger(), 4133);
    QCOMPARE(conv[S("bwd_ts")].toDouble(), 815405.125);
    QCOMPARE(conv[S("bwd_dur")].toDouble(), 410.0);
    QVERIFY(conv[S("fwd_gpu_events")].isDouble());
    QCOMPARE(conv[S("fwd_gpu_events")].toInteger(), 1);
    QCOMPARE(conv[S("fwd_gpu_us")].toDouble(), 52.0);
    QCOMPARE(conv[S("bwd_gpu_events")].toInteger(), 2);
    QCOMPARE(conv[S("bwd_gpu_us")].toDouble(), 140.25);
    QVERIFY(conv[S("step")].isDouble());
    QCOMPARE(conv[S("step")].toInteger(), 7);
    QCOMPARE(conv[S("module")].toString(), S("nn.Module: Conv2d_0"));

    const QJsonObject fn = rows[1].toObject();
    QCOMPARE(fn[S("fwd_name")].toString(), S("Fn<\"x\", y>"));
    QCOMPARE(fn[S("fwd_ts")].toDouble(), 812500.0);
    QVERIFY(fn[S("input_dims")].isNull());
    QVERIFY(fn[S("module")].isNull());
    QCOMPARE(fn[S("link")].toString(), S("sequence"));
    QCOMPARE(fn[S("bwd_names")].toArray(), QJsonArray({S("Fn<\"x\", y>Backward")}));

    const QJsonObject none = rows[2].toObject();
    for (const char *key : {"fwd_name", "fwd_pid", "fwd_tid", "fwd_ts", "fwd_dur", "input_dims",
             "fwd_gpu_events", "fwd_gpu_us", "module"})
        QVERIFY2(none[S(key)].isNull(), key);
    QCOMPARE(none[S("link")].toString(), S("none"));
    QCOMPARE(none[S("sequence_numbers")].toArray(), QJsonArray({311}));
    QCOMPARE(none[S("bwd_ts")].toDouble(), 815901.0);
    QCOMPARE(none[S("bwd_gpu_events")].toInteger(), 0);
    QCOMPARE(none[S("step")].toInteger(), 7);

    // A view's selection and order: rows 2 then 0.
    const std::vector<uint32_t> order = {2, 0};
    const QString subsetPath = test::tempDir() + S("/pairs-subset.json");
    QVERIFY2(exportTableRows(table, order, subsetPath.toStdString(), error), error.c_str());
    const QJsonArray subset = readJsonArray(subsetPath);
    QCOMPARE(subset.size(), 2);
    QCOMPARE(subset[0].toObject()[S("link")].toString(), S("none"));
    QCOMPARE(subset[1].toObject()[S("fwd_name")].toString(), S("aten::conv2d"));
}

void TestLinker::summaryCountsMatchTheGraph()
{
    // kPairs: 20 events (18 X, 1 s, 1 f); cpu_ops: conv2d, convolution, Fn, 3 wrappers, 3 nodes,
    // convolution_backward = 10; 3 kernels all attributed; 1 flow with both ends; pairs: 1 by
    // flow (conv) + 1 by sequence (Fn); 1 unpaired (AddBackward0); 1 step.
    const auto trace = test::link(test::traceWith(kPairs));
    QVERIFY(trace);
    const std::string text = summaryJson(*trace->model, *trace->graph, trace->seconds);
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(o[S("events")].toInteger(), 20);
    QCOMPARE(o[S("cpu_ops")].toInteger(), 10);
    QCOMPARE(o[S("gpu_events")].toInteger(), 3);
    QCOMPARE(o[S("flows")].toInteger(), 1);
    QCOMPARE(o[S("fwd_bwd_pairs")].toInteger(), 2);
    QCOMPARE(o[S("pairs_from_flows")].toInteger(), 1);
    QCOMPARE(o[S("pairs_from_sequence")].toInteger(), 1);
    QCOMPARE(o[S("unpaired_backward")].toInteger(), 1);
    QCOMPARE(o[S("gpu_events_attributed")].toInteger(), 3);
    QCOMPARE(o[S("steps")].toInteger(), 1);
    QCOMPARE(o[S("truncated")].toBool(), false);
    QCOMPARE(o[S("compressed")].toBool(), false);
    QVERIFY(o[S("diagnostics")].isObject());
}

void TestLinker::stepBreakdownSplitsGpuTimeAndMergesStreams()
{
    //   ProfilerStep#1 [0,1000], ProfilerStep#2 [1000,1500] on the main thread.
    //   k_fwd        stream 7 [100,200]   launched in aten::mul (row forward)  → forward 100
    //   k_bwd        stream 7 [400,500]   launched in MulBackward0             → backward 100
    //   k_accumulate stream 8 [450,550]   launched in AccumulateGrad           → backward_other 100
    //   k_optimizer  stream 7 [850,900]   launched in the optimizer            → other 50
    //   k_late       stream 8 [950,1050]  launched at 818 (step 1)             → other 100
    //   nccl         stream 9 [480,600]   launched at 820 (step 1)             → communication
    //   Memcpy DtoH  stream 10 [590,620]  launched at 822 (step 1)             → memcpy
    //   gpu_user_annotation ProfilerStep#1 on stream 7 [0,1000]: not GPU work.
    // Step 1 launched all of them: GPU span [100,1050] = 950;
    //   busy = [100,200] ∪ [400,620] ∪ [850,900] ∪ [950,1050] = 100 + 220 + 50 + 100 = 470,
    //   idle = 950 − 470 = 480. Split: forward [100,200] 100; backward [400,500] 100 (it comes
    //   before backward_other where both run); backward_other [500,550] 50; communication
    //   [550,600] 50 (under computation before); memcpy [600,620] 20; other 50 + 100 = 150.
    // Step 2: no launches: no GPU span, nothing busy, nothing idle (k_late is step 1's).
    const std::string events = R"json(
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":100,"tid":100,"ts":0,"dur":1000},
{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":100,"tid":100,"ts":10,"dur":40,"args":{"External id":1,"Sequence number":1,"Fwd thread id":0}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":20,"dur":5,"args":{"External id":1,"correlation":1}},
{"ph":"X","cat":"user_annotation","name":"Optimizer.step#SGD.step","pid":100,"tid":100,"ts":800,"dur":100},
{"ph":"X","cat":"cpu_op","name":"aten::add_","pid":100,"tid":100,"ts":810,"dur":20,"args":{"External id":2}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":815,"dur":2,"args":{"External id":2,"correlation":4}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":818,"dur":2,"args":{"External id":2,"correlation":5}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":820,"dur":1,"args":{"External id":2,"correlation":6}},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":100,"tid":100,"ts":822,"dur":1,"args":{"External id":2,"correlation":7}},
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":100,"tid":100,"ts":1000,"dur":500},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: MulBackward0","pid":100,"tid":200,"ts":300,"dur":100,"args":{"External id":3,"Sequence number":1,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":100,"tid":200,"ts":301,"dur":98,"args":{"External id":4,"Sequence number":1,"Fwd thread id":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":310,"dur":5,"args":{"External id":4,"correlation":2}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: torch::autograd::AccumulateGrad","pid":100,"tid":200,"ts":450,"dur":50,"args":{"External id":5}},
{"ph":"X","cat":"cpu_op","name":"torch::autograd::AccumulateGrad","pid":100,"tid":200,"ts":451,"dur":48,"args":{"External id":6}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":460,"dur":5,"args":{"External id":6,"correlation":3}},
{"ph":"X","cat":"gpu_user_annotation","name":"ProfilerStep#1","pid":0,"tid":7,"ts":0,"dur":1000},
{"ph":"X","cat":"kernel","name":"k_fwd","pid":0,"tid":7,"ts":100,"dur":100,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","name":"k_bwd","pid":0,"tid":7,"ts":400,"dur":100,"args":{"correlation":2}},
{"ph":"X","cat":"kernel","name":"k_accumulate","pid":0,"tid":8,"ts":450,"dur":100,"args":{"correlation":3}},
{"ph":"X","cat":"kernel","name":"k_optimizer","pid":0,"tid":7,"ts":850,"dur":50,"args":{"correlation":4}},
{"ph":"X","cat":"kernel","name":"k_late","pid":0,"tid":8,"ts":950,"dur":100,"args":{"correlation":5}},
{"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","pid":0,"tid":9,"ts":480,"dur":120,"args":{"correlation":6}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH (Device -> Pageable)","pid":0,"tid":10,"ts":590,"dur":30,"args":{"correlation":7}}
)json";
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const OpGraph &g = *trace->graph;

    QCOMPARE(side(g, gpuEvent(g, "k_fwd")), S("forward"));
    QCOMPARE(side(g, gpuEvent(g, "k_bwd")), S("backward"));
    QCOMPARE(side(g, gpuEvent(g, "k_accumulate")), S("backward_other"));
    QCOMPARE(side(g, gpuEvent(g, "k_optimizer")), S("other"));
    QCOMPARE(side(g, gpuEvent(g, "k_late")), S("other"));

    const std::vector<StepBreakdown> steps = stepBreakdown(g);
    QCOMPARE(steps.size(), size_t(2));
    const StepBreakdown &s = steps[0];
    QCOMPARE(s.step, int64_t(1));
    QCOMPARE(s.events, uint64_t(7));
    QCOMPARE(s.cpuEnd - s.cpuStart, TimeNs(1000000));
    QCOMPARE(s.span(), TimeNs(950000));
    QCOMPARE(s.busy, TimeNs(470000));
    QCOMPARE(s.idle(), TimeNs(480000));
    const std::array<TimeNs, kStepCategories> parts
        = {100000, 100000, 50000, 0, 50000, 20000, 150000};
    QCOMPARE(s.parts, parts);
    // The same busy time as the step's --summary-style breakdown, computed apart.
    const GpuTimeBreakdown tracelens = gpuTimePerStep(g).at(0).time;
    QCOMPARE(s.busy, tracelens.busy);
    QCOMPARE(s.part(WorkPart::Communication), tracelens.exposedComm);
    QCOMPARE(s.part(WorkPart::Memcpy), tracelens.exposedMemcpy);
    QCOMPARE(steps[1].step, int64_t(2));
    QCOMPARE(steps[1].events, uint64_t(0));
    QCOMPARE(steps[1].busy, TimeNs(0));
    QCOMPARE(steps[1].idle(), TimeNs(0));
}

void TestLinker::gzippedTraceWithInvalidEscapeLinksTheSame()
{
    // §8 last row: a gzipped file whose op name has an invalid escape (\q) still loads (the
    // lenient reader keeps the backslash) and links: one pair my\qop ↔ MyBackward.
    const std::string events = R"json(
{"ph":"X","cat":"cpu_op","name":"my\qop","pid":100,"tid":100,"ts":100,"dur":10,"args":{"Sequence number":1,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"MyBackward","pid":100,"tid":200,"ts":300,"dur":10,"args":{"Sequence number":1,"Fwd thread id":1}}
)json";
    const QString path = test::writeTemp(S("escape.pt.trace.json.gz"),
        test::gzip(QByteArray::fromStdString(test::traceWith(events))));
    QVERIFY(!path.isEmpty());
    const OpenResult r = openTrace(path.toStdString());
    QVERIFY2(r.trace, r.error.c_str());
    const TraceModel &m = *r.trace->model;
    const OpGraph &g = *r.trace->graph;
    QVERIFY(m.compressed);
    QCOMPARE(g.rows().size(), size_t(1));
    QCOMPARE(nameOf(m, g.rows()[0].forward), S("my\\qop"));
    QCOMPARE(rowNodeNames(g, g.rows()[0]), QStringList({S("MyBackward")}));
}

QTEST_GUILESS_MAIN(TestLinker)
#include "tst_linker.moc"
