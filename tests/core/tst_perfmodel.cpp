// SPDX-License-Identifier: MIT
// How far ops are from the hardware (issue #34), the models: FLOPs and bytes of each modelled
// op from its recorded shapes, worked out by hand below for the formula of TraceLens's model it
// reproduces (AMD-AGI/TraceLens 171dd747, TraceLens/PerfModel/perf_model.py).
#include "analysis/gemmwork.h"
#include "analysis/oprates.h"
#include "testutil.h"

#include <QTest>

using namespace ks;

class TestPerfModel : public QObject {
    Q_OBJECT
private slots:
    void shapesAndTypesAreRead()
    {
        const OpShapes s = parseOpShapes(
            R"([[32,16],[],[[2,3],[4]],7,[1.5]])", R"(["float","Scalar",null,"c10::BFloat16"])");
        QCOMPARE(s.dims.size(), size_t(5));
        QCOMPARE(*s.dimsOf(0), std::vector<int64_t>({32, 16}));
        QCOMPARE(*s.dimsOf(1), std::vector<int64_t>()); // a 0-d tensor
        QVERIFY(!s.dimsOf(2) && !s.dimsOf(3) && !s.dimsOf(4) && !s.dimsOf(9)); // no shape
        QCOMPARE(s.typeOf(0), std::string_view("float"));
        QCOMPARE(s.typeOf(2), std::string_view(""));
        QCOMPARE(s.typeOf(9), std::string_view(""));
        QVERIFY(parseOpShapes("[[1,2", "").dims.empty()); // cut off: nothing, not a guess
    }

    // name2bpe (TraceLens utils.py l. 61): case-blind; unknown names have no size.
    void bytesPerElementAsTraceLens()
    {
        QCOMPARE(bytesPerElement("double"), std::optional<int>(8));
        QCOMPARE(bytesPerElement("Scalar"), std::optional<int>(4));
        QCOMPARE(bytesPerElement("c10::BFloat16"), std::optional<int>(2));
        QCOMPARE(bytesPerElement("c10::Half"), std::optional<int>(2));
        QCOMPARE(bytesPerElement("c10::Float8_e4m3fn"), std::optional<int>(1));
        QCOMPARE(bytesPerElement("bool"), std::optional<int>());
    }

    /*
     * GEMM (perf_model.py GEMM.flops_func l. 85, bytes_func l. 103):
     *   mm [32,16]×[16,8] float: 2·32·8·16 = 8192 FLOPs; (512 + 128 + 256)·4 = 3584 B
     *   addmm bias [8], [32,16]×[16,8] c10::Half: 8192 + 32·8 = 8448; (512 + 128 + 256 + 8)·2
     *     = 1808 (the bias counted 1×N, at A's size)
     *   bmm [4,32,16]×[4,16,8] c10::BFloat16: 4·8192 = 32768; 4·896·2 = 7168
     *   baddbmm [4,32,8] + [4,32,16]×[4,16,8] float: 4·8448 = 33792; 4·904·4 = 14464
     *   mm of an unknown dtype: FLOPs, no bytes; a 3-d mm or another op: no model
     */
    void gemmFamily()
    {
        auto work = [](std::string_view op, std::string_view dims, std::string_view types) {
            return gemmWork(op, parseOpShapes(dims, types));
        };
        const auto mm = work("aten::mm", "[[32,16],[16,8]]", R"(["float","float"])");
        QVERIFY(mm);
        QCOMPARE(mm->flops, 8192.0);
        QCOMPARE(mm->bytes, std::optional<double>(3584));
        QCOMPARE(mm->dtype, std::string("float"));
        QCOMPARE(mm->model, std::string_view("aten_mm"));
        const auto addmm = work("aten::addmm", "[[8],[32,16],[16,8],[],[]]",
            R"(["c10::Half","c10::Half","c10::Half","Scalar","Scalar"])");
        QVERIFY(addmm);
        QCOMPARE(addmm->flops, 8448.0);
        QCOMPARE(addmm->bytes, std::optional<double>(1808));
        const auto bmm
            = work("aten::bmm", "[[4,32,16],[4,16,8]]", R"(["c10::BFloat16","c10::BFloat16"])");
        QVERIFY(bmm);
        QCOMPARE(bmm->flops, 32768.0);
        QCOMPARE(bmm->bytes, std::optional<double>(7168));
        const auto baddbmm = work("aten::baddbmm", "[[4,32,8],[4,32,16],[4,16,8],[],[]]",
            R"(["float","float","float","Scalar","Scalar"])");
        QVERIFY(baddbmm);
        QCOMPARE(baddbmm->flops, 33792.0);
        QCOMPARE(baddbmm->bytes, std::optional<double>(14464));
        const auto unknown = work("aten::mm", "[[32,16],[16,8]]", R"(["bool","bool"])");
        QVERIFY(unknown && unknown->flops == 8192.0 && !unknown->bytes);
        QVERIFY(!work("aten::mm", "[[2,32,16],[2,16,8]]", "[]"));
        QVERIFY(!work("aten::relu", "[[32,16]]", R"(["float"])"));
    }

