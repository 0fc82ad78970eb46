// SPDX-License-Identifier: MIT
// How far ops are from the hardware (issue #34), per instance and per pair: kernel time, rates
// and roofline against the peak table, worked out by hand below.
#include "analysis/efficiency/efficiencygroups.h"
#include "analysis/efficiency/opefficiency.h"
#include "export/difftable.h"
#include "export/efficiencytable.h"
#include "export/moduletable.h"
#include "export/pairtable.h"
#include "export/runtables.h"
#include "session/comparedtraces.h"
#include "session/run.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace ks;

namespace {

/*
 * An H100 SXM (dense bf16 989.5 TFLOP/s, 3350 GB/s) running, in bf16:
 *   aten::linear [20, 220] N=41 > aten::addmm [40, 190] (fwdbwd 2) [[1024],[1024,1024]²]:
 *     kernel gemm_fwd 10 µs. FLOPs 2·1024³ + 1024² = 2148532224, bytes (3·1024² + 1024)·2 =
 *     6293504: 214.8532224 TFLOP/s; roofline max(2148532224 / 989.5e12, 6293504 / 3350e9)
 *     = 2.171331 µs (compute), 21.71331 % of 10 µs.
 *   AddmmBackward0 (f 2) > aten::mm ×2 [1024,1024]², kernels 8 and 12 µs: 4294967296 FLOPs in
 *     20 µs = 214.7483648 TFLOP/s; roofline 2 · 2147483648 / 989.5e12 = 4.340543 µs, 21.70271 %.
 *   aten::scaled_dot_product_attention [400, 500] N=50 > aten::_scaled_dot_product_flash_attention
 *     (fwdbwd 3) [2,4,128,64]³ causal: kernel flash_fwd 20 µs, 2·2·4·128²·128 / 2 = 16777216
 *     FLOPs, 4·65536·2 = 524288 B.
 *   ScaledDotProductFlashAttentionBackward0 (f 3) > …_flash_attention_backward (no model), kernel
 *     flash_bwd 50 µs: from the forward shapes 2.5 · 33554432 / 2 = 41943040 FLOPs, 7·65536·2 =
 *     917504 B, 0.8388608 TFLOP/s.
 */
std::string traceOn(const std::string &device, double gemmUs = 10)
{
    const std::string bf16x3 = R"("c10::BFloat16","c10::BFloat16","c10::BFloat16")";
    using test::completeEvent;
    std::string e;
    e += completeEvent("cpu_op", "aten::linear", 1, 20, 200,
        R"("Sequence number":41,"Fwd thread id":0,"Input Dims":[[1024,1024],[1024,1024],[1024]])");
    e += completeEvent("cpu_op", "aten::addmm", 1, 40, 150,
        R"("Sequence number":41,"Fwd thread id":0,"Input Dims":[[1024],[1024,1024],[1024,1024],[],[]],)"
        R"("Input type":[)"
            + bf16x3 + "]");
    e += R"({"ph":"s","id":2,"pid":1,"tid":1,"ts":40,"cat":"fwdbwd","name":"fwdbwd"},)";
    e += completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 50, 5, R"("correlation":401)");
    e += completeEvent("cpu_op", "aten::scaled_dot_product_attention", 1, 400, 100,
        R"("Sequence number":50,"Fwd thread id":0)");
    e += completeEvent("cpu_op", "aten::_scaled_dot_product_flash_attention", 1, 405, 90,
        R"("Sequence number":50,"Fwd thread id":0,"Input Dims":[[2,4,128,64],[2,4,128,64],[2,4,128,64],[],[],[],[]],)"
        R"("Input type":[)"
            + bf16x3 + R"(],"Concrete Inputs":["","","","0.","True","False",""])");
    e += R"({"ph":"s","id":3,"pid":1,"tid":1,"ts":405,"cat":"fwdbwd","name":"fwdbwd"},)";
    e += completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 410, 5, R"("correlation":404)");
    e += completeEvent(
        "cpu_op", "AddmmBackward0", 2, 1000, 100, R"("Sequence number":41,"Fwd thread id":1)");
    e += R"({"ph":"f","id":2,"pid":1,"tid":2,"ts":1000,"cat":"fwdbwd","name":"fwdbwd","bp":"e"},)";
    for (int i = 0; i < 2; ++i) {
        e += completeEvent("cpu_op", "aten::mm", 2, 1005 + 50 * i, 40,
            R"("Input Dims":[[1024,1024],[1024,1024]],"Input type":[)" + bf16x3 + "]");
        e += completeEvent("cuda_runtime", "cudaLaunchKernel", 2, 1010 + 50 * i, 5,
            R"("correlation":)" + std::to_string(402 + i));
    }
    e += completeEvent("cpu_op", "ScaledDotProductFlashAttentionBackward0", 2, 1200, 100,
        R"("Sequence number":50,"Fwd thread id":1)");
    e += R"({"ph":"f","id":3,"pid":1,"tid":2,"ts":1200,"cat":"fwdbwd","name":"fwdbwd","bp":"e"},)";
    e += completeEvent("cpu_op", "aten::_scaled_dot_product_flash_attention_backward", 2, 1205, 90,
        R"("Input Dims":[[2,4,128,64]])");
    e += completeEvent("cuda_runtime", "cudaLaunchKernel", 2, 1210, 5, R"("correlation":405)");
    e += completeEvent("kernel", "gemm_fwd", 7, 300, gemmUs, R"("correlation":401,"stream":7)");
    e += completeEvent("kernel", "flash_fwd", 7, 600, 20, R"("correlation":404,"stream":7)");
    e += completeEvent("kernel", "gemm_dgrad", 7, 1100, 8, R"("correlation":402,"stream":7)");
    e += completeEvent("kernel", "gemm_wgrad", 7, 1150, 12, R"("correlation":403,"stream":7)");
    e += completeEvent("kernel", "flash_bwd", 7, 1300, 50, R"("correlation":405,"stream":7)");
    e.pop_back();
    return R"({"schemaVersion":1,"deviceProperties":[{"id":0,"name":")" + device
        + R"(","numSms":132}],"traceEvents":[)" + e + "]}";
}

