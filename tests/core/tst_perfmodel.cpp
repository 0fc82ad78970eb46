// SPDX-License-Identifier: MIT
// How far ops are from the hardware (issue #34), the models: FLOPs and bytes of each modelled
// op from its recorded shapes, worked out by hand below for the formula of TraceLens's model it
// reproduces (AMD-AGI/TraceLens 171dd747, TraceLens/PerfModel/perf_model.py).
#include "analysis/efficiency/attentionwork.h"
#include "analysis/efficiency/gemmwork.h"
#include "analysis/efficiency/oprates.h"
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
     * Convolution (perf_model.py CONV l. 858). TraceLens's published CONV_fwd rows (171dd747,
     * tests/traces/h100/Falconsai_nsfw_image_detection__1016002_perf_report_csvs/CONV_fwd.csv and
     * Wan-AI_Wan2.1-T2V-1.3B-Diffusers__1016009_…/CONV_fwd.csv) leave the bias out (l. 1066);
     * ours adds it, prod(out) FLOPs and C_out elements:
     *   x [4,3,224,224] w [768,3,16,16] stride 16: out [4,768,14,14] = 602112; TraceLens
     *     0.924844032 GFLOPS, 3.421875 MiB; + bias: 924844032 + 602112, 3588096 + 768·2 B
     *   x [1,96,6,258,258] w [96,96,3,3,3]: out [1,96,4,256,256] = 25165824; TraceLens
     *     130.459631616 GFLOPS, 121.60400390625 MiB; + bias: + 25165824 FLOPs, + 96·2 B
     * Without a bias input the numbers are TraceLens's exactly.
     */
    void convolutionForward()
    {
        const std::string types
            = R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","ScalarList",)"
              R"("ScalarList","ScalarList","Scalar","ScalarList","Scalar"])";
        auto conv = [&](std::string_view dims, std::string_view concrete) {
            return opWork("aten::convolution", parseOpShapes(dims, types, concrete));
        };
        const auto vit = conv("[[4,3,224,224],[768,3,16,16],[768],[],[],[],[],[],[]]",
            R"(["","","","[16, 16]","[0, 0]","[1, 1]","False","[0, 0]","1"])");
        QVERIFY(vit);
        QCOMPARE(vit->flops, 924844032.0 + 602112);
        QCOMPARE(*vit->bytes, 3.421875 * 1048576 + 768 * 2);
        QVERIFY(vit->unit == ComputeUnit::Matrix);
        const auto noBias = conv("[[4,3,224,224],[768,3,16,16],[],[],[],[],[],[],[]]",
            R"(["","","","[16, 16]","[0, 0]","[1, 1]","False","[0, 0]","1"])");
        QCOMPARE(ratesOf(*noBias, 0).gflops, 0.924844032);
        QCOMPARE(*ratesOf(*noBias, 0).dataMovedMiB, 3.421875);
        const auto video = conv("[[1,96,6,258,258],[96,96,3,3,3],[],[],[],[],[],[],[]]",
            R"(["","","","[1, 1, 1]","[0, 0, 0]","[1, 1, 1]","False","[0, 0, 0]","1"])");
        QVERIFY(video);
        QCOMPARE(ratesOf(*video, 0).gflops, 130.459631616);
        QCOMPARE(*ratesOf(*video, 0).dataMovedMiB, 121.60400390625);
        // Transposed, x [1,4,5,5] w [4,2,3,3] stride 2: out (5−1)·2 + 2 + 1 = 11: [1,2,11,11];
        // FLOPs 2·prod(w[1:])·prod(x) = 2·18·100 = 3600; float bytes (100 + 72 + 242)·4 = 1656.
        const auto up = opWork("aten::convolution",
            parseOpShapes("[[1,4,5,5],[4,2,3,3],[],[],[],[],[],[],[]]", R"(["float","float"])",
                R"(["","","","[2]","[0]","[1]","True","[0]","1"])"));
        QVERIFY(up);
        QCOMPARE(up->flops, 3600.0);
        QCOMPARE(up->bytes, std::optional<double>(1656));
        QVERIFY(!opWork("aten::convolution", parseOpShapes("[[4,3,224,224]]", "[]", "[]")));
        // A trace from before PyTorch 2.0 has no Concrete Inputs: stride and padding unknown,
        // no guess (nor a reduction's dims, nor batch norm's training flag).
        const OpShapes old = parseOpShapes(
            "[[4,3,224,224],[768,3,16,16],[],[],[],[],[],[],[]]", R"(["float","float"])");
        QVERIFY(!opWork("aten::convolution", old));
        QVERIFY(!opWork("aten::mean", parseOpShapes("[[8,4]]", R"(["float"])")));
        QVERIFY(!opWork("aten::batch_norm", parseOpShapes("[[2,4,3,3],[4]]", R"(["float"])")));
    }

    /*
     * convolution_backward (l. 997, l. 1019), x [2,3,8,8] w [4,3,3,3] stride 1 pad 1: out
     * [2,4,8,8] = 512. Input gradient 2·prod(w[1:])·prod(out) = 2·27·512 = 27648; weight gradient
     * 2·prod(outᵀ[1:])·prod(wᵀ) = 2·128·108 = 27648; bf16 bytes each (512 + 108 + 384)·2 = 2008.
     * output_mask [True, True, False]: 55296 FLOPs, 4016 B (TraceLens's numbers). A ResNet's
     * first conv asks [False, True, False]: half (TraceLens still reports 55296).
     */
    void convolutionBackward()
    {
        auto bwd = [](std::string_view mask) {
            return opWork("aten::convolution_backward",
                parseOpShapes("[[2,4,8,8],[2,3,8,8],[4,3,3,3],[],[],[],[],[],[],[],[]]",
                    R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16"])",
                    std::string(
                        R"(["","","","[0]","[1, 1]","[1, 1]","[1, 1]","False","[0, 0]","1",")")
                        + std::string(mask) + "\"]"));
        };
        const auto both = bwd("[True, True, False]");
        QVERIFY(both);
        QCOMPARE(both->flops, 55296.0);
        QCOMPARE(both->bytes, std::optional<double>(4016));
        const auto weightOnly = bwd("[False, True, False]");
        QCOMPARE(weightOnly->flops, 27648.0);
        QCOMPARE(weightOnly->bytes, std::optional<double>(2008));
        // With the bias gradient: + prod(out) FLOPs, + (512 + 4)·2 B.
        const auto all = bwd("[True, True, True]");
        QCOMPARE(all->flops, 55296.0 + 512);
        QCOMPARE(all->bytes, std::optional<double>(4016 + 516 * 2));
    }

    /*
     * Attention (SDPA l. 1753). TraceLens's published rows: Qwen1.5 H100 SDPA_fwd.csv, causal
     * [16,16,559,64] bf16: 10.239377408 GFLOPS, 69.875 MiB; compare_test_ops/256thread SDPA_fwd
     * and SDPA_bwd.csv, [512,16,176,64] not causal: forward 64.961380352 GFLOPS, 704 MiB,
     * backward (keyed by the forward op) 162.40345088 (2.5×), 1232 MiB (q, k, v, dO, dQ, dK, dV).
     * float halves nothing but doubles the bytes (TraceLens: 2 per element whatever the dtype).
     */
    void attention()
    {
        const std::string bf16 = R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16"])";
        const auto qwen = opWork("aten::_scaled_dot_product_flash_attention",
            parseOpShapes("[[16,16,559,64],[16,16,559,64],[16,16,559,64],[],[],[],[]]", bf16,
                R"(["","","","0.","True","False","0.125"])"));
        QVERIFY(qwen);
        QCOMPARE(ratesOf(*qwen, 0).gflops, 10.239377408);
        QCOMPARE(*ratesOf(*qwen, 0).dataMovedMiB, 69.875);
        const OpShapes big
            = parseOpShapes("[[512,16,176,64],[512,16,176,64],[512,16,176,64],[],[],[],[]]", bf16,
                R"(["","","","0.10000000000000001","False","False","0.125"])");
        const auto fwd = opWork("aten::_scaled_dot_product_flash_attention", big);
        QCOMPARE(ratesOf(*fwd, 0).gflops, 64.961380352);
        QCOMPARE(*ratesOf(*fwd, 0).dataMovedMiB, 704.0);
        const auto bwd = attentionBackwardWork("aten::_scaled_dot_product_flash_attention", big);
        QVERIFY(bwd);
        QCOMPARE(ratesOf(*bwd, 0).gflops, 162.40345088);
        QCOMPARE(*ratesOf(*bwd, 0).dataMovedMiB, 1232.0);
        // Grouped-query, efficient kernel (no recompute), float: q [1,4,8,2], k, v [1,2,8,2].
        // Forward 2·1·4·8·8·(2 + 2) = 2048; bytes (64 + 32 + 32 + 64)·4 = 768.
        // Backward dV 2·4·64·2 + 1·8·2·(4/2 − 1) = 1024 + 16, dP 1024, dQ 1024, dK 1024 + 16
        // = 4128; bytes (2·(64 + 32 + 32) + 64)·4 = 1280.
        const OpShapes gqa = parseOpShapes("[[1,4,8,2],[1,2,8,2],[1,2,8,2],[],[],[],[],[]]",
            R"(["float","float","float"])", R"(["","","","","","0.","False",""])");
        const auto eff = opWork("aten::_scaled_dot_product_efficient_attention", gqa);
        QVERIFY(eff);
        QCOMPARE(eff->flops, 2048.0);
        QCOMPARE(eff->bytes, std::optional<double>(768));
        const auto effBwd
            = attentionBackwardWork("aten::_scaled_dot_product_efficient_attention", gqa);
        QCOMPARE(effBwd->flops, 4128.0);
        QCOMPARE(effBwd->bytes, std::optional<double>(1280));
        // Causal with N_q 2 < N_kv 4: the top-left mask keeps 1 + 2 of 8 pairs: 2·1·1·2·4·2 = 32
        // FLOPs × 3/8 = 12 (TraceLens raises here).
        const auto decode = opWork("aten::_scaled_dot_product_flash_attention",
            parseOpShapes("[[1,1,2,1],[1,1,4,1],[1,1,4,1]]", R"(["float"])",
                R"(["","","","0.","True","False",""])"));
        QCOMPARE(decode->flops, 12.0);
    }

    /*
     * Elementwise and reductions: TraceLens's published Qwen1.5 H100 rows (BinaryElementwise.csv,
     * UnaryElementwise.csv, Reduce_fwd.csv), 9158656 = 16·559·1024 elements:
     *   add bf16 + bf16 (+ alpha): 0.009158656 GFLOPS, 3·n·2 B = 52.40625 MiB
     *   mul float [16,559,1024]·[16,559,1]: n FLOPs, (2n + 8944)·4 B = 69.90911865234375 MiB
     *   copy_ float → bf16: n·(4 + 2) = 52.40625 MiB; pow float, scalar: n·8 = 69.875 MiB
     *   mean float over dim −1: TraceLens (n + 1)·4 = 34.937503814697266 MiB (one output);
     *     ours (n + 8944)·4, the output the dim gives
     */
    void elementwiseAndReductions()
    {
        auto work = [](std::string_view op, std::string_view dims, std::string_view types,
                        std::string_view concrete = "[]") {
            return opWork(op, parseOpShapes(dims, types, concrete));
        };
        const auto add = work("aten::add", "[[16,16,559,64],[16,16,559,64],[]]",
            R"(["c10::BFloat16","c10::BFloat16","Scalar"])");
        QCOMPARE(ratesOf(*add, 0).gflops, 0.009158656);
        QCOMPARE(*ratesOf(*add, 0).dataMovedMiB, 52.40625);
        QVERIFY(add->unit == ComputeUnit::Vector);
        const auto mul = work("aten::mul", "[[16,559,1024],[16,559,1]]", R"(["float","float"])");
        QCOMPARE(ratesOf(*mul, 0).gflops, 0.009158656);
        QCOMPARE(*ratesOf(*mul, 0).dataMovedMiB, 69.90911865234375);
        const auto copy = work("aten::copy_", "[[16,559,1024],[16,559,1024],[]]",
            R"(["float","c10::BFloat16","Scalar"])");
        QCOMPARE(*ratesOf(*copy, 0).dataMovedMiB, 52.40625);
        const auto pow = work("aten::pow", "[[16,559,1024],[]]", R"(["float","Scalar"])");
        QCOMPARE(*ratesOf(*pow, 0).dataMovedMiB, 69.875);
        const auto mean = work("aten::mean", "[[16,559,1024],[],[],[]]",
            R"(["float","ScalarList","Scalar",""])", R"(["","[-1]","True",""])");
        QCOMPARE(ratesOf(*mean, 0).gflops, 0.009158656);
        QCOMPARE(*mean->bytes, (9158656.0 + 8944) * 4);
        QVERIFY(!work("aten::mul", "[[3,4],[5,4]]", R"(["float","float"])")); // no broadcast
        // Softmax [8,16] bf16: 3·128 FLOPs, 2·128·2 B; backward twice both.
        const auto sm = work("aten::_softmax", "[[8,16],[],[]]", R"(["c10::BFloat16"])");
        QCOMPARE(sm->flops, 384.0);
        QCOMPARE(sm->bytes, std::optional<double>(512));
        const auto smb = work("aten::_softmax_backward_data", "[[8,16],[8,16],[],[]]",
            R"(["c10::BFloat16","c10::BFloat16"])");
        QCOMPARE(smb->flops, 768.0);
        QCOMPARE(smb->bytes, std::optional<double>(1024));
        // Cross-entropy logits [4,10] float, targets [4]: 200 FLOPs; 160 + 4·12 = 208 B.
        const auto ce = work(
            "aten::cross_entropy_loss", "[[4,10],[4],[],[],[],[]]", R"(["float","long int"])");
        QCOMPARE(ce->flops, 200.0);
        QCOMPARE(ce->bytes, std::optional<double>(208));
        // Embedding [100,8] float, indices [4,5]: 20·8 + 2·20·8·4 = 1440 B; its backward with
        // grad [4,5,8] and 100 rows: 160 FLOPs, (160 + 800)·4 + 160 = 4000 B.
        const auto emb
            = work("aten::embedding", "[[100,8],[4,5],[],[],[]]", R"(["float","long int"])");
        QCOMPARE(emb->flops, 0.0);
        QCOMPARE(emb->bytes, std::optional<double>(1440));
        const auto embBwd = work("aten::embedding_dense_backward", "[[4,5,8],[4,5],[],[],[]]",
            R"(["float","long int"])", R"(["","","100","-1","False"])");
        QCOMPARE(embBwd->flops, 160.0);
        QCOMPARE(embBwd->bytes, std::optional<double>(4000));
    }

    /*
     * Normalization (l. 4286): TraceLens's published Falconsai layer_norm row (Normalization.csv),
     * [4,197,768] bf16, C = 768, affine with bias, training: FLOPs 3·768 + 3·605184 + 3·768 +
     * 2·605184 = 3030528; bytes 605184·2·2 + 6·768·2 = 2429952 = 2.3173828125 MiB.
     * Batch norm in eval, [2,4,3,3] float, affine: FLOPs 12 + 12 + 144 = 168; bytes 72·8 + 4·4·4
     * = 640 (mean, variance, weight, bias). layer_norm_backward of the first, mask [True, True,
     * True]: per channel 4·788 + 5·788: 768·7092 = 5446656 FLOPs; bytes 605184·2·3 + 768·2 +
     * 768·2·3 = 3637248.
     */
    void normalizations()
    {
        const std::string types
            = R"(["c10::BFloat16","ScalarList","c10::BFloat16","c10::BFloat16"])";
        const auto ln = opWork("aten::layer_norm",
            parseOpShapes("[[4,197,768],[],[768],[768],[],[]]", types,
                R"(["","[768]","","","9.9999999999999998e-13","True"])"));
        QVERIFY(ln);
        QCOMPARE(ratesOf(*ln, 0).gflops, 0.003030528);
        QCOMPARE(*ratesOf(*ln, 0).dataMovedMiB, 2.3173828125);
        const auto bn = opWork("aten::batch_norm",
            parseOpShapes("[[2,4,3,3],[4],[4],[4],[4],[],[],[],[]]", R"(["float"])",
                R"(["","","","","","False","0.1","1e-05","True"])"));
        QCOMPARE(bn->flops, 168.0);
        QCOMPARE(bn->bytes, std::optional<double>(640));
        const auto lnb = opWork("aten::native_layer_norm_backward",
            parseOpShapes("[[4,197,768],[4,197,768],[],[4,197,1],[4,197,1],[768],[768],[]]",
                R"(["c10::BFloat16","c10::BFloat16"])",
                R"(["","","[768]","","","","","[True, True, True]"])"));
        QCOMPARE(lnb->flops, 5446656.0);
        QCOMPARE(lnb->bytes, std::optional<double>(3637248));
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