    /*
     * TraceLens's published numbers: the first two rows of its perf report of a real H100 trace
     * (AMD-AGI/TraceLens 171dd747, tests/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005_perf_report
     * _csvs/GEMM.csv), from the Input Dims and Input type the CSV lists for them:
     *   aten::mm [[8944,1024],[1024,2816]] bf16: GFLOPS_first 51.581550592, Data Moved (MB)_first
     *     71.0078125
     *   aten::addmm [[1024],[8944,1024],[1024,1024],[],[]] bf16: 18.766086144, 36.939453125
     */
    void gemmEqualsTraceLensReport()
    {
        const auto mm = gemmWork("aten::mm",
            parseOpShapes("[[8944,1024],[1024,2816]]", R"(["c10::BFloat16","c10::BFloat16"])"));
        QVERIFY(mm);
        QCOMPARE(ratesOf(*mm, 0).gflops, 51.581550592);
        QCOMPARE(*ratesOf(*mm, 0).dataMovedMiB, 71.0078125);
        const auto addmm = gemmWork("aten::addmm",
            parseOpShapes("[[1024],[8944,1024],[1024,1024],[],[]]",
                R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar"])"));
        QVERIFY(addmm);
        QCOMPARE(ratesOf(*addmm, 0).gflops, 18.766086144);
        QCOMPARE(*ratesOf(*addmm, 0).dataMovedMiB, 36.939453125);
    }

    /*
     * Kernel time and rates as TraceLens's tree_perf.py computes them: aten::mm (the float
     * 32×16·16×8 above: 8192 FLOPs, 3584 B) launches k1 [100, 110) on stream 7, k2 [105, 120)
     * on stream 8 and a memset [130, 132) µs: the union is 20 + 2 = 22 µs. So 8192 / 22 µs =
     * 3.7236e-4 TFLOP/s, 3584 / 2^20 = 0.00341796875 "MB", 8192 / 3584 = 2.2857 FLOP/B, 3584 /
     * 22 µs = 1.6291e-4 TB/s.
     */
    void kernelTimeAndRates()
    {
        using test::completeEvent;
        std::string e = completeEvent("cpu_op", "aten::mm", 1, 90, 10,
            R"("Input Dims":[[32,16],[16,8]],"Input type":["float","float"])");
        e += completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 91, 1, R"("correlation":1)");
        e += completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 93, 1, R"("correlation":2)");
        e += completeEvent("cuda_runtime", "cudaMemsetAsync", 1, 95, 1, R"("correlation":3)");
        e += completeEvent("kernel", "k1", 7, 100, 10, R"("correlation":1,"stream":7)");
        e += R"({"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":8,"ts":105,"dur":15,)"
             R"("args":{"correlation":2,"stream":8}},)";
        e += completeEvent("gpu_memset", "Memset (Device)", 7, 130, 2, R"("correlation":3)");
        e.pop_back();
        const auto trace = test::link(test::traceWith(e));
        QVERIFY(trace);
        const TraceModel &m = *trace->model;
        SliceId mm = 0;
        while (m.sliceName(mm) != "aten::mm")
            ++mm;
        QCOMPARE(subtreeKernelTime(*trace->graph, mm), TimeNs(22'000));
        const auto work = gemmWork(
            "aten::mm", parseOpShapes(m.str(m.slices.inputDims[mm]), m.str(m.cpu(mm)->inputTypes)));
        QVERIFY(work);
        const OpRates r = ratesOf(*work, 22'000);
        QCOMPARE(r.gflops, 8.192e-6);
        QVERIFY(qFuzzyCompare(*r.tflopsPerS, 8192 / 22e-6 / 1e12));
        QCOMPARE(*r.dataMovedMiB, 0.00341796875);
        QVERIFY(qFuzzyCompare(*r.flopsPerByte, 8192.0 / 3584.0));
        QVERIFY(qFuzzyCompare(*r.tbPerS, 3584 / 22e-6 / 1e12));
        // No GPU work: no rates, still FLOPs and bytes.
        const OpRates idle = ratesOf(*work, 0);
        QVERIFY(!idle.tflopsPerS && !idle.tbPerS && idle.dataMovedMiB);
    }
};

QTEST_GUILESS_MAIN(TestPerfModel)
#include "tst_perfmodel.moc"
