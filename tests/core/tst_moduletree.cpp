// SPDX-License-Identifier: MIT
// The module tree (core/moduletree) and its table (core/moduletable): "where the time goes",
// forward and backward GPU time per module path. Small traces are built inline (pid 1; main
// thread 1, autograd thread 2, stream 7) with the expected numbers worked out by hand in the
// comments; the real traces are checked against tests/reference/module_reference.py, an
// independent Python implementation of the same rules.
#include "analysis/modules/moduletree.h"
#include "export/moduletable.h"
#include "testutil.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

using namespace ks;

namespace {

// ---- Trace building blocks (times in µs, as in the JSON; the model keeps ns).

std::string num(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string slice(const char *cat,
    const std::string &name,
    int tid,
    double ts,
    double dur,
    const std::string &args = {})
{
    std::string out = R"({"ph":"X","cat":")" + std::string(cat) + R"(","name":")" + name
        + R"(","pid":1,"tid":)" + std::to_string(tid) + R"(,"ts":)" + num(ts) + R"(,"dur":)"
        + num(dur);
    if (!args.empty())
        out += R"(,"args":{)" + args + "}";
    return out + "},\n";
}

std::string flow(bool start, int id, int tid, double ts)
{
    return std::string(R"({"ph":")") + (start ? "s" : "f")
        + R"(","cat":"fwdbwd","name":"fwdbwd","id":)" + std::to_string(id) + R"(,"pid":1,"tid":)"
        + std::to_string(tid) + R"(,"ts":)" + num(ts) + (start ? "" : R"(,"bp":"e")") + "},\n";
}

//! `nn.Module: <name>` on the main thread.
std::string mod(const std::string &name, double ts, double dur, int tid = 1)
{
    return slice("python_function", "nn.Module: " + name, tid, ts, dur);
}

std::string ann(const std::string &name, double ts, double dur, int tid = 1)
{
    return slice("user_annotation", name, tid, ts, dur);
}

//! A cpu_op; with \a seq >= 0 a forward op with that number, and with \a flowId > 0 the start
//! of a fwdbwd flow on it (it is the creator of the node the flow ends on).
std::string op(
    const std::string &name, double ts, double dur, int seq = -1, int flowId = 0, int tid = 1)
{
    const std::string args = seq >= 0
        ? R"("Sequence number":)" + std::to_string(seq) + R"(,"Fwd thread id":0)"
        : std::string();
    return slice("cpu_op", name, tid, ts, dur, args)
        + (flowId > 0 ? flow(true, flowId, tid, ts) : std::string());
}

//! A launch (1 µs) with correlation \a corr and the kernel it produced on stream 7.
std::string launch(
    int tid, double ts, int corr, const std::string &kernel, double kernelDur, double kernelTs = -1)
{
    const std::string c = std::to_string(corr);
    return slice("cuda_runtime", "cudaLaunchKernel", tid, ts, 1, R"("correlation":)" + c)
        + R"({"ph":"X","cat":"kernel","name":")" + kernel + R"(","pid":0,"tid":7,"ts":)"
        + num(kernelTs >= 0 ? kernelTs : ts + 2) + R"(,"dur":)" + num(kernelDur)
        + R"(,"args":{"device":0,"stream":7,"correlation":)" + c + "}},\n";
}

//! evaluate_function wrapper [ts, ts + dur] around node <name> [ts + 1, ts + dur - 1] with
//! number \a seq, the fwdbwd flow \a flowId ending on the node.
std::string backward(const std::string &name,
    double ts,
    double dur,
    int seq,
    int flowId,
    int tid = 2,
    int fwdTid = 1)
{
    const std::string args = R"("Sequence number":)" + std::to_string(seq) + R"(,"Fwd thread id":)"
        + std::to_string(fwdTid);
    return slice("cpu_op", "autograd::engine::evaluate_function: " + name, tid, ts, dur, args)
        + slice("cpu_op", name, tid, ts + 1, dur - 2, args) + flow(false, flowId, tid, ts + 1);
}

//! AccumulateGrad wrapper [ts, ts + dur] around the AccumulateGrad event.
std::string accumulate(double ts, double dur, int tid = 2)
{
    return slice("cpu_op", "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
               tid, ts, dur)
        + slice("cpu_op", "torch::autograd::AccumulateGrad", tid, ts + 0.5, dur - 1);
}

std::string trace(std::string events)
{
    while (!events.empty() && (events.back() == '\n' || events.back() == ','))
        events.pop_back();
    return test::traceWith(events);
}

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

//! GPU totals as "count/ns" for compact comparisons.
QString gpu(const GpuTotals &t)
{
    return QStringLiteral("%1/%2").arg(t.count).arg(t.time);
}

SliceId named(const TraceModel &m, std::string_view name, size_t k = 0)
{
    for (SliceId s = 0; s < m.slices.size(); ++s) {
        if (m.sliceName(s) == name && k-- == 0)
            return s;
    }
    return kNoSlice;
}

QStringList names(const TraceModel &m, std::span<const SliceId> slices)
{
    QStringList out;
    for (SliceId s : slices)
        out << QStringLiteral("%1@%2").arg(qs(m.sliceName(s))).arg(m.slices.start[s] / 1000);
    return out;
}

QStringList paths(const ModuleTree &tree)
{
    QStringList out;
    for (const ModuleNode &n : tree.nodes())
        out << qs(n.path);
    return out;
}

/*
 * Nested, repeated and tied modules: one step, everything on pid 1.
 *   main thread 1: ProfilerStep#1 [0, 1000]
 *     nn.Module: Net_0 [10, 410]
 *       aten::add [15, 35] N=5 (flow 7) > launch corr 1 → k_add 2
 *       nn.Module: Block_0 [40, 340]
 *         nn.Module: Linear_0 [50, 150] > aten::linear [55, 145] N=10 (flow 1)
 *           > corr 2 → gemm1 10
 *         nn.Module: ReLU_0 [160, 200] > aten::relu [165, 195] N=11 (flow 2) > corr 3 → relu1 3
 *         nn.Module: ReLU_0 [210, 250] > aten::relu [215, 245] N=12 (flow 3) > corr 4 → relu2 4
 *           (the same module called twice: one node, 2 calls)
 *         nn.Module: Linear_1 [260, 330] > aten::linear [265, 325] N=13 (flow 4)
 *           > corr 5 → gemm2 20
 *       aten::sum [350, 400] N=14 (flow 5) > corr 6 → sum 1.5
 *     aten::mse_loss [420, 440] N=15 (flow 6, outside modules) > corr 7 → mse 0.5
 *     Optimizer.step#SGD.step [900, 950] > aten::add_ [905, 945] > corr 20 → opt 6
 *   autograd thread 2:
 *     AccumulateGrad [480, 490] > corr 21 → acc0 0.125 (first on the thread: untied → root)
 *     MseLossBackward0 [500, 520] N=15 > corr 8 → mse_bwd 0.25
 *     SumBackward0 [525, 540] N=14 > corr 9 → sum_bwd 1
 *     AddmmBackward0 [545, 600] N=13 > corr 10 → dgrad2 15, corr 11 → wgrad2 5
 *     AccumulateGrad [605, 615] > corr 12 → acc2 2 (after N=13: Linear_1)
 *     ReluBackward0 [620, 640] N=12 > corr 13 → relu_bwd2 3.5
 *     ReluBackward0 [645, 665] N=11 > corr 14 → relu_bwd1 2.5
 *     AddmmBackward0 [670, 720] N=10 > corr 15 → dgrad1 8
 *     AccumulateGrad [725, 735] > corr 16 → acc1w 1 (after N=10: Linear_0)
 *     AccumulateGrad [740, 750] > corr 17 → acc1b 0.75 (chained: Linear_0)
 *       and corr 18 → ncclDevKernel_AllReduce 30 (communication: root)
 *     AddBackward0 [760, 780] N=5 (no GPU work)
 *     cudaStreamSynchronize [782, 784] (a runtime call: skipped when looking for the node)
 *     AccumulateGrad [790, 800] > corr 19 → acc3 0.5 (after N=5: Net_0)
 */
