// SPDX-License-Identifier: MIT
// Recomputed forward work (activation checkpointing, docs/recompute.md): which ops are recompute,
// where their GPU time goes (pair rows, kernel sides, steps, summary, module tree) and which
// forward op each repeats. Each test links a small hand-written trace; the expected values are
// worked out by hand in the comments (JSON times are µs, the model keeps ns).
#include "analysis/modules/moduletree.h"
#include "analysis/time/stepbreakdown.h"
#include "export/summary.h"
#include "testutil.h"
#include "tracequery.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace ks;
using namespace ks::test;

namespace {

/*
 * Non-reentrant checkpointing of Conv2d_0 (sequence fallback, no flows):
 *   main 100: ProfilerStep#1 [0,5000]
 *     nn.Module: Conv2d_0 [10,200] > aten::conv2d [20,100] N=10 > aten::convolution [25,95]
 *       N=10 > launch corr 1 → k_conv_fwd 8 µs
 *     nn.Module: ReLU_0 [210,300] > aten::relu [220,260] N=11 > launch corr 2 → k_relu_fwd 2 µs
 *   autograd 200:
 *     evaluate_function: ReluBackward0 [1000,1450] N=11 T=1
 *       ReluBackward0 [1001,1399]
 *         unpack_hook [1010,1200] > recompute_fn [1015,1195] > nn.Module: Conv2d_0 [1020,1190]
 *           > aten::conv2d [1030,1180] N=0 T=0 (recomputed) > aten::convolution [1035,1175] N=0
 *             > aten::empty [1040,1045] (no number), launch corr 3 → k_conv_re 10 µs
 *         aten::threshold_backward [1250,1300] (no number) > launch corr 4 → k_relu_bwd 5 µs
 *       aten::add_ [1410,1440] N=3 T=0: a hook in the wrapper, outside the node — not recompute
 *         > launch corr 6 → k_hook 3 µs
 *     evaluate_function: ConvolutionBackward0 [1500,1800] N=10 T=1 > node [1501,1799]
 *       > aten::convolution_backward [1510,1790] > launch corr 5 → k_conv_bwd 20 µs
 */
const char *const kNonReentrant = R"json(
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":100,"tid":100,"ts":0,"dur":5000},
{"ph":"X","cat":"python_function","name":"nn.Module: Conv2d_0","pid":100,"tid":100,"ts":10,"dur":190},
{"ph":"X","cat":"cpu_op","name":"aten::conv2d","pid":100,"tid":100,"ts":20,"dur":80,"args":{"Sequence number":10,"Fwd thread id":0,"Input Dims":[[1,3,8,8]]}},
{"ph":"X","cat":"cpu_op","name":"aten::convolution","pid":100,"tid":100,"ts":25,"dur":70,"args":{"Sequence number":10,"Fwd thread id":0}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":30,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"python_function","name":"nn.Module: ReLU_0","pid":100,"tid":100,"ts":210,"dur":90},
{"ph":"X","cat":"cpu_op","name":"aten::relu","pid":100,"tid":100,"ts":220,"dur":40,"args":{"Sequence number":11,"Fwd thread id":0}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":225,"dur":5,"args":{"correlation":2}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ReluBackward0","pid":100,"tid":200,"ts":1000,"dur":450,"args":{"Sequence number":11,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"ReluBackward0","pid":100,"tid":200,"ts":1001,"dur":398,"args":{"Sequence number":11,"Fwd thread id":1}},
{"ph":"X","cat":"python_function","name":"torch/utils/checkpoint.py(1129): unpack_hook","pid":100,"tid":200,"ts":1010,"dur":190},
{"ph":"X","cat":"python_function","name":"torch/utils/checkpoint.py(1517): recompute_fn","pid":100,"tid":200,"ts":1015,"dur":180},
{"ph":"X","cat":"python_function","name":"nn.Module: Conv2d_0","pid":100,"tid":200,"ts":1020,"dur":170},
{"ph":"X","cat":"cpu_op","name":"aten::conv2d","pid":100,"tid":200,"ts":1030,"dur":150,"args":{"Sequence number":0,"Fwd thread id":0,"Input Dims":[[1,3,8,8]]}},
{"ph":"X","cat":"cpu_op","name":"aten::convolution","pid":100,"tid":200,"ts":1035,"dur":140,"args":{"Sequence number":0,"Fwd thread id":0}},
{"ph":"X","cat":"cpu_op","name":"aten::empty","pid":100,"tid":200,"ts":1040,"dur":5},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":1050,"dur":5,"args":{"correlation":3}},
{"ph":"X","cat":"cpu_op","name":"aten::threshold_backward","pid":100,"tid":200,"ts":1250,"dur":50},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":1260,"dur":5,"args":{"correlation":4}},
{"ph":"X","cat":"cpu_op","name":"aten::add_","pid":100,"tid":200,"ts":1410,"dur":30,"args":{"Sequence number":3,"Fwd thread id":0}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":1415,"dur":5,"args":{"correlation":6}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ConvolutionBackward0","pid":100,"tid":200,"ts":1500,"dur":300,"args":{"Sequence number":10,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"ConvolutionBackward0","pid":100,"tid":200,"ts":1501,"dur":298,"args":{"Sequence number":10,"Fwd thread id":1}},
{"ph":"X","cat":"cpu_op","name":"aten::convolution_backward","pid":100,"tid":200,"ts":1510,"dur":280},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":1520,"dur":5,"args":{"correlation":5}},
{"ph":"X","cat":"kernel","name":"k_conv_fwd","pid":0,"tid":7,"ts":40,"dur":8,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","name":"k_relu_fwd","pid":0,"tid":7,"ts":230,"dur":2,"args":{"correlation":2}},
{"ph":"X","cat":"kernel","name":"k_conv_re","pid":0,"tid":7,"ts":1060,"dur":10,"args":{"correlation":3}},
{"ph":"X","cat":"kernel","name":"k_relu_bwd","pid":0,"tid":7,"ts":1270,"dur":5,"args":{"correlation":4}},
{"ph":"X","cat":"kernel","name":"k_hook","pid":0,"tid":7,"ts":1420,"dur":3,"args":{"correlation":6}},
{"ph":"X","cat":"kernel","name":"k_conv_bwd","pid":0,"tid":7,"ts":1530,"dur":20,"args":{"correlation":5}}
)json";

//! A backward node on the autograd thread (tid 200) with one op inside launching \a kernel.
std::string nodeWithOp(const std::string &node,
    int seq,
    int ts,
    const std::string &op,
    const std::string &opArgs,
    int correlation)
{
    const std::string at = std::to_string(ts);
    return R"({"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: )" + node
        + R"(","pid":1,"tid":200,"ts":)" + at + R"(,"dur":90,"args":{"Sequence number":)"
        + std::to_string(seq) + R"(,"Fwd thread id":1}},)" + R"({"ph":"X","cat":"cpu_op","name":")"
        + node + R"(","pid":1,"tid":200,"ts":)" + std::to_string(ts + 1)
        + R"(,"dur":88,"args":{"Sequence number":)" + std::to_string(seq)
        + R"(,"Fwd thread id":1}},)" + R"({"ph":"X","cat":"cpu_op","name":")" + op
        + R"(","pid":1,"tid":200,"ts":)" + std::to_string(ts + 10) + R"(,"dur":50,"args":{)"
        + opArgs + R"(}},)"
        + R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":200,"ts":)"
        + std::to_string(ts + 20) + R"(,"dur":5,"args":{"correlation":)"
        + std::to_string(correlation) + R"(}},)" + R"({"ph":"X","cat":"kernel","name":"k)"
        + std::to_string(correlation) + R"(","pid":0,"tid":7,"ts":)" + std::to_string(ts + 30)
        + R"(,"dur":4,"args":{"correlation":)" + std::to_string(correlation) + R"(}})";
}

