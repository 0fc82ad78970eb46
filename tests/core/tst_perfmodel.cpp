// SPDX-License-Identifier: MIT
// How far ops are from the hardware (issue #34), the models: FLOPs and bytes of each modelled
// op from its recorded shapes, worked out by hand below for the formula of TraceLens's model it
// reproduces (AMD-AGI/TraceLens 171dd747, TraceLens/PerfModel/perf_model.py).
#include "analysis/gemmwork.h"

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
};

QTEST_GUILESS_MAIN(TestPerfModel)
#include "tst_perfmodel.moc"