std::string nestedTrace()
{
    return trace(ann("ProfilerStep#1", 0, 1000) + mod("Net_0", 10, 400)
        + op("aten::add", 15, 20, 5, 7) + launch(1, 20, 1, "k_add", 2) + mod("Block_0", 40, 300)
        + mod("Linear_0", 50, 100) + op("aten::linear", 55, 90, 10, 1)
        + launch(1, 60, 2, "gemm1", 10) + mod("ReLU_0", 160, 40) + op("aten::relu", 165, 30, 11, 2)
        + launch(1, 170, 3, "relu1", 3) + mod("ReLU_0", 210, 40) + op("aten::relu", 215, 30, 12, 3)
        + launch(1, 220, 4, "relu2", 4) + mod("Linear_1", 260, 70)
        + op("aten::linear", 265, 60, 13, 4) + launch(1, 270, 5, "gemm2", 20)
        + op("aten::sum", 350, 50, 14, 5) + launch(1, 360, 6, "sum", 1.5)
        + op("aten::mse_loss", 420, 20, 15, 6) + launch(1, 425, 7, "mse", 0.5)
        + ann("Optimizer.step#SGD.step", 900, 50) + op("aten::add_", 905, 40)
        + launch(1, 910, 20, "opt", 6)
        // autograd thread
        + accumulate(480, 10) + launch(2, 485, 21, "acc0", 0.125)
        + backward("MseLossBackward0", 500, 20, 15, 6) + launch(2, 505, 8, "mse_bwd", 0.25)
        + backward("SumBackward0", 525, 15, 14, 5) + launch(2, 530, 9, "sum_bwd", 1)
        + backward("AddmmBackward0", 545, 55, 13, 4) + launch(2, 550, 10, "dgrad2", 15)
        + launch(2, 560, 11, "wgrad2", 5) + accumulate(605, 10) + launch(2, 608, 12, "acc2", 2)
        + backward("ReluBackward0", 620, 20, 12, 3) + launch(2, 625, 13, "relu_bwd2", 3.5)
        + backward("ReluBackward0", 645, 20, 11, 2) + launch(2, 650, 14, "relu_bwd1", 2.5)
        + backward("AddmmBackward0", 670, 50, 10, 1) + launch(2, 680, 15, "dgrad1", 8)
        + accumulate(725, 10) + launch(2, 728, 16, "acc1w", 1) + accumulate(740, 10)
        + launch(2, 742, 17, "acc1b", 0.75) + launch(2, 745, 18, "ncclDevKernel_AllReduce", 30)
        + backward("AddBackward0", 760, 20, 5, 7)
        + slice("cuda_runtime", "cudaStreamSynchronize", 2, 782, 2) + accumulate(790, 10)
        + launch(2, 792, 19, "acc3", 0.5));
}

/*
 * A module shared by two parents: Linear_0 is called from Block_0 and from Block_1.
 *   main 1: nn.Module: Net_0 [0, 300]
 *     nn.Module: Block_0 [10, 140] > nn.Module: Linear_0 [20, 120]
 *       > aten::linear [30, 110] N=1 (flow 1) > corr 1 → ka 10
 *     nn.Module: Block_1 [150, 290] > nn.Module: Linear_0 [160, 280]
 *       > aten::linear [170, 270] N=2 (flow 2) > corr 2 → kb 20
 *   autograd 2: AddmmBackward0 [500, 550] N=2 > corr 3 → bb 40;
 *               AddmmBackward0 [560, 600] N=1 > corr 4 → ba 30
 */
std::string sharedTrace()
{
    return trace(mod("Net_0", 0, 300) + mod("Block_0", 10, 130) + mod("Linear_0", 20, 100)
        + op("aten::linear", 30, 80, 1, 1) + launch(1, 40, 1, "ka", 10) + mod("Block_1", 150, 140)
        + mod("Linear_0", 160, 120) + op("aten::linear", 170, 100, 2, 2)
        + launch(1, 180, 2, "kb", 20) + backward("AddmmBackward0", 500, 50, 2, 2)
        + launch(2, 510, 3, "bb", 40) + backward("AddmmBackward0", 560, 40, 1, 1)
        + launch(2, 570, 4, "ba", 30));
}

/*
 * No modules; the same model once with record_function scopes, once without.
 *   main 1: ProfilerStep#1 [0, 1000]
 *     [## forward ## [10, 300]]
 *       [encoder [20, 150]] aten::linear [30, 140] N=1 (flow 1) > corr 1 → k1 5
 *       [decoder [160, 290]] aten::linear [170, 280] N=2 (flow 2) > corr 2 → k2 7
 *     Optimizer.step#SGD.step [400, 450] > aten::add_ [405, 445] > corr 3 → k3 1
 *   autograd 2: AddmmBackward0 [500, 550] N=2 > corr 4 → b2 3;
 *               AddmmBackward0 [560, 600] N=1 > corr 5 → b1 2
 */
std::string scopesTrace(bool annotated)
{
    auto scope = [&](const char *name, double ts, double dur) {
        return annotated ? ann(name, ts, dur) : std::string();
    };
    return trace(ann("ProfilerStep#1", 0, 1000) + scope("## forward ##", 10, 290)
        + scope("encoder", 20, 130) + op("aten::linear", 30, 110, 1, 1) + launch(1, 40, 1, "k1", 5)
        + scope("decoder", 160, 130) + op("aten::linear", 170, 110, 2, 2)
        + launch(1, 180, 2, "k2", 7) + ann("Optimizer.step#SGD.step", 400, 50)
        + op("aten::add_", 405, 40) + launch(1, 410, 3, "k3", 1)
        + backward("AddmmBackward0", 500, 50, 2, 2) + launch(2, 510, 4, "b2", 3)
        + backward("AddmmBackward0", 560, 40, 1, 1) + launch(2, 570, 5, "b1", 2));
}