const OpInstance *instanceOf(
    const OpEfficiency &e, const TraceModel &m, std::string_view name, OpSide side, size_t nth = 0)
{
    for (const OpInstance &in : e.instances()) {
        if (m.sliceName(in.op) == name && in.side == side && nth-- == 0)
            return &in;
    }
    return nullptr;
}

} // namespace

class TestOpEfficiency : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_trace = test::link(traceOn("NVIDIA H100 80GB HBM3"));
        QVERIFY(m_trace);
    }

    void instancesWhereverTheyRun()
    {
        const OpEfficiency &e = m_trace->efficiency();
        const TraceModel &m = *m_trace->model;
        QCOMPARE(e.instances().size(), size_t(5)); // addmm, sdpa, mm ×2, sdpa backward
        const OpInstance *addmm = instanceOf(e, m, "aten::addmm", OpSide::Forward);
        QVERIFY(addmm);
        QCOMPARE(addmm->work.flops, 2148532224.0);
        QCOMPARE(addmm->kernelTime, TimeNs(10'000));
        QCOMPARE(*addmm->rates.tflopsPerS, 214.8532224);
        QVERIFY(addmm->roofline && addmm->roofline->computeBound);
        QVERIFY(qAbs(addmm->roofline->us - 2148532224 / 989.5e12 * 1e6) < 1e-9);
        QVERIFY(qAbs(*addmm->roofline->pct - 21.71331) < 1e-4);
        const OpInstance *mm = instanceOf(e, m, "aten::mm", OpSide::Backward, 1);
        QVERIFY(mm && mm->row == addmm->row);
        QCOMPARE(mm->kernelTime, TimeNs(12'000));
        const OpInstance *sdpaBwd
            = instanceOf(e, m, "aten::_scaled_dot_product_flash_attention", OpSide::Backward);
        QVERIFY(sdpaBwd && sdpaBwd->fromForwardShapes);
        QCOMPARE(sdpaBwd->work.flops, 41943040.0);
        QCOMPARE(*sdpaBwd->work.bytes, 917504.0);
        QCOMPARE(sdpaBwd->kernelTime, TimeNs(50'000));
        QCOMPARE(*sdpaBwd->rates.tflopsPerS, 0.8388608);
    }

    void pairsRollUpBothSides()
    {
        const OpEfficiency &e = m_trace->efficiency();
        const OpInstance *addmm = instanceOf(e, *m_trace->model, "aten::addmm", OpSide::Forward);
        const PairEfficiency &linear = e.pairs()[size_t(addmm->row)];
        QCOMPARE(*linear.forward.tflopsPerS(), 214.8532224);
        QCOMPARE(*linear.backward.tflopsPerS(), 214.7483648);
        QVERIFY(qAbs(*linear.backward.pctRoofline() - 21.70271) < 1e-4);
        // The pair table shows the same numbers, computed once.
        const PairTable &pairs = *m_trace->pairTable();
        const size_t row = size_t(addmm->row);
        QCOMPARE(std::stod(pairs.text(row, PairTable::FwdTflops)), 214.8532224);
        QCOMPARE(pairs.number(row, PairTable::BwdTflops), 214.7483648);
        QCOMPARE(pairs.text(row, PairTable::Bound), std::string("compute"));
    }

    /*
     * Where speed-up is available: kernel time above the roofline, both sides. Attention: 20 +
     * 50 µs against max(16777216 / 989.5e12, 524288 / 3350e9) + max(41943040 / 989.5e12,
     * 917504 / 3350e9) = 0.156504 + 0.273882 µs: 69.569614 µs above; the linear: 10 + 20 µs
     * against 2.171331 + 4.340543: 23.488126 µs.
     */
    void speedupRanksPairsByTimeAboveTheirRoofline()
    {
        const OpEfficiency &e = m_trace->efficiency();
        const std::vector<SpeedupCandidate> top = speedupCandidates(e, 10);
        QCOMPARE(top.size(), size_t(2));
        const std::vector<PairRow> &rows = m_trace->graph->rows();
        QCOMPARE(m_trace->model->sliceName(rows[top[0].row].forward),
            std::string_view("aten::scaled_dot_product_attention"));
        QVERIFY(qAbs(top[0].availableUs - (70 - 524288 / 3350e3 - 917504 / 3350e3)) < 1e-9);
        QVERIFY(qAbs(top[1].availableUs - 23.488126) < 1e-5);
        QCOMPARE(speedupCandidates(e, 1).size(), size_t(1));
    }

    /*
     * The module table's rates (no nn.Module here: the tree is the outermost ops by name; the
     * root "(all)" holds everything): forward 2148532224 + 16777216 FLOPs over 10 + 20 µs of
     * forward GPU time = 72.1769814 TFLOP/s; backward 4294967296 + 41943040 (attention's, from
     * its forward shapes) over 8 + 12 + 50 µs = 61.9558762 TFLOP/s.
     */
    void modulesRollUpTheirOps()
    {
        const ModuleTable table(m_trace->modules(), ModuleTable::Rows::WholeTrace,
            m_trace->pairMemory(), m_trace->efficiency());
        QCOMPARE(table.text(0, ModuleTable::Module), std::string("(all)"));
        QVERIFY(qAbs(table.number(0, ModuleTable::FwdTflops) - 2165309440 / 30e-6 / 1e12) < 1e-9);
        QVERIFY(qAbs(table.number(0, ModuleTable::BwdTflops) - 4336910336 / 70e-6 / 1e12) < 1e-9);
    }

    /*
     * A comparison's rate change per pair: the candidate's forward GEMM kernel takes 5 µs, not
     * 10: 2148532224 FLOPs in 5 µs = 429.7064448 TFLOP/s, twice the base's (rel 1.0000); the
     * backward is unchanged (rel 0).
     */
    void comparisonShowsTheRateChange()
    {
        const auto faster = test::link(traceOn("NVIDIA H100 80GB HBM3", 5));
        QVERIFY(faster);
        std::string error;
        const auto compared = ComparedTraces::make(m_trace, faster, {}, error);
        QVERIFY2(compared, error.c_str());
        const DiffTable table(*compared->diff);
        size_t row = 0;
        while (table.text(row, DiffTable::FwdName) != "aten::linear")
            ++row;
        const size_t fwd = table.metricColumn(DiffMetric::FwdFlops);
        QVERIFY(qAbs(table.number(row, fwd) - 214.8532224) < 1e-9);
        QVERIFY(qAbs(table.number(row, fwd + 1) - 429.7064448) < 1e-9);
        QCOMPARE(table.text(row, fwd + 2), std::string("1.0000"));
        const size_t bwd = table.metricColumn(DiffMetric::BwdFlops);
        QVERIFY(qAbs(table.number(row, bwd) - 214.7483648) < 1e-9);
        QCOMPARE(table.text(row, bwd + 2), std::string("0.0000"));
    }

    /*
     * A run (the faster trace as a second rank, numbered by file order): the pairs across ranks
     * give each rank's rate of the same pair — the linear's forward 214.8532224 on rank 0,
     * 429.7064448 on rank 1.
     */
    void runShowsEachRanksRate()
    {
        const auto faster = test::link(traceOn("NVIDIA H100 80GB HBM3", 5));
        QVERIFY(faster);
        const auto run = assembleRun({m_trace, faster}, {});
        QVERIFY(run);
        const CellTable table = rankPairTable(run->rankNumbers(), run->firstPairRows, run->pairs);
        auto column = [&](std::string_view name) {
            size_t c = 0;
            while (c < table.columnCount() && table.columnName(c) != name)
                ++c;
            return c;
        };
        size_t row = 0;
        while (table.text(row, 0) != "aten::linear")
            ++row;
        QCOMPARE(std::stod(table.text(row, column("fwd_tflops.0"))), 214.8532224);
        QCOMPARE(std::stod(table.text(row, column("fwd_tflops.1"))), 429.7064448);
        QCOMPARE(std::stod(table.text(row, column("bwd_tflops.1"))), 214.7483648);
    }

    void exportRowPerInstance()
    {
        const EfficiencyTable table(*m_trace->graph, m_trace->efficiency());
        QCOMPARE(table.rowCount(), size_t(5));
        size_t sdpa = 0;
        while (table.text(sdpa, EfficiencyTable::Side) != "backward"
            || table.text(sdpa, EfficiencyTable::Model) != "sdpa_bwd")
            ++sdpa;
        QCOMPARE(table.text(sdpa, EfficiencyTable::Name),
            std::string("aten::_scaled_dot_product_flash_attention"));
        QCOMPARE(table.text(sdpa, EfficiencyTable::PairFwdName),
            std::string("aten::scaled_dot_product_attention"));
        QCOMPARE(table.text(sdpa, EfficiencyTable::Flops), std::string("41943040"));
        QCOMPARE(table.text(sdpa, EfficiencyTable::KernelUs), std::string("50"));
        QCOMPARE(table.text(sdpa, EfficiencyTable::Bound), std::string("memory"));
        QCOMPARE(table.text(sdpa, EfficiencyTable::Device), std::string("NVIDIA H100 80GB HBM3"));
    }

    // An unknown GPU: FLOPs, bytes and rates stay, the roofline is empty, until a user file
    // (TraceLens's gpu_arch layout) names it.
    void unknownDeviceAndUserPeaks()
    {
        const auto trace = test::link(traceOn("Mystery GPU 9000"));
        QVERIFY(trace);
        const OpEfficiency unknown(
            *trace->graph, std::make_shared<PeakTable>(PeakTable::shipped()));
        QVERIFY(unknown.devices().size() == 1 && !unknown.devices()[0].peaks);
        const OpInstance *addmm
            = instanceOf(unknown, *trace->model, "aten::addmm", OpSide::Forward);
        QVERIFY(addmm->rates.tflopsPerS && !addmm->roofline);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("peaks.json")).toStdString();
        std::ofstream(path) << R"({"name":"Mystery GPU","mem_bw_gbps":1000,)"
                               R"("max_achievable_tflops":{"matrix_bf16":100}})";
        auto table = std::make_shared<PeakTable>(PeakTable::shipped());
        QCOMPARE(table->addFile(path), std::string());
        const OpEfficiency known(*trace->graph, table);
        addmm = instanceOf(known, *trace->model, "aten::addmm", OpSide::Forward);
        // max(2148532224 / 100e12, 6293504 / 1000e9) = 21.48532224 µs of 10 µs.
        QVERIFY(addmm->roofline && qAbs(*addmm->roofline->pct - 214.8532224) < 1e-6);
        QVERIFY(!table->addFile(dir.filePath(QStringLiteral("none.json")).toStdString()).empty());
    }

    // Names as deviceProperties writes them; MI250X and MI250 share one and differ by numSms.
    void peakTableLookup()
    {
        const PeakTable t = PeakTable::shipped();
        QCOMPARE(t.find("Tesla V100-SXM2-32GB")->memGBps, 900.0);
        QCOMPARE(t.find("NVIDIA A100-SXM4-80GB")->memGBps, 2039.0);
        QCOMPARE(t.find("NVIDIA H100 80GB HBM3")->tflops.at("matrix_bf16"), 989.5);
        QCOMPARE(t.find("AMD Instinct MI250X/MI250", 110)->tflops.at("matrix_bf16"), 191.5);
        QCOMPARE(t.find("AMD Instinct MI250X/MI250", 104)->tflops.at("matrix_bf16"), 181.05);
        QVERIFY(!t.find("NVIDIA H100 NVL"));
        for (const DevicePeaks &d : t.devices())
            QVERIFY2(!d.source.empty() && !d.measured, d.name.c_str());
        QCOMPARE(computeSpecOf(ComputeUnit::Matrix, "c10::BFloat16"), std::string("matrix_bf16"));
        QCOMPARE(computeSpecOf(ComputeUnit::Vector, "c10::Half"), std::string("vector_fp32"));
    }

private:
    std::shared_ptr<const LoadedTrace> m_trace;
};

QTEST_GUILESS_MAIN(TestOpEfficiency)
#include "tst_opefficiency.moc"