//! A forward op on the main thread (tid 100) with number \a seq.
std::string forwardOp(const std::string &name, int seq, int ts, const std::string &extraArgs = {})
{
    return R"({"ph":"X","cat":"cpu_op","name":")" + name + R"(","pid":1,"tid":100,"ts":)"
        + std::to_string(ts) + R"(,"dur":10,"args":{"Sequence number":)" + std::to_string(seq)
        + R"(,"Fwd thread id":0)" + extraArgs + "}},";
}

} // namespace

class TestRecompute : public QObject {
    Q_OBJECT
private slots:
    void recomputedConvMovesFromBackwardToRecompute();
    void recomputeShowsInSidesStepsSummaryAndModules();
    void recomputeIsMatchedToItsOriginal();
    void doubleBackwardIsNotRecompute();
    void ambiguousOriginalsFollowTheOrderRule();
};

void TestRecompute::recomputedConvMovesFromBackwardToRecompute()
{
    const auto trace = test::link(test::traceWith(kNonReentrant));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;
    QVERIFY(!g.stats().doubleBackward);
    QCOMPARE(g.rows().size(), size_t(2));

    // One recomputed op: the outer aten::conv2d; its numbered aten::convolution is inside it.
    QCOMPARE(g.recomputations().size(), size_t(1));
    const Recomputation &r = g.recomputations()[0];
    QCOMPARE(r.op, find(m, "aten::conv2d", 1));
    QCOMPARE(nameOf(m, g.nodes()[r.hostNode].node), S("ReluBackward0"));
    QCOMPARE(g.recomputationOf(find(m, "aten::empty")), 0);
    QCOMPARE(g.recomputationOf(find(m, "aten::threshold_backward")), -1);
    QCOMPARE(g.recomputationOf(find(m, "aten::add_")), -1);
    QCOMPARE(r.gpu.count, 1u);
    QCOMPARE(r.gpu.time, TimeNs(10000));

    // Row 1, aten::relu: its wrapper launched k_conv_re 10, k_relu_bwd 5 and k_hook 3 (18 µs in 3
    // before this rule); k_conv_re is recompute, the rest backward: 2 / 8 µs + 1 / 10 µs.
    const PairRow &relu = g.rows()[1];
    QCOMPARE(nameOf(m, relu.forward), S("aten::relu"));
    QCOMPARE(relu.backwardGpu.count, 2u);
    QCOMPARE(relu.backwardGpu.time, TimeNs(8000));
    QCOMPARE(relu.recomputeGpu.count, 1u);
    QCOMPARE(relu.recomputeGpu.time, TimeNs(10000));
    const GpuTotals all = g.gpuTotalsUnder(find(m,
        "autograd::engine::evaluate_function: "
        "ReluBackward0"));
    QCOMPARE(all.count, relu.backwardGpu.count + relu.recomputeGpu.count);
    QCOMPARE(all.time, relu.backwardGpu.time + relu.recomputeGpu.time);
    QCOMPARE(relu.recomputations, 0u);

    // Row 0, aten::conv2d: backward k_conv_bwd 20 µs untouched; its recomputation costs 10 µs.
    const PairRow &conv = g.rows()[0];
    QCOMPARE(nameOf(m, conv.forward), S("aten::conv2d"));
    QCOMPARE(conv.backwardGpu.time, TimeNs(20000));
    QCOMPARE(conv.recomputeGpu.count, 0u);
    QCOMPARE(conv.recomputations, 1u);
    QCOMPARE(conv.recomputedGpu.time, TimeNs(10000));

    // The export: the three columns after module.
    const PairTable table(g);
    const QStringList lines = csvLines(table);
    QVERIFY(
        lines[0].endsWith(S(",module,recompute_gpu_events,recompute_gpu_us,recomputed_gpu_us")));
    QVERIFY2(lines[1].endsWith(S(",nn.Module: Conv2d_0,0,0.000,10.000")), qPrintable(lines[1]));
    QVERIFY2(
        lines[2].endsWith(S(",8.000,1,nn.Module: ReLU_0,1,10.000,0.000")), qPrintable(lines[2]));
    // The window's titles tell the two apart: relu's backward re-ran 10 µs of conv's forward;
    // conv's own forward re-run cost 10 µs.
    QCOMPARE(table.columns()[PairTable::RecomputeGpuUs].title,
        std::string_view("Re-run in its backward: GPU (µs)"));
    QCOMPARE(table.columns()[PairTable::RecomputedGpuUs].title,
        std::string_view("Its forward re-run: GPU (µs)"));
}