/*
 * Activation checkpointing (reentrant): the module's forward re-runs inside the backward node.
 *   main 1: nn.Module: Net_0 [0, 200] > nn.Module: Block_0 [10, 190]
 *     > CheckpointFunction [20, 180] N=1 (flow 1) > aten::linear [30, 170] (no_grad, no number)
 *       > corr 1 → fk 4
 *   autograd 2: CheckpointFunctionBackward [500, 700] N=1 (flow 1)
 *     > nn.Module: Linear_0 [510, 600] (a re-run: not a call)
 *       > aten::linear [520, 590] N=7 forward op on thread 2 (flow 2) > corr 2 → rk 3
 *     > AddmmBackward0 [610, 690] N=7 Fwd thread id 2 (flow 2) > corr 3 → bk 6
 */
std::string checkpointTrace()
{
    return trace(mod("Net_0", 0, 200) + mod("Block_0", 10, 180)
        + op("CheckpointFunction", 20, 160, 1, 1) + op("aten::linear", 30, 140)
        + launch(1, 40, 1, "fk", 4) + backward("CheckpointFunctionBackward", 500, 200, 1, 1)
        + mod("Linear_0", 510, 90, 2) + op("aten::linear", 520, 70, 7, 2, 2)
        + launch(2, 530, 2, "rk", 3) + backward("AddmmBackward0", 610, 80, 7, 2, 2, 2)
        + launch(2, 620, 3, "bk", 6));
}

/*
 * Steps: Linear_0 called once in each of ProfilerStep#1 [0, 1000] and #2 [1000, 2000], and
 * once after them.
 *   #1: nn.Module: Linear_0 [10, 110] > aten::linear [20, 100] N=1 (flow 1) > launch 30 corr 1
 *       → f1 10, running at 1005 (in step 2's time: steps go by the launch, so step 1)
 *       AddmmBackward0 [500, 600] N=1 > corr 2 → b1 20
 *   #2: nn.Module: Linear_0 [1010, 1060] > aten::linear [1020, 1050] N=2 (flow 2)
 *         > corr 3 → f2 12
 *       AddmmBackward0 [1500, 1600] N=2 > corr 4 → b2 24
 *   after: nn.Module: Linear_0 [2100, 2150] (no GPU work)
 */
std::string stepsTrace()
{
    return trace(ann("ProfilerStep#1", 0, 1000) + ann("ProfilerStep#2", 1000, 1000)
        + mod("Linear_0", 10, 100) + op("aten::linear", 20, 80, 1, 1)
        + launch(1, 30, 1, "f1", 10, 1005) + backward("AddmmBackward0", 500, 100, 1, 1)
        + launch(2, 510, 2, "b1", 20) + mod("Linear_0", 1010, 50)
        + op("aten::linear", 1020, 30, 2, 2) + launch(1, 1030, 3, "f2", 12)
        + backward("AddmmBackward0", 1500, 100, 2, 2) + launch(2, 1510, 4, "b2", 24)
        + mod("Linear_0", 2100, 50));
}

//! Runs the Python reference on \a path; its JSON object (empty when it failed).
QJsonObject moduleReference(const QString &path)
{
    return test::referenceJson(QStringLiteral("module_reference.py"), path);
}

//! Every module path of \a tree (whole trace, and per step) equals the reference's.
void compareWithReference(const ModuleTree &tree, const QJsonObject &ref)
{
    QCOMPARE(ref.value(QStringLiteral("source")).toString(), QStringLiteral("modules"));
    QCOMPARE(tree.source(), ModuleTree::Source::Modules);
    const QJsonObject modules = ref.value(QStringLiteral("modules")).toObject();
    QCOMPARE(qsizetype(tree.nodes().size() - 1), modules.size());
    for (ModuleId id = 1; id < tree.nodes().size(); ++id) {
        const ModuleNode &node = tree.node(id);
        const QString path = qs(node.path);
        QVERIFY2(modules.contains(path), qPrintable(path));
        const QJsonObject r = modules.value(path).toObject();
        const ModuleTimes &t = node.times;
        auto same = [&](const char *key, int64_t ours) {
            const int64_t theirs = r.value(QString::fromLatin1(key)).toInteger(-1);
            if (ours != theirs)
                QFAIL(qPrintable(QStringLiteral("%1 %2: ours %3, reference %4")
                                     .arg(path, QString::fromLatin1(key))
                                     .arg(ours)
                                     .arg(theirs)));
        };
        same("calls", t.calls);
        same("cpu_ns", t.cpuTotal);
        same("fwd_gpu_ns", t.forwardTotal.time);
        same("fwd_gpu_events", t.forwardTotal.count);
        same("fwd_gpu_self_ns", t.forwardSelf.time);
        same("bwd_gpu_ns", t.backwardTotal.time);
        same("bwd_gpu_events", t.backwardTotal.count);
        same("bwd_gpu_self_ns", t.backwardSelf.time);
        same("bwd_other_gpu_ns", t.backwardOtherTotal.time);
        same("bwd_other_gpu_self_ns", t.backwardOtherSelf.time);
        const QJsonObject steps = r.value(QStringLiteral("steps")).toObject();
        QCOMPARE(steps.size(), qsizetype(tree.steps().size()));
        for (size_t si = 0; si < tree.steps().size(); ++si) {
            const QJsonObject rs = steps.value(QString::number(tree.steps()[si].number)).toObject();
            const ModuleTimes &ts = tree.times(id, int(si));
            QCOMPARE(int64_t(ts.calls), rs.value(QStringLiteral("calls")).toInteger());
            QCOMPARE(ts.forwardTotal.time, rs.value(QStringLiteral("fwd_gpu_ns")).toInteger());
            QCOMPARE(ts.backwardTotal.time, rs.value(QStringLiteral("bwd_gpu_ns")).toInteger());
            QCOMPARE(ts.backwardOtherTotal.time,
                rs.value(QStringLiteral("bwd_other_gpu_ns")).toInteger());
        }
    }
    const QJsonObject root = ref.value(QStringLiteral("root")).toObject();
    const ModuleTimes &r0 = tree.node(0).times;
    QCOMPARE(r0.forwardSelf.time, root.value(QStringLiteral("fwd_gpu_self_ns")).toInteger());
    QCOMPARE(r0.backwardSelf.time, root.value(QStringLiteral("bwd_gpu_self_ns")).toInteger());
    QCOMPARE(
        r0.backwardOtherSelf.time, root.value(QStringLiteral("bwd_other_gpu_self_ns")).toInteger());
    QCOMPARE(r0.otherTotal.time, root.value(QStringLiteral("other_gpu_ns")).toInteger());
}

} // namespace