void TestRecompute::recomputeShowsInSidesStepsSummaryAndModules()
{
    const auto trace = test::link(test::traceWith(kNonReentrant));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;

    QCOMPARE(side(g, gpuEvent(g, "k_conv_re")), S("recompute"));
    QCOMPARE(side(g, gpuEvent(g, "k_relu_bwd")), S("backward"));
    QCOMPARE(side(g, gpuEvent(g, "k_hook")), S("backward"));
    QCOMPARE(side(g, gpuEvent(g, "k_conv_fwd")), S("forward"));

    // Step 1: forward 8 + 2, backward 5 + 3 + 20, recompute 10.
    const std::vector<StepBreakdown> steps = stepBreakdown(g);
    QCOMPARE(steps.size(), size_t(1));
    QCOMPARE(steps[0].part(WorkPart::Forward), TimeNs(10000));
    QCOMPARE(steps[0].part(WorkPart::Backward), TimeNs(28000));
    QCOMPARE(steps[0].part(WorkPart::Recompute), TimeNs(10000));

    const QJsonObject summary
        = QJsonDocument::fromJson(QByteArray::fromStdString(summaryJson(m, g, 0))).object();
    QCOMPARE(summary[S("recompute_gpu_us")].toDouble(), 10.0);
    QCOMPARE(summary[S("recomputed_ops")].toInt(), 1);

    // The module tree charges the recompute to Conv2d_0 (the module re-run), not to ReLU_0
    // (the module of the node that triggered it); ReLU_0 keeps its own backward 5 + 3.
    const auto tree = ModuleTree::build(g);
    const ModuleId conv = tree->find("Conv2d_0");
    const ModuleId relu = tree->find("ReLU_0");
    QVERIFY(conv != kNoModule && relu != kNoModule);
    QCOMPARE(tree->node(conv).times.recomputeSelf.time, TimeNs(10000));
    QCOMPARE(tree->node(conv).times.backwardSelf.time, TimeNs(20000));
    QCOMPARE(tree->node(relu).times.recomputeSelf.count, 0u);
    QCOMPARE(tree->node(relu).times.backwardSelf.time, TimeNs(8000));
    QCOMPARE(tree->node(0).times.recomputeTotal.time, TimeNs(10000));
}

void TestRecompute::recomputeIsMatchedToItsOriginal()
{
    const auto trace = test::link(test::traceWith(kNonReentrant));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;
    // Same name, Input Dims [[1,3,8,8]] and module Conv2d_0 in step 1: the forward aten::conv2d.
    const Recomputation &r = g.recomputations()[0];
    QCOMPARE(r.original, find(m, "aten::conv2d", 0));
    QCOMPARE(r.candidates, 1u);
    QCOMPARE(g.recomputationsRepeating(find(m, "aten::conv2d", 0)), std::vector<uint32_t>({0}));
    QVERIFY(g.recomputationsRepeating(find(m, "aten::relu")).empty());
}

void TestRecompute::doubleBackwardIsNotRecompute()
{
    // create_graph=True: both nodes' own ops are numbered (T=0). That is double backward, not
    // checkpointing: GPU time stays backward, a diagnostic says why.
    //   main: aten::mul [100] N=10, aten::exp [200] N=11
    //   autograd: MulBackward0 [1000] > aten::mul N=20 > k1 4 µs;
    //             ExpBackward0 [2000] > aten::mul N=21 > k2 4 µs
    const std::string events = forwardOp("aten::mul", 10, 100) + forwardOp("aten::exp", 11, 200)
        + nodeWithOp(
            "ExpBackward0", 11, 1000, "aten::mul", R"("Sequence number":20,"Fwd thread id":0)", 1)
        + ","
        + nodeWithOp(
            "MulBackward0", 10, 2000, "aten::mul", R"("Sequence number":21,"Fwd thread id":0)", 2);
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const OpGraph &g = *trace->graph;
    QVERIFY(g.stats().doubleBackward);
    QVERIFY(g.recomputations().empty());
    QCOMPARE(g.diagnostics().count("double_backward"), uint64_t(2));
    QCOMPARE(g.rows().size(), size_t(2));
    for (const PairRow &row : g.rows()) {
        QCOMPARE(row.backwardGpu.time, TimeNs(4000));
        QCOMPARE(row.recomputeGpu.count, 0u);
    }
    QCOMPARE(side(g, gpuEvent(g, "k1")), S("backward"));

    // The vote: ExpBackward0 fully numbered; ReluBackward0 and SigmoidBackward0 run their own,
    // unnumbered ops. 1 of 2 fully numbered is still double backward; 1 of 3 is not, and then
    // the numbered aten::mul inside ExpBackward0 is a recomputation.
    const std::string exp = forwardOp("aten::exp", 11, 200)
        + nodeWithOp(
            "ExpBackward0", 11, 1000, "aten::mul", R"("Sequence number":20,"Fwd thread id":0)", 1);
    const std::string relu
        = nodeWithOp("ReluBackward0", 12, 3000, "aten::threshold_backward", "", 3);
    const std::string sigmoid
        = nodeWithOp("SigmoidBackward0", 13, 4000, "aten::sigmoid_backward", "", 4);
    const auto half
        = test::link(test::traceWith(forwardOp("aten::relu", 12, 300) + exp + "," + relu));
    QVERIFY(half);
    QVERIFY(half->graph->stats().doubleBackward);
    const auto third = test::link(test::traceWith(forwardOp("aten::relu", 12, 300)
        + forwardOp("aten::sigmoid", 13, 400) + exp + "," + relu + "," + sigmoid));
    QVERIFY(third);
    QVERIFY(!third->graph->stats().doubleBackward);
    QCOMPARE(third->graph->recomputations().size(), size_t(1));
    QCOMPARE(side(*third->graph, gpuEvent(*third->graph, "k1")), S("recompute"));
    QCOMPARE(side(*third->graph, gpuEvent(*third->graph, "k3")), S("backward"));
}