class TestModuleTree : public QObject {
    Q_OBJECT
private slots:
    void nestedModulesSelfAndTotal()
    {
        const auto loaded = test::link(nestedTrace());
        QVERIFY(loaded);
        const auto tree = ModuleTree::build(*loaded->graph);
        QCOMPARE(tree->source(), ModuleTree::Source::Modules);
        // Pre-order, children by first call; ReLU_0's two calls are one node.
        QCOMPARE(paths(*tree),
            QStringList({QString(), QStringLiteral("Net_0"), QStringLiteral("Net_0/Block_0"),
                QStringLiteral("Net_0/Block_0/Linear_0"), QStringLiteral("Net_0/Block_0/ReLU_0"),
                QStringLiteral("Net_0/Block_0/Linear_1")}));
        const ModuleId net = tree->find("Net_0"), block = tree->find("Net_0/Block_0");
        const ModuleId lin0 = tree->find("Net_0/Block_0/Linear_0");
        const ModuleId relu = tree->find("Net_0/Block_0/ReLU_0");
        const ModuleId lin1 = tree->find("Net_0/Block_0/Linear_1");
        QCOMPARE(tree->find(""), ModuleId(0));
        QCOMPARE(tree->find("Net_0/Nope"), kNoModule);
        QCOMPARE(qs(tree->node(0).name), QStringLiteral("(all)"));
        QCOMPARE(qs(tree->node(relu).name), QStringLiteral("ReLU_0"));
        QCOMPARE(tree->node(relu).depth, 3u);
        QCOMPARE(tree->node(relu).parent, block);
        QCOMPARE(tree->node(block).children, std::vector<ModuleId>({lin0, relu, lin1}));
        QCOMPARE(tree->node(0).subtreeEnd, ModuleId(6));
        QCOMPARE(tree->node(net).subtreeEnd, ModuleId(6));
        QCOMPARE(tree->node(lin0).subtreeEnd, lin0 + 1);

        // Calls and CPU: Net_0 400 µs, self 400 − 300 (Block_0); Block_0 300, self
        // 300 − (100 + 40 + 40 + 70) = 50; ReLU_0 2 calls of 40. The root sums the top level.
        const ModuleTimes &tn = tree->node(net).times, &tb = tree->node(block).times;
        const ModuleTimes &tl0 = tree->node(lin0).times, &tr = tree->node(relu).times;
        const ModuleTimes &tl1 = tree->node(lin1).times, &t0 = tree->node(0).times;
        QCOMPARE(tn.calls, 1u);
        QCOMPARE(tn.cpuTotal, TimeNs(400000));
        QCOMPARE(tn.cpuSelf, TimeNs(100000));
        QCOMPARE(tb.cpuSelf, TimeNs(50000));
        QCOMPARE(tr.calls, 2u);
        QCOMPARE(tr.cpuTotal, TimeNs(80000));
        QCOMPARE(tr.cpuSelf, TimeNs(80000));
        QCOMPARE(t0.calls, 0u);
        QCOMPARE(t0.cpuTotal, TimeNs(400000));

        // Forward: Linear_0 gemm1 10; ReLU_0 relu1 3 + relu2 4 = 7 (2); Linear_1 gemm2 20;
        // Block_0 self 0, total 37 (4); Net_0 self k_add 2 + sum 1.5 = 3.5 (2), total 40.5 (6);
        // root self mse 0.5 (aten::mse_loss owns a node: forward), total 41 (7).
        QCOMPARE(gpu(tl0.forwardSelf), QStringLiteral("1/10000"));
        QCOMPARE(gpu(tr.forwardSelf), QStringLiteral("2/7000"));
        QCOMPARE(gpu(tl1.forwardTotal), QStringLiteral("1/20000"));
        QCOMPARE(gpu(tb.forwardSelf), QStringLiteral("0/0"));
        QCOMPARE(gpu(tb.forwardTotal), QStringLiteral("4/37000"));
        QCOMPARE(gpu(tn.forwardSelf), QStringLiteral("2/3500"));
        QCOMPARE(gpu(tn.forwardTotal), QStringLiteral("6/40500"));
        QCOMPARE(gpu(t0.forwardSelf), QStringLiteral("1/500"));
        QCOMPARE(gpu(t0.forwardTotal), QStringLiteral("7/41000"));

        // Backward, charged to the creator's module: Linear_1 dgrad2 15 + wgrad2 5 = 20 (2);
        // ReLU_0 relu_bwd2 3.5 + relu_bwd1 2.5 = 6 (2); Linear_0 dgrad1 8; Block_0 total 34 (5);
        // Net_0 self sum_bwd 1 (AddBackward0 has no GPU work), total 35 (6); root self
        // mse_bwd 0.25, total 35.25 (7).
        QCOMPARE(gpu(tl1.backwardSelf), QStringLiteral("2/20000"));
        QCOMPARE(gpu(tr.backwardSelf), QStringLiteral("2/6000"));
        QCOMPARE(gpu(tl0.backwardSelf), QStringLiteral("1/8000"));
        QCOMPARE(gpu(tb.backwardSelf), QStringLiteral("0/0"));
        QCOMPARE(gpu(tb.backwardTotal), QStringLiteral("5/34000"));
        QCOMPARE(gpu(tn.backwardSelf), QStringLiteral("1/1000"));
        QCOMPARE(gpu(tn.backwardTotal), QStringLiteral("6/35000"));
        QCOMPARE(gpu(t0.backwardSelf), QStringLiteral("1/250"));
        QCOMPARE(gpu(t0.backwardTotal), QStringLiteral("7/35250"));

        // Backward other (AccumulateGrad after a node): Linear_1 acc2 2; Linear_0 acc1w 1 +
        // acc1b 0.75 (chained) = 1.75; Net_0 self acc3 0.5 (the sync call in between skipped);
        // root self acc0 0.125 (first on the thread) + the all-reduce 30 = 30.125.
        QCOMPARE(gpu(tl1.backwardOtherSelf), QStringLiteral("1/2000"));
        QCOMPARE(gpu(tl0.backwardOtherSelf), QStringLiteral("2/1750"));
        QCOMPARE(gpu(tr.backwardOtherSelf), QStringLiteral("0/0"));
        QCOMPARE(gpu(tb.backwardOtherTotal), QStringLiteral("3/3750"));
        QCOMPARE(gpu(tn.backwardOtherSelf), QStringLiteral("1/500"));
        QCOMPARE(gpu(tn.backwardOtherTotal), QStringLiteral("4/4250"));
        QCOMPARE(gpu(t0.backwardOtherSelf), QStringLiteral("2/30125"));
        QCOMPARE(gpu(t0.backwardOtherTotal), QStringLiteral("6/34375"));
        // The optimizer's kernel is no module's: root "other" only. Every GPU event once:
        // 41 + 35.25 + 34.375 + 6 = 116.625 µs over 7 + 7 + 6 + 1 = 21 events.
        QCOMPARE(gpu(t0.otherTotal), QStringLiteral("1/6000"));
        QCOMPARE(gpu(tl0.otherTotal), QStringLiteral("0/0"));
        const GpuTotals all = [&] {
            GpuTotals sum;
            for (SliceId g : loaded->graph->gpuEvents())
                sum += GpuTotals {1, loaded->model->slices.dur[g]};
            return sum;
        }();
        QCOMPARE(gpu(all), QStringLiteral("21/116625"));

        // One step holding everything: the step's times equal the whole trace's.
        QCOMPARE(tree->steps().size(), size_t(1));
        QCOMPARE(gpu(tree->times(net, 0).backwardTotal), gpu(tn.backwardTotal));
        QCOMPARE(tree->times(relu, 0).calls, 2u);
    }