void TestRecompute::ambiguousOriginalsFollowTheOrderRule()
{
    // Two identical aten::gelu in the forward of one step (no modules, same dims), re-run in two
    // host nodes, and a third re-run in a third node. Rule: host nodes from the latest; the
    // k-th re-run repeats the k-th original. So the re-run in the later host node (at 3000)
    // repeats the first gelu (100), the one in the node at 2000 the second (200), and the one
    // at 1000 has no original left.
    const std::string dims = R"(,"Input Dims":[[4,4]])";
    std::string events
        = R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#3","pid":1,"tid":100,"ts":0,"dur":9000},)";
    events += forwardOp("aten::gelu", 1, 100, dims) + forwardOp("aten::gelu", 2, 200, dims)
        + forwardOp("aten::add", 3, 300);
    auto reRun = [&](const std::string &node, int seq, int ts, int corr) {
        // The node's own unnumbered op first, then the numbered re-run (the later op).
        std::string text = nodeWithOp(node, seq, ts, "aten::own", "", corr);
        text += R"(,{"ph":"X","cat":"cpu_op","name":"aten::gelu","pid":1,"tid":200,"ts":)"
            + std::to_string(ts + 70) + R"(,"dur":10,"args":{"Sequence number":)"
            + std::to_string(50 + seq) + R"(,"Fwd thread id":0)" + dims + "}}";
        return text;
    };
    events += reRun("GeluBackward0", 2, 1000, 1) + "," + reRun("GeluBackward0", 1, 2000, 2) + ","
        + reRun("AddBackward0", 3, 3000, 3);
    const auto trace = test::link(test::traceWith(events));
    QVERIFY(trace);
    const TraceModel &m = *trace->model;
    const OpGraph &g = *trace->graph;
    QCOMPARE(g.recomputations().size(), size_t(3));
    auto originalOfRunAt = [&](TimeNs us) {
        for (const Recomputation &r : g.recomputations()) {
            if (m.slices.start[r.op] == us * 1000)
                return r;
        }
        return Recomputation();
    };
    QCOMPARE(originalOfRunAt(3070).original, find(m, "aten::gelu", 0));
    QCOMPARE(originalOfRunAt(2070).original, find(m, "aten::gelu", 1));
    QCOMPARE(originalOfRunAt(1070).original, kNoSlice);
    QCOMPARE(originalOfRunAt(3070).candidates, 2u);
    QCOMPARE(g.diagnostics().count("recompute_without_original"), uint64_t(1));
}

QTEST_GUILESS_MAIN(TestRecompute)
#include "tst_recompute.moc"