    void slicesOfAModuleForHighlighting()
    {
        const auto loaded = test::link(nestedTrace());
        QVERIFY(loaded);
        const TraceModel &m = *loaded->model;
        const OpGraph &g = *loaded->graph;
        const auto tree = ModuleTree::build(g);
        const ModuleId block = tree->find("Net_0/Block_0");
        const ModuleId lin0 = tree->find("Net_0/Block_0/Linear_0");
        const ModuleId relu = tree->find("Net_0/Block_0/ReLU_0");
        const ModuleId lin1 = tree->find("Net_0/Block_0/Linear_1");

        QCOMPARE(names(m, tree->forwardSlices(relu)),
            QStringList({QStringLiteral("nn.Module: ReLU_0@160"),
                QStringLiteral("nn.Module: ReLU_0@210")}));
        QCOMPARE(tree->forwardSlices(block).size(), size_t(1));
        QCOMPARE(tree->forwardSlices(block, true).size(), size_t(5));
        QCOMPARE(tree->forwardSlices(0, true).size(), size_t(6));
        // ReLU_0's backward is scattered: both ReluBackward0 nodes, in time order.
        auto nodeNames = [&](std::span<const uint32_t> nodes) {
            std::vector<SliceId> s;
            for (uint32_t n : nodes)
                s.push_back(g.nodes()[n].node);
            return names(m, s);
        };
        QCOMPARE(nodeNames(tree->backwardNodes(relu)),
            QStringList(
                {QStringLiteral("ReluBackward0@621"), QStringLiteral("ReluBackward0@646")}));
        QCOMPARE(nodeNames(tree->backwardNodes(block, true)),
            QStringList({QStringLiteral("AddmmBackward0@671"), QStringLiteral("ReluBackward0@621"),
                QStringLiteral("ReluBackward0@646"), QStringLiteral("AddmmBackward0@546")}));
        QCOMPARE(nodeNames(tree->backwardNodes(0)),
            QStringList({QStringLiteral("MseLossBackward0@501")}));
        const QString acc = QStringLiteral(
            "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad@%1");
        QCOMPARE(
            names(m, tree->backwardOtherSlices(lin0)), QStringList({acc.arg(725), acc.arg(740)}));
        QCOMPARE(names(m, tree->backwardOtherSlices(lin1)), QStringList({acc.arg(605)}));
        QCOMPARE(names(m, tree->backwardOtherSlices(0)), QStringList({acc.arg(480)}));
        QCOMPARE(tree->backwardOtherSlices(0, true).size(), size_t(5));

        // Highlight: the module slice, the node's wrapper and the AccumulateGrad wrappers.
        const std::vector<SliceId> lit = tree->highlightSlices(lin0);
        QCOMPARE(lit.size(), size_t(4));
        QVERIFY(std::is_sorted(lit.begin(), lit.end()));
        const SliceId wrapper = named(m, "autograd::engine::evaluate_function: AddmmBackward0", 1);
        QCOMPARE(m.slices.start[wrapper], TimeNs(670000));
        QVERIFY(std::find(lit.begin(), lit.end(), wrapper) != lit.end());

        // Slice → node and role, for clicks in the timeline.
        auto kernel = [&](std::string_view name) {
            for (SliceId s : g.gpuEvents()) {
                if (m.sliceName(s) == name)
                    return s;
            }
            return kNoSlice;
        };
        using Role = ModuleTree::Role;
        QCOMPARE(tree->nodeOf(kernel("gemm1")), lin0);
        QCOMPARE(tree->roleOf(kernel("gemm1")), Role::Forward);
        QCOMPARE(tree->nodeOf(kernel("dgrad1")), lin0);
        QCOMPARE(tree->roleOf(kernel("dgrad1")), Role::Backward);
        QCOMPARE(tree->nodeOf(kernel("acc1b")), lin0);
        QCOMPARE(tree->roleOf(kernel("acc1b")), Role::BackwardOther);
        QCOMPARE(tree->nodeOf(kernel("ncclDevKernel_AllReduce")), ModuleId(0));
        QCOMPARE(tree->roleOf(kernel("ncclDevKernel_AllReduce")), Role::BackwardOther);
        QCOMPARE(tree->nodeOf(kernel("mse")), ModuleId(0));
        QCOMPARE(tree->roleOf(kernel("mse")), Role::Forward);
        QCOMPARE(tree->nodeOf(kernel("opt")), kNoModule);
        QCOMPARE(tree->roleOf(kernel("opt")), Role::None);
        QCOMPARE(tree->nodeOf(named(m, "aten::relu", 1)), relu);
        QCOMPARE(tree->nodeOf(named(m, "nn.Module: Block_0")), block);
        QCOMPARE(tree->nodeOf(wrapper), lin0);
        QCOMPARE(tree->roleOf(named(m, "AddmmBackward0", 0)), Role::Backward);
        QCOMPARE(tree->nodeOf(named(m, "AddmmBackward0", 0)), lin1);
        QCOMPARE(tree->nodeOf(named(m, "ProfilerStep#1")), kNoModule);
    }

    void sharedModuleAppearsUnderEachParent()
    {
        const auto loaded = test::link(sharedTrace());
        QVERIFY(loaded);
        const auto tree = ModuleTree::build(*loaded->graph);
        // Aggregation is by path: the shared Linear_0 is one node under each parent.
        QCOMPARE(paths(*tree),
            QStringList({QString(), QStringLiteral("Net_0"), QStringLiteral("Net_0/Block_0"),
                QStringLiteral("Net_0/Block_0/Linear_0"), QStringLiteral("Net_0/Block_1"),
                QStringLiteral("Net_0/Block_1/Linear_0")}));
        const ModuleTimes &a = tree->node(tree->find("Net_0/Block_0/Linear_0")).times;
        const ModuleTimes &b = tree->node(tree->find("Net_0/Block_1/Linear_0")).times;
        // Block_0's call: ka 10 forward, ba 30 backward; Block_1's: kb 20, bb 40.
        QCOMPARE(a.calls, 1u);
        QCOMPARE(gpu(a.forwardSelf), QStringLiteral("1/10000"));
        QCOMPARE(gpu(a.backwardSelf), QStringLiteral("1/30000"));
        QCOMPARE(b.calls, 1u);
        QCOMPARE(gpu(b.forwardSelf), QStringLiteral("1/20000"));
        QCOMPARE(gpu(b.backwardSelf), QStringLiteral("1/40000"));
        const ModuleTimes &net = tree->node(tree->find("Net_0")).times;
        QCOMPARE(gpu(net.forwardTotal), QStringLiteral("2/30000"));
        QCOMPARE(gpu(net.backwardTotal), QStringLiteral("2/70000"));
        QCOMPARE(gpu(net.forwardSelf), QStringLiteral("0/0"));
    }

    void annotationsWhenNoModules()
    {
        const auto loaded = test::link(scopesTrace(true));
        QVERIFY(loaded);
        QCOMPARE(ModuleTree::detectSource(*loaded->graph), ModuleTree::Source::Annotations);
        const auto tree = ModuleTree::build(*loaded->graph);
        QCOMPARE(tree->source(), ModuleTree::Source::Annotations);
        QCOMPARE(qs(ModuleTree::sourceName(tree->source())), QStringLiteral("annotations"));
        QVERIFY(!ModuleTree::sourceDescription(tree->source()).empty());
        // ProfilerStep#1 is the step, not a scope; Optimizer.step is a scope once annotations
        // are used (it is just not enough to choose them).
        QCOMPARE(paths(*tree),
            QStringList({QString(), QStringLiteral("## forward ##"),
                QStringLiteral("## forward ##/encoder"), QStringLiteral("## forward ##/decoder"),
                QStringLiteral("Optimizer.step#SGD.step")}));
        // encoder: k1 5 forward, b1 2 backward; decoder: k2 7, b2 3; ## forward ##: 12 and 5.
        const ModuleTimes &enc = tree->node(tree->find("## forward ##/encoder")).times;
        const ModuleTimes &dec = tree->node(tree->find("## forward ##/decoder")).times;
        const ModuleTimes &fwd = tree->node(tree->find("## forward ##")).times;
        const ModuleTimes &opt = tree->node(tree->find("Optimizer.step#SGD.step")).times;
        QCOMPARE(gpu(enc.forwardSelf), QStringLiteral("1/5000"));
        QCOMPARE(gpu(enc.backwardSelf), QStringLiteral("1/2000"));
        QCOMPARE(gpu(dec.forwardSelf), QStringLiteral("1/7000"));
        QCOMPARE(gpu(dec.backwardSelf), QStringLiteral("1/3000"));
        QCOMPARE(gpu(fwd.forwardTotal), QStringLiteral("2/12000"));
        QCOMPARE(gpu(fwd.backwardTotal), QStringLiteral("2/5000"));
        QCOMPARE(fwd.cpuTotal, TimeNs(290000));
        QCOMPARE(fwd.cpuSelf, TimeNs(30000)); // 290 − 130 − 130
        // The optimizer's kernel (k3 1) is neither forward nor backward (gpuSideOf: "other", as
        // the charts and --export-kernels say): the scope's "other", never its forward.
        QCOMPARE(gpu(opt.forwardSelf), QStringLiteral("0/0"));
        QCOMPARE(gpu(opt.otherSelf), QStringLiteral("1/1000"));
        QCOMPARE(gpu(tree->node(0).times.otherSelf), QStringLiteral("0/0"));
        QCOMPARE(gpu(tree->node(0).times.otherTotal), QStringLiteral("1/1000"));
    }

    // A GPU event no launch explains (no correlation) belongs to no step: the root's "other"
    // over the whole trace, and no step's. (It once read the start of kNoSlice.)
    void gpuEventWithoutLaunchCountsOnceOverTheWholeTrace()
    {
        const std::string orphan = R"({"ph":"X","cat":"kernel","name":"orphan","pid":0,"tid":7,)"
                                   R"("ts":500,"dur":4,"args":{"device":0,"stream":7}},)";
        std::string text = scopesTrace(true);
        text.insert(text.find(R"({"ph")"), orphan); // the first event
        const auto loaded = test::link(text);
        QVERIFY(loaded);
        const auto tree = ModuleTree::build(*loaded->graph);
        // k3 (the optimizer's, 1 µs) and the orphan (4 µs): 5 µs of "other" in all.
        QCOMPARE(gpu(tree->node(0).times.otherTotal), QStringLiteral("2/5000"));
        QCOMPARE(gpu(tree->node(0).times.otherSelf), QStringLiteral("1/4000"));
        QCOMPARE(tree->steps().size(), size_t(1));
        QCOMPARE(gpu(tree->times(0, 0).otherTotal), QStringLiteral("1/1000"));
    }

    void opNamesWhenNoScopes()
    {
        const auto loaded = test::link(scopesTrace(false));
        QVERIFY(loaded);
        // Only PyTorch's own annotations (ProfilerStep, Optimizer.step): ops by name.
        QCOMPARE(ModuleTree::detectSource(*loaded->graph), ModuleTree::Source::OpNames);
        const auto tree = ModuleTree::build(*loaded->graph);
        QCOMPARE(tree->source(), ModuleTree::Source::OpNames);
        QCOMPARE(paths(*tree),
            QStringList({QString(), QStringLiteral("aten::linear"), QStringLiteral("aten::add_")}));
        const ModuleTimes &lin = tree->node(1).times;
        QCOMPARE(tree->node(1).depth, 1u);
        QCOMPARE(lin.calls, 2u);
        QCOMPARE(lin.cpuTotal, TimeNs(220000));
        QCOMPARE(gpu(lin.forwardSelf), QStringLiteral("2/12000"));
        QCOMPARE(gpu(lin.backwardSelf), QStringLiteral("2/5000"));
        // aten::add_ (the optimizer's) owns no backward node and is in no module: "other".
        QCOMPARE(gpu(tree->node(2).times.forwardSelf), QStringLiteral("0/0"));
        QCOMPARE(gpu(tree->node(2).times.otherSelf), QStringLiteral("1/1000"));
        QCOMPARE(tree->backwardNodes(1).size(), size_t(2));

        // A forced source: the module trace by op names is flat too.
        const auto nested = test::link(nestedTrace());
        QVERIFY(nested);
        const auto flat = ModuleTree::build(*nested->graph, ModuleTree::Source::OpNames);
        QCOMPARE(flat->source(), ModuleTree::Source::OpNames);
        for (ModuleId id = 1; id < flat->nodes().size(); ++id)
            QCOMPARE(flat->node(id).depth, 1u);
        const ModuleTimes &relu = flat->node(flat->find("aten::relu")).times;
        QCOMPARE(relu.calls, 2u);
        QCOMPARE(gpu(relu.backwardSelf), QStringLiteral("2/6000"));
        // Every outermost op is a node, the optimizer's aten::add_ too; its opt 6 is still the
        // optimizer's ("other" in every view), not forward work: 41 µs over 7 events forward.
        QCOMPARE(
            gpu(flat->node(flat->find("aten::add_")).times.otherSelf), QStringLiteral("1/6000"));
        QCOMPARE(gpu(flat->node(0).times.forwardTotal), QStringLiteral("7/41000"));
        QCOMPARE(gpu(flat->node(0).times.otherTotal), QStringLiteral("1/6000"));
    }

    void checkpointRecomputeIsBackwardOfTheModule()
    {
        const auto loaded = test::link(checkpointTrace());
        QVERIFY(loaded);
        const OpGraph &g = *loaded->graph;
        QCOMPARE(g.stats().pairs(), uint64_t(2));
        const auto tree = ModuleTree::build(g);
        // The Linear_0 slice re-run inside the backward node is no call: no node for it.
        QCOMPARE(paths(*tree),
            QStringList({QString(), QStringLiteral("Net_0"), QStringLiteral("Net_0/Block_0")}));
        const ModuleTimes &block = tree->node(2).times;
        // Forward fk 4; backward: bk 6 (AddmmBackward0, created by the re-run op inside
        // CheckpointFunctionBackward). rk 3 is the re-run itself (docs/recompute.md): recompute.
        // It repeats no forward op of the same key (the forward recorded no Linear_0 around its
        // aten::linear) and no module is named Linear_0, so it is charged to the root.
        QCOMPARE(gpu(block.forwardSelf), QStringLiteral("1/4000"));
        QCOMPARE(gpu(block.backwardSelf), QStringLiteral("1/6000"));
        QCOMPARE(gpu(block.recomputeSelf), QStringLiteral("0/0"));
        QCOMPARE(tree->backwardNodes(2).size(), size_t(2));
        QCOMPARE(gpu(tree->node(0).times.backwardSelf), QStringLiteral("0/0"));
        QCOMPARE(gpu(tree->node(0).times.recomputeSelf), QStringLiteral("1/3000"));
        QCOMPARE(g.diagnostics().count("recompute_without_original"), uint64_t(1));
    }

    void perStepTimesAndTable()
    {
        const auto loaded = test::link(stepsTrace());
        QVERIFY(loaded);
        const auto tree = ModuleTree::build(*loaded->graph);
        QCOMPARE(tree->steps().size(), size_t(2));
        QCOMPARE(tree->stepIndex(2), 1);
        QCOMPARE(tree->stepIndex(3), -1);
        const ModuleId lin = tree->find("Linear_0");
        QCOMPARE(lin, ModuleId(1));
        // Step 1: the call [10, 110] (100 µs), f1 10 (launched in step 1, ran in step 2's
        // time), b1 20. Step 2: call 50 µs, f2 12, b2 24. Whole trace: 3 calls (one after
        // the steps), 200 µs, 22 and 44.
        const ModuleTimes &s1 = tree->times(lin, 0), &s2 = tree->times(lin, 1);
        const ModuleTimes &all = tree->times(lin);
        QCOMPARE(s1.calls, 1u);
        QCOMPARE(s1.cpuTotal, TimeNs(100000));
        QCOMPARE(gpu(s1.forwardTotal), QStringLiteral("1/10000"));
        QCOMPARE(gpu(s1.backwardTotal), QStringLiteral("1/20000"));
        QCOMPARE(s2.calls, 1u);
        QCOMPARE(s2.cpuTotal, TimeNs(50000));
        QCOMPARE(gpu(s2.forwardTotal), QStringLiteral("1/12000"));
        QCOMPARE(gpu(s2.backwardTotal), QStringLiteral("1/24000"));
        QCOMPARE(all.calls, 3u);
        QCOMPARE(all.cpuTotal, TimeNs(200000));
        QCOMPARE(gpu(all.forwardTotal), QStringLiteral("2/22000"));
        QCOMPARE(gpu(all.backwardTotal), QStringLiteral("2/44000"));
        QCOMPARE(gpu(tree->times(0, 1).backwardTotal), QStringLiteral("1/24000"));
        QCOMPARE(tree->times(0, 1).cpuTotal, TimeNs(50000));

        const QString header = QStringLiteral(
            "module,name,depth,step,calls,fwd_cpu_us,fwd_cpu_self_us,fwd_gpu_us,fwd_gpu_self_us,"
            "fwd_gpu_events,bwd_gpu_us,bwd_gpu_self_us,bwd_gpu_events,bwd_other_gpu_us,"
            "bwd_other_gpu_self_us,other_gpu_us,recompute_gpu_us,recompute_gpu_self_us,"
            "recompute_gpu_events,fwd_alloc_bytes,held_bytes,bwd_alloc_bytes,fwd_tflops,"
            "bwd_tflops");
        // No [memory] events, no shapes: the memory columns (tests/core/tst_memory) and the rate
        // ones (tests/core/tst_opefficiency) are empty.
        auto lines = [](const Table &t) {
            return QString::fromStdString(tableToCsv(t))
                .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        };
        // Whole trace: one row per module, step empty.
        const ModuleTable whole(*tree);
        QCOMPARE(lines(whole),
            QStringList({header,
                QStringLiteral("(all),(all),0,,0,200.000,0.000,22.000,0.000,2,44.000,0.000,2,"
                               "0.000,0.000,0.000,0.000,0.000,0,,,,,"),
                QStringLiteral("Linear_0,Linear_0,1,,3,200.000,200.000,22.000,22.000,2,44.000,"
                               "44.000,2,0.000,0.000,0.000,0.000,0.000,0,,,,,")}));
        // Each step: the whole tree per step, step-major.
        const ModuleTable each(*tree, ModuleTable::Rows::EachStep);
        QCOMPARE(each.rowCount(), size_t(4));
        QCOMPARE(QString::fromStdString(each.text(0, ModuleTable::Step)), QStringLiteral("1"));
        QCOMPARE(QString::fromStdString(each.text(3, ModuleTable::Step)), QStringLiteral("2"));
        QCOMPARE(lines(each)[4],
            QStringLiteral("Linear_0,Linear_0,1,2,1,50.000,50.000,12.000,12.000,1,24.000,24.000,1,"
                           "0.000,0.000,0.000,0.000,0.000,0,,,,,"));
        QCOMPARE(each.rowNode(3), lin);
        QCOMPARE(each.rowStepIndex(3), 1);
        // One step (the UI's selector), and a step the trace lacks.
        const ModuleTable two(*tree, int64_t(2));
        QCOMPARE(two.rowCount(), size_t(2));
        QCOMPARE(two.number(1, ModuleTable::BwdGpuUs), 24000.0);
        QCOMPARE(two.number(1, ModuleTable::Step), 2.0);
        QVERIFY(std::isnan(whole.number(1, ModuleTable::Step)));
        QVERIFY(whole.isNumeric(ModuleTable::Calls));
        QVERIFY(!whole.isNumeric(ModuleTable::Module));
        std::string_view view;
        QVERIFY(whole.textView(0, ModuleTable::Module, view));
        QCOMPARE(qs(view), QStringLiteral("(all)"));
        QCOMPARE(ModuleTable(*tree, int64_t(7)).rowCount(), size_t(0));

        // Exports go through exportTable: JSON for ".json", numbers as numbers, null steps.
        const QString json = test::tempDir() + QStringLiteral("/modules.json");
        std::string error;
        QVERIFY2(exportTable(whole, json.toStdString(), error), error.c_str());
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray rows = QJsonDocument::fromJson(f.readAll()).array();
        QCOMPARE(rows.size(), qsizetype(2));
        const QJsonObject row = rows[1].toObject();
        QCOMPARE(row.value(QStringLiteral("module")).toString(), QStringLiteral("Linear_0"));
        QVERIFY(row.value(QStringLiteral("step")).isNull());
        QCOMPARE(row.value(QStringLiteral("calls")).toInt(), 3);
        QCOMPARE(row.value(QStringLiteral("bwd_gpu_us")).toDouble(), 44.0);
        const QString csv = test::tempDir() + QStringLiteral("/modules.csv");
        QVERIFY2(exportTable(each, csv.toStdString(), error), error.c_str());
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        QCOMPARE(
            QString::fromUtf8(c.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 5);
    }

    void emptyAndModuleLessTraces()
    {
        // Nothing but a step: a lone root, empty lists, zero times.
        const auto empty = test::link(trace(ann("ProfilerStep#1", 0, 100)));
        QVERIFY(empty);
        const auto tree = ModuleTree::build(*empty->graph);
        QCOMPARE(tree->source(), ModuleTree::Source::OpNames);
        QCOMPARE(tree->nodes().size(), size_t(1));
        QCOMPARE(tree->node(0).subtreeEnd, ModuleId(1));
        QCOMPARE(tree->forwardSlices(0, true).size(), size_t(0));
        QCOMPARE(tree->times(0).calls, 0u);
        QCOMPARE(ModuleTable(*tree).rowCount(), size_t(1));
        QCOMPARE(ModuleTable(*tree, ModuleTable::Rows::EachStep).rowCount(), size_t(1));
        // Forcing modules on a trace without any: only the root, holding everything.
        const auto scopes = test::link(scopesTrace(true));
        QVERIFY(scopes);
        const auto forced = ModuleTree::build(*scopes->graph, ModuleTree::Source::Modules);
        QCOMPARE(forced->nodes().size(), size_t(1));
        QCOMPARE(gpu(forced->node(0).times.forwardSelf), QStringLiteral("2/12000"));
        QCOMPARE(gpu(forced->node(0).times.backwardSelf), QStringLiteral("2/5000"));
        QCOMPARE(gpu(forced->node(0).times.otherTotal), QStringLiteral("1/1000"));
    }

    // ---- Real traces against the independent Python reference.

    void sharedTraceMatchesReference()
    {
        if (test::sharedTracesDir().isEmpty())
            QSKIP("../shared/traces is absent (a user's clone has none)");
        const QString path = test::sharedTracesDir()
            + QStringLiteral("/tl_mi300_ddp_resnet18_no_pool_train_resnet18.json.gz");
        if (!QFileInfo::exists(path))
            QSKIP("the MI300 ResNet-18 trace is absent");
        const OpenResult opened = openTrace(path.toStdString());
        QVERIFY2(opened.trace, opened.error.c_str());
        const auto tree = ModuleTree::build(*opened.trace->graph);
        const QJsonObject ref = moduleReference(path);
        QVERIFY2(!ref.isEmpty(), "the Python reference must run (python3 needed)");
        QCOMPARE(ref.value(QStringLiteral("paired_nodes")).toInt(), 355);
        compareWithReference(*tree, ref);

        // The two modules checked by hand (numbers in ns, from both implementations): the
        // first BasicBlock's second conv, and its ReLU called twice per forward.
        const ModuleTimes &conv
            = tree->node(tree->find("ResNet_0/Sequential_0/BasicBlock_0/Conv2d_1")).times;
        QCOMPARE(conv.calls, 5u);
        QCOMPARE(gpu(conv.forwardTotal), QStringLiteral("25/3844082"));
        QCOMPARE(gpu(conv.backwardTotal), QStringLiteral("60/9189145"));
        const ModuleTimes &relu
            = tree->node(tree->find("ResNet_0/Sequential_0/BasicBlock_0/ReLU_1")).times;
        QCOMPARE(relu.calls, 10u);
        QCOMPARE(gpu(relu.forwardTotal), QStringLiteral("10/1224106"));
        QCOMPARE(gpu(relu.backwardTotal), QStringLiteral("10/1360387"));
        const ModuleTimes &resnet = tree->node(tree->find("ResNet_0")).times;
        QCOMPARE(gpu(resnet.forwardTotal), QStringLiteral("1030/115993454"));
        QCOMPARE(gpu(resnet.backwardTotal), QStringLiteral("1305/242634463"));
    }

    void demoTraceMatchesReference()
    {
        // The generator's demo: nested modules, 3 steps, AccumulateGrad with GPU work.
        if (!QFileInfo::exists(test::gentracePath()))
            QSKIP("kinetoscope-gentrace is not built");
        const QString path = test::tempDir() + QStringLiteral("/modules-demo.json");
        const test::ProcessResult gen = test::run(test::gentracePath(),
            {QStringLiteral("--steps"), QStringLiteral("3"), QStringLiteral("--seed"),
                QStringLiteral("1"), path});
        QCOMPARE(gen.exitCode, 0);
        const OpenResult opened = openTrace(path.toStdString());
        QVERIFY2(opened.trace, opened.error.c_str());
        const auto tree = ModuleTree::build(*opened.trace->graph);
        QCOMPARE(tree->steps().size(), size_t(3));
        const QJsonObject ref = moduleReference(path);
        QVERIFY2(!ref.isEmpty(), "the Python reference must run (python3 needed)");
        compareWithReference(*tree, ref);
        QVERIFY(tree->node(0).times.backwardOtherTotal.count > 0);
    }
};

QTEST_GUILESS_MAIN(TestModuleTree)
#include "tst_moduletree.moc"
