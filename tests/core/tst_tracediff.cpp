// SPDX-License-Identifier: MIT
// Unit tests of the run comparison (core/tracediff, core/difftable): the structural matcher on
// small generated traces (identical, op inserted, op removed, shapes changed, repeated layers,
// steps), the rollups and the exports, then real traces: a shared trace against a copy whose
// chosen kernels the test itself made twice as long, and the two ranks of the DLRM pair.
#include "analysis/compare/tracediff.h"
#include "analysis/modules/modulepaths.h"
#include "analysis/modules/moduletree.h"
#include "analysis/pairs/pairkeys.h"
#include "base/numbertext.h"
#include "export/difftable.h"
#include "testutil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace ks;

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

/*
 * A generated trace. Each op of a step becomes a forward cpu_op (Sequence number, Input Dims,
 * inside its nn.Module python_function slices) launching one kernel, and one backward node
 * (inside an evaluate_function wrapper, tied by a fwdbwd flow) launching one kernel:
 *   step k (ProfilerStep#(first + k)) spans [k·10000, k·10000 + 9000] on thread 100;
 *   op i: modules at T + j, op [T + 10, T + 10 + fwdCpu] with T = k·10000 + 100 + 100·i,
 *         launch at T + 12, kernel (stream 7) at T + 20 lasting fwdGpu;
 *   its node (backward in reverse order, r-th): wrapper [B, B + 80] with
 *         B = k·10000 + 5000 + 100·r on thread 200, node [B + 1, B + 1 + bwdCpu], launch at
 *         B + 5, kernel at B + 20 lasting bwdGpu.
 * So each pair row has exactly: fwd GPU = fwdGpu, bwd GPU = bwdGpu, fwd CPU = fwdCpu,
 * bwd CPU = 80 (the wrapper), one kernel each side. Module (or scope) slices: the j-th level at
 * [T + j, T + 90 − j].
 */
struct Op {
    std::string name = "aten::linear";
    std::string dims = "[[8, 16]]";
    std::string bwd = "AddmmBackward0";
    std::string module; //!< "Model_0/Layer_1": nested nn.Module slices, outermost first
    std::string scope; //!< or "## forward ##/## head ##": nested record_function scopes instead
    int fwdGpu = 10;
    int bwdGpu = 20;
    int fwdCpu = 50;
    int bwdCpu = 60;
};

std::string makeTrace(const std::vector<std::vector<Op>> &steps, int firstStep = 1)
{
    std::string out;
    int id = 1; // sequence numbers, external ids and correlations, all distinct
    auto event = [&](const std::string &e) {
        if (!out.empty())
            out += ",\n";
        out += e;
    };
    auto num = [](long v) { return std::to_string(v); };
    for (size_t k = 0; k < steps.size(); ++k) {
        const long s = long(k) * 10000;
        event(R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)"
            + num(firstStep + long(k)) + R"(","pid":100,"tid":100,"ts":)" + num(s)
            + R"(,"dur":9000})");
        const std::vector<Op> &ops = steps[k];
        for (size_t i = 0; i < ops.size(); ++i) {
            const Op &op = ops[i];
            const long t = s + 100 + 100 * long(i);
            long depth = 0;
            const bool scoped = !op.scope.empty();
            std::string path = scoped ? op.scope : op.module;
            while (!path.empty()) {
                const size_t slash = path.find('/');
                event(
                    std::string(scoped ? R"({"ph":"X","cat":"user_annotation","name":")"
                                       : R"({"ph":"X","cat":"python_function","name":"nn.Module: )")
                    + path.substr(0, slash) + R"(","pid":100,"tid":100,"ts":)" + num(t + depth)
                    + R"(,"dur":)" + num(90 - 2 * depth) + "}");
                ++depth;
                path = slash == std::string::npos ? std::string() : path.substr(slash + 1);
            }
            const int seq = id++, corr = id++, ext = id++;
            event(R"({"ph":"X","cat":"cpu_op","name":")" + op.name
                + R"(","pid":100,"tid":100,"ts":)" + num(t + 10) + R"(,"dur":)" + num(op.fwdCpu)
                + R"(,"args":{"External id":)" + num(ext) + R"(,"Sequence number":)" + num(seq)
                + R"(,"Fwd thread id":0,"Input Dims":)" + op.dims + "}}");
            event(R"({"ph":"s","id":)" + num(seq) + R"(,"pid":100,"tid":100,"ts":)" + num(t + 10)
                + R"(,"cat":"fwdbwd","name":"fwdbwd"})");
            event(
                R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":)"
                + num(t + 12) + R"(,"dur":2,"args":{"External id":)" + num(ext)
                + R"(,"correlation":)" + num(corr) + "}}");
            event(R"({"ph":"X","cat":"kernel","name":"fwd_kernel","pid":0,"tid":7,"ts":)"
                + num(t + 20) + R"(,"dur":)" + num(op.fwdGpu) + R"(,"args":{"correlation":)"
                + num(corr) + R"(,"device":0,"stream":7}})");

            const long b = s + 5000 + 100 * long(ops.size() - 1 - i);
            const int bcorr = id++, bext = id++;
            event(R"({"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: )"
                + op.bwd + R"(","pid":100,"tid":200,"ts":)" + num(b)
                + R"(,"dur":80,"args":{"External id":)" + num(bext) + R"(,"Sequence number":)"
                + num(seq) + R"(,"Fwd thread id":1}})");
            event(R"({"ph":"X","cat":"cpu_op","name":")" + op.bwd + R"(","pid":100,"tid":200,"ts":)"
                + num(b + 1) + R"(,"dur":)" + num(op.bwdCpu) + R"(,"args":{"External id":)"
                + num(bext + 1000000) + R"(,"Sequence number":)" + num(seq)
                + R"(,"Fwd thread id":1}})");
            event(R"({"ph":"f","id":)" + num(seq) + R"(,"pid":100,"tid":200,"ts":)" + num(b + 1)
                + R"(,"cat":"fwdbwd","name":"fwdbwd","bp":"e"})");
            event(
                R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":)"
                + num(b + 5) + R"(,"dur":2,"args":{"External id":)" + num(bext + 1000000)
                + R"(,"correlation":)" + num(bcorr) + "}}");
            event(R"({"ph":"X","cat":"kernel","name":"bwd_kernel","pid":0,"tid":7,"ts":)"
                + num(b + 20) + R"(,"dur":)" + num(op.bwdGpu) + R"(,"args":{"correlation":)"
                + num(bcorr) + R"(,"device":0,"stream":7}})");
        }
    }
    return test::traceWith(out);
}

Op op(const char *name, const char *dims, const char *bwd, int fwdGpu = 10, int bwdGpu = 20)
{
    Op o;
    o.name = name;
    o.dims = dims;
    o.bwd = bwd;
    o.fwdGpu = fwdGpu;
    o.bwdGpu = bwdGpu;
    return o;
}

Op linear(int fwdGpu = 10, int bwdGpu = 20, const char *dims = "[[8, 16], [32, 16], [32]]")
{
    return op("aten::linear", dims, "AddmmBackward0", fwdGpu, bwdGpu);
}
Op relu(int fwdGpu = 3, int bwdGpu = 4)
{
    return op("aten::relu", "[[8, 32]]", "ReluBackward0", fwdGpu, bwdGpu);
}

//! Loads and links generated text; the pair rows must be as generated (one per op).
std::shared_ptr<const LoadedTrace> linked(
    const std::vector<std::vector<Op>> &steps, int firstStep = 1)
{
    std::string error;
    auto trace = test::link(makeTrace(steps, firstStep), &error);
    if (!trace)
        qWarning("link failed: %s", error.c_str());
    return trace;
}

QString status(const DiffEntry &e)
{
    return qs(diffStatusName(e.status));
}

//! Entry statuses in structural order, "status:fwd_name".
QStringList shape(const TraceDiff &diff)
{
    QStringList out;
    for (const DiffEntry &e : diff.entries()) {
        const bool c = !e.base.present();
        const OpGraph &g = c ? diff.candidate() : diff.base();
        const PairRow &row = g.rows()[size_t(c ? e.candidate.row : e.base.row)];
        out << status(e) + QLatin1Char(':')
                + (row.forward == kNoSlice ? QString() : qs(g.model().sliceName(row.forward)));
    }
    return out;
}

double metric(const DiffValues &v, DiffMetric m)
{
    return v[size_t(m)];
}

QStringList csvLines(const Table &table)
{
    return QString::fromStdString(tableToCsv(table)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QString cell(const Table &t, size_t row, size_t column)
{
    return QString::fromStdString(t.text(row, column));
}

//! Column index by name, -1 when absent.
int column(const Table &t, std::string_view name)
{
    for (size_t c = 0; c < t.columnCount(); ++c) {
        if (t.columnName(c) == name)
            return int(c);
    }
    return -1;
}

QByteArray gunzip(const QByteArray &data)
{
    z_stream zs {};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
        return {};
    QByteArray out;
    char buf[1 << 16];
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
    zs.avail_in = uInt(data.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef *>(buf);
        zs.avail_out = sizeof buf;
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buf, qsizetype(sizeof buf - zs.avail_out));
    }
    inflateEnd(&zs);
    return rc == Z_STREAM_END ? out : QByteArray();
}

/*!
 * Doubles the `dur` of every `"cat": "kernel"` event whose name contains \a part, editing the
 * text in place (Kineto's layout: `"cat": "kernel", "name": "…"` then `"dur": X` of the same
 * event). Returns the number of events edited; \a addedNs receives the duration added.
 */
int doubleKernels(QByteArray &text, const QByteArray &part, int64_t &addedNs)
{
    static const QByteArray kHead = "\"cat\": \"kernel\", \"name\": \"";
    static const QByteArray kDur = "\"dur\": ";
    int edited = 0;
    addedNs = 0;
    for (qsizetype at = text.indexOf(kHead); at >= 0; at = text.indexOf(kHead, at + 1)) {
        const qsizetype nameStart = at + kHead.size();
        const qsizetype nameEnd = text.indexOf('"', nameStart);
        if (!text.mid(nameStart, nameEnd - nameStart).contains(part))
            continue;
        const qsizetype durAt = text.indexOf(kDur, nameEnd) + kDur.size();
        qsizetype end = durAt;
        while (end < text.size() && text[end] != ',' && text[end] != '\n' && text[end] != '}')
            ++end;
        const QByteArray value = text.mid(durAt, end - durAt);
        MicrosText dur;
        if (!parseMicros(std::string_view(value.constData(), size_t(value.size())), dur))
            return -1;
        std::string doubled;
        appendMicros(doubled, 2 * dur.ns, 3);
        text.replace(durAt, end - durAt, QByteArray::fromStdString(doubled));
        addedNs += dur.ns;
        ++edited;
    }
    return edited;
}

std::shared_ptr<const LoadedTrace> openShared(const QString &name)
{
    const QString dir = test::sharedTracesDir();
    if (dir.isEmpty())
        return {};
    return openTrace(QString(dir + QLatin1Char('/') + name).toStdString()).trace;
}

} // namespace

class TestTraceDiff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    //! Identical traces: every pair matched to its twin, every change zero.
    void identicalTraces()
    {
        const std::vector<std::vector<Op>> steps
            = {{linear(11, 21), relu(), linear(12, 22, "[[8, 32], [8, 32], [8]]"), relu(5, 6)}};
        auto a = linked(steps), b = linked(steps);
        QVERIFY(a && b);
        QCOMPARE(a->graph->rows().size(), size_t(4));
        for (const OpGraph *candidate : {b->graph.get(), a->graph.get()}) {
            auto diff = TraceDiff::compare(*a->graph, *candidate);
            QVERIFY(diff);
            QCOMPARE(diff->entries().size(), size_t(4));
            QCOMPARE(diff->count(DiffStatus::Matched), 4u);
            QCOMPARE(diff->stepSlots().size(), size_t(1));
            QCOMPARE(diff->stepSlots()[0].baseStep, 1);
            for (size_t i = 0; i < 4; ++i) {
                const DiffEntry &e = diff->entries()[i];
                QCOMPARE(e.base.row, int64_t(i));
                QCOMPARE(e.candidate.row, int64_t(i));
                QCOMPARE(e.changes, uint8_t(0));
                // Held bytes: not known without [memory] events (NaN), every other delta 0.
                for (size_t m = 0; m < kDiffMetricCount; ++m)
                    if (DiffMetric(m) != DiffMetric::HeldBytes)
                        QCOMPARE(e.delta(DiffMetric(m)), 0.0);
                QVERIFY(std::isnan(e.delta(DiffMetric::HeldBytes)));
            }
            // Figures as generated: 11 + 3 + 12 + 5 µs forward GPU, 4 kernels per side.
            QCOMPARE(metric(diff->baseTotals(), DiffMetric::FwdGpu), 31000.0);
            QCOMPARE(metric(diff->baseTotals(), DiffMetric::BwdGpu), 53000.0);
            QCOMPARE(metric(diff->baseTotals(), DiffMetric::FwdCpu), 200000.0);
            QCOMPARE(metric(diff->baseTotals(), DiffMetric::BwdCpu), 320000.0);
            QCOMPARE(metric(diff->baseTotals(), DiffMetric::BwdKernels), 4.0);
            for (const DiffMetric m : {DiffMetric::FwdGpu, DiffMetric::BwdGpu, DiffMetric::FwdCpu,
                     DiffMetric::BwdCpu, DiffMetric::FwdKernels, DiffMetric::BwdKernels})
                QCOMPARE(metric(diff->baseTotals(), m), metric(diff->candidateTotals(), m));

            const DiffTable table(*diff);
            QCOMPARE(table.rowCount(), size_t(4));
            for (size_t r = 0; r < 4; ++r) {
                QCOMPARE(cell(table, r, DiffTable::Status), QStringLiteral("matched"));
                QCOMPARE(cell(table, r, DiffTable::metricColumn(DiffMetric::FwdGpu) + 2),
                    QStringLiteral("0.000"));
                QCOMPARE(cell(table, r, DiffTable::metricColumn(DiffMetric::FwdGpu) + 3),
                    QStringLiteral("0.0000"));
            }
        }
    }

    //! A new op in the candidate: one only_candidate entry at its place, the rest unchanged.
    void opInserted()
    {
        auto a = linked({{linear(), relu(), linear(15, 25), relu()}});
        auto b = linked(
            {{linear(), relu(), op("aten::dropout", "[[8, 32]]", "NativeDropoutBackward0", 7, 8),
                linear(15, 25), relu()}});
        QVERIFY(a && b);
        auto diff = TraceDiff::compare(*a->graph, *b->graph);
        QVERIFY(diff);
        QCOMPARE(shape(*diff),
            QStringList(
                {QStringLiteral("matched:aten::linear"), QStringLiteral("matched:aten::relu"),
                    QStringLiteral("only_candidate:aten::dropout"),
                    QStringLiteral("matched:aten::linear"), QStringLiteral("matched:aten::relu")}));
        const DiffEntry &inserted = diff->entries()[2];
        QCOMPARE(inserted.candidate.row, 2);
        QVERIFY(!inserted.base.present());
        // An absent side counts as 0: the inserted op's delta is all of its time.
        QCOMPARE(inserted.delta(DiffMetric::FwdGpu), 7000.0);
        QCOMPARE(inserted.delta(DiffMetric::BwdKernels), 1.0);
        QCOMPARE(diff->entries()[3].base.row, 2);
        QCOMPARE(diff->entries()[3].candidate.row, 3);
        QCOMPARE(diff->entries()[3].delta(DiffMetric::FwdGpu), 0.0);
        QCOMPARE(diff->count(DiffStatus::OnlyCandidate), 1u);
        QCOMPARE(metric(diff->candidateTotals(), DiffMetric::FwdGpu)
                - metric(diff->baseTotals(), DiffMetric::FwdGpu),
            7000.0);

        // Sorted by change, the inserted op comes first; its base columns are empty.
        const DiffTable table(*diff);
        QCOMPARE(cell(table, 0, DiffTable::Status), QStringLiteral("only_candidate"));
        QCOMPARE(cell(table, 0, DiffTable::FwdName), QStringLiteral("aten::dropout"));
        QCOMPARE(cell(table, 0, DiffTable::StepBase), QString());
        QCOMPARE(cell(table, 0, DiffTable::StepCandidate), QStringLiteral("1"));
        const size_t fwdGpu = DiffTable::metricColumn(DiffMetric::FwdGpu);
        QCOMPARE(cell(table, 0, fwdGpu), QString());
        QCOMPARE(cell(table, 0, fwdGpu + 1), QStringLiteral("7.000"));
        QCOMPARE(cell(table, 0, fwdGpu + 2), QStringLiteral("7.000"));
        QCOMPARE(cell(table, 0, fwdGpu + 3), QString()); // no base: no relative change
        QCOMPARE(cell(table, 0, DiffTable::metricColumn(DiffMetric::BwdKernels) + 2),
            QStringLiteral("1"));

        // Without rollups (a run's pair matching): the same entries, and no groups.
        QCOMPARE(diff->groups(DiffGrouping::Op).size(), size_t(3)); // linear, relu, dropout
        DiffOptions entriesOnly;
        entriesOnly.rollups = false;
        const auto bare = TraceDiff::compare(*a->graph, *b->graph, entriesOnly);
        QVERIFY(bare);
        QCOMPARE(shape(*bare), shape(*diff));
        QCOMPARE(bare->entries()[3].candidate.row, 3);
        for (DiffGrouping g : {DiffGrouping::Op, DiffGrouping::Module, DiffGrouping::ModuleType})
            QVERIFY(bare->groups(g).empty());
    }

    //! An op missing from the candidate: only_base, and the same op later still matches.
    void opRemoved()
    {
        // conv, bn, relu twice; the candidate lacks the first batch_norm.
        auto conv = [](int g) {
            return op("aten::conv2d", "[[8, 3, 32, 32]]", "ConvolutionBackward0", g, 2 * g);
        };
        auto bn = [](int g) {
            return op(
                "aten::batch_norm", "[[8, 16, 32, 32]]", "NativeBatchNormBackward0", g, 2 * g);
        };
        auto a = linked({{conv(30), bn(5), relu(), conv(31), bn(6), relu()}});
        auto b = linked({{conv(30), relu(), conv(31), bn(6), relu()}});
        QVERIFY(a && b);
        auto diff = TraceDiff::compare(*a->graph, *b->graph);
        QVERIFY(diff);
        QCOMPARE(shape(*diff),
            QStringList({QStringLiteral("matched:aten::conv2d"),
                QStringLiteral("only_base:aten::batch_norm"), QStringLiteral("matched:aten::relu"),
                QStringLiteral("matched:aten::conv2d"), QStringLiteral("matched:aten::batch_norm"),
                QStringLiteral("matched:aten::relu")}));
        QCOMPARE(diff->entries()[1].base.row, 1);
        QCOMPARE(diff->entries()[1].delta(DiffMetric::FwdGpu), -5000.0);
        QCOMPARE(diff->entries()[1].delta(DiffMetric::BwdGpu), -10000.0);
        // The second batch_norm (6 µs) is matched with the candidate's only one (6 µs).
        QCOMPARE(diff->entries()[4].base.row, 4);
        QCOMPARE(diff->entries()[4].candidate.row, 3);
        QCOMPARE(diff->entries()[4].delta(DiffMetric::FwdGpu), 0.0);
        QCOMPARE(diff->count(DiffStatus::OnlyBase), 1u);
        QCOMPARE(diff->count(DiffStatus::Matched), 5u);

        const DiffTable table(*diff);
        QCOMPARE(cell(table, 0, DiffTable::Status), QStringLiteral("only_base"));
        QCOMPARE(cell(table, 0, DiffTable::metricColumn(DiffMetric::BwdGpu) + 2),
            QStringLiteral("-10.000"));
        QCOMPARE(cell(table, 0, DiffTable::metricColumn(DiffMetric::BwdGpu) + 3),
            QStringLiteral("-1.0000"));
        QCOMPARE(cell(table, 0, DiffTable::NCandidate), QString());
    }

    //! Same op at the same place with other input dims: shape_changed, compared all the same.
    void shapesChanged()
    {
        auto a = linked({{linear(10, 20), relu(), linear(10, 20), relu()}});
        auto b = linked(
            {{linear(10, 20), relu(), linear(40, 80, "[[32, 16], [32, 16], [32]]"), relu()}});
        QVERIFY(a && b);
        auto diff = TraceDiff::compare(*a->graph, *b->graph);
        QVERIFY(diff);
        QCOMPARE(shape(*diff),
            QStringList({QStringLiteral("matched:aten::linear"),
                QStringLiteral("matched:aten::relu"), QStringLiteral("shape_changed:aten::linear"),
                QStringLiteral("matched:aten::relu")}));
        const DiffEntry &e = diff->entries()[2];
        QCOMPARE(e.changes, uint8_t(InputDimsChanged));
        QCOMPARE(e.delta(DiffMetric::FwdGpu), 30000.0);
        QCOMPARE(e.delta(DiffMetric::BwdGpu), 60000.0);
        QCOMPARE(diff->count(DiffStatus::ShapeChanged), 1u);

        const DiffTable table(*diff);
        QCOMPARE(cell(table, 0, DiffTable::Status), QStringLiteral("shape_changed"));
        QCOMPARE(cell(table, 0, DiffTable::Changes), QStringLiteral("input_dims"));
        QCOMPARE(cell(table, 0, DiffTable::InputDimsBase), QStringLiteral("[[8,16],[32,16],[32]]"));
        QCOMPARE(cell(table, 0, DiffTable::InputDimsCandidate),
            QStringLiteral("[[32,16],[32,16],[32]]"));
        QCOMPARE(cell(table, 0, DiffTable::metricColumn(DiffMetric::FwdGpu) + 3),
            QStringLiteral("3.0000"));

        // By op group each side counts in its own group: the old shape loses one linear
        // (10 µs), the new shape gains one (40 µs).
        const auto &groups = diff->groups(DiffGrouping::Op);
        QCOMPARE(groups.size(), size_t(3));
        QCOMPARE(groups[0].name, std::string("aten::linear"));
        QCOMPARE(groups[0].baseCount, 2u);
        QCOMPARE(groups[0].candidateCount, 1u);
        QCOMPARE(groups[0].delta(DiffMetric::FwdGpu), -10000.0);
        QCOMPARE(groups[0].statusCount[size_t(DiffStatus::Matched)], 1u);
        QCOMPARE(groups[0].statusCount[size_t(DiffStatus::ShapeChanged)], 1u);
        QCOMPARE(groups[1].name, std::string("aten::relu"));
        QCOMPARE(groups[1].delta(DiffMetric::FwdGpu), 0.0);
        QCOMPARE(groups[2].inputDims, std::string("[[32,16],[32,16],[32]]"));
        QCOMPARE(groups[2].baseCount, 0u);
        QCOMPARE(groups[2].candidateCount, 1u);
        QCOMPARE(groups[2].delta(DiffMetric::FwdGpu), 40000.0);

        const DiffGroupTable byOp(*diff, DiffGrouping::Op);
        QCOMPARE(csvLines(byOp).first(),
            QStringLiteral("fwd_name,input_dims,bwd_names,count_base,count_candidate,matched,"
                           "shape_changed,changed,only_base,only_candidate,base_fwd_gpu_us,"
                           "cand_fwd_gpu_us,delta_fwd_gpu_us,rel_fwd_gpu,base_bwd_gpu_us,"
                           "cand_bwd_gpu_us,delta_bwd_gpu_us,rel_bwd_gpu,base_fwd_cpu_us,"
                           "cand_fwd_cpu_us,delta_fwd_cpu_us,rel_fwd_cpu,base_bwd_cpu_us,"
                           "cand_bwd_cpu_us,delta_bwd_cpu_us,rel_bwd_cpu,base_fwd_kernels,"
                           "cand_fwd_kernels,delta_fwd_kernels,base_bwd_kernels,cand_bwd_kernels,"
                           "delta_bwd_kernels,base_held_bytes,cand_held_bytes,delta_held_bytes,"
                           "base_fwd_tflops,cand_fwd_tflops,rel_fwd_tflops,base_bwd_tflops,"
                           "cand_bwd_tflops,rel_bwd_tflops"));
        // Largest change first: the new shape (+40 +80), then the old one (-10 -20).
        QCOMPARE(cell(byOp, 0, 1), QStringLiteral("[[32,16],[32,16],[32]]"));
        QCOMPARE(cell(byOp, 0, byOp.metricColumn(DiffMetric::FwdGpu)), QString());
        QCOMPARE(
            cell(byOp, 0, byOp.metricColumn(DiffMetric::FwdGpu) + 2), QStringLiteral("40.000"));
        QCOMPARE(cell(byOp, 1, 1), QStringLiteral("[[8,16],[32,16],[32]]"));
        QCOMPARE(
            cell(byOp, 1, byOp.metricColumn(DiffMetric::BwdGpu) + 2), QStringLiteral("-20.000"));
        QCOMPARE(
            cell(byOp, 1, byOp.metricColumn(DiffMetric::BwdGpu) + 3), QStringLiteral("-0.5000"));
    }

    /*
     * An op moved to another place is removed at the old place and inserted at the new one, by
     * the exact alignment and by the occurrence fallback alike (exactAlignCells = 0 forces it).
     */
    void opMoved()
    {
        const Op drop = op("aten::dropout", "[[8, 32]]", "NativeDropoutBackward0", 7, 8);
        const Op conv = op("aten::conv2d", "[[8, 3, 32, 32]]", "ConvolutionBackward0", 30, 60);
        auto a = linked({{linear(), relu(), drop, conv}});
        auto b = linked({{linear(), drop, relu(), conv}});
        // Repeated identical layers around a moved op: L L L X L against L L X L L.
        auto c = linked({{linear(), linear(), linear(), drop, linear()}});
        auto d = linked({{linear(), linear(), drop, linear(), linear()}});
        QVERIFY(a && b && c && d);
        DiffOptions fallback;
        fallback.exactAlignCells = 0;
        for (const DiffOptions &options : {DiffOptions {}, fallback}) {
            auto diff = TraceDiff::compare(*a->graph, *b->graph, options);
            QVERIFY(diff);
            QCOMPARE(shape(*diff),
                QStringList({QStringLiteral("matched:aten::linear"),
                    QStringLiteral("only_base:aten::relu"), QStringLiteral("matched:aten::dropout"),
                    QStringLiteral("only_candidate:aten::relu"),
                    QStringLiteral("matched:aten::conv2d")}));
            QCOMPARE(diff->entries()[2].base.row, 2);
            QCOMPARE(diff->entries()[2].candidate.row, 1);

            auto repeated = TraceDiff::compare(*c->graph, *d->graph, options);
            QVERIFY(repeated);
            QCOMPARE(shape(*repeated),
                QStringList(
                    {QStringLiteral("matched:aten::linear"), QStringLiteral("matched:aten::linear"),
                        QStringLiteral("only_base:aten::linear"),
                        QStringLiteral("matched:aten::dropout"),
                        QStringLiteral("only_candidate:aten::linear"),
                        QStringLiteral("matched:aten::linear")}));
        }
    }

    //! Same op, dims and place but another module class or backward node: "changed".
    void otherChanges()
    {
        Op a1 = linear(), b1 = linear();
        a1.module = "Model_0/LayerNorm_0";
        b1.module = "Model_0/RMSNorm_0";
        Op a2 = op("aten::mul", "[[4]]", "MulBackward0"),
           b2 = op("aten::mul", "[[4]]", "MulBackward1");
        auto a = linked({{a1, a2}});
        auto b = linked({{b1, b2}});
        QVERIFY(a && b);
        auto diff = TraceDiff::compare(*a->graph, *b->graph);
        QVERIFY(diff);
        QCOMPARE(shape(*diff),
            QStringList(
                {QStringLiteral("changed:aten::linear"), QStringLiteral("changed:aten::mul")}));
        QCOMPARE(diff->entries()[0].changes, uint8_t(ModuleChanged));
        QCOMPARE(diff->entries()[1].changes, uint8_t(BwdNamesChanged));
        QCOMPARE(diff->modulePath(false, 0), std::string("Model_0/LayerNorm_0"));
        QCOMPARE(diff->modulePath(true, 0), std::string("Model_0/RMSNorm_0"));
        const DiffTable table(*diff, DiffOrder::Structural);
        QCOMPARE(cell(table, 0, DiffTable::Changes), QStringLiteral("module"));
        QCOMPARE(cell(table, 0, DiffTable::ModuleBase), QStringLiteral("Model_0/LayerNorm_0"));
        QCOMPARE(cell(table, 0, DiffTable::ModuleCandidate), QStringLiteral("Model_0/RMSNorm_0"));
        QCOMPARE(cell(table, 1, DiffTable::BwdNamesBase), QStringLiteral("MulBackward0"));
        QCOMPARE(cell(table, 1, DiffTable::BwdNamesCandidate), QStringLiteral("MulBackward1"));
    }

    /*
     * Repeated identical layers (Model_0/Layer_k > linear, relu). A removed or inserted layer
     * cannot be told from its neighbours by structure: the rule reports it at the end of the
     * run. Instance numbers are not part of the key, so the shifted names still match.
     */
    void repeatedLayers()
    {
        auto layers = [](std::initializer_list<int> gpu) {
            std::vector<Op> ops;
            int k = 0;
            for (int g : gpu) {
                Op l = linear(g, 2 * g), r = relu();
                l.module = r.module = "Model_0/Layer_" + std::to_string(k++);
                ops.push_back(l);
                ops.push_back(r);
            }
            return std::vector<std::vector<Op>> {ops};
        };
        auto base = linked(layers({10, 11, 12, 13}));
        auto fewer = linked(layers({10, 11, 12}));
        auto more = linked(layers({10, 11, 50, 12, 13}));
        QVERIFY(base && fewer && more);

        auto removed = TraceDiff::compare(*base->graph, *fewer->graph);
        QVERIFY(removed);
        QCOMPARE(removed->count(DiffStatus::Matched), 6u);
        QCOMPARE(removed->count(DiffStatus::OnlyBase), 2u);
        QCOMPARE(shape(*removed).mid(6),
            QStringList({QStringLiteral("only_base:aten::linear"),
                QStringLiteral("only_base:aten::relu")}));
        QCOMPARE(removed->entries()[6].base.row, 6);
        QCOMPARE(removed->modulePath(false, 6), std::string("Model_0/Layer_3"));
        for (size_t i = 0; i < 6; ++i)
            QCOMPARE(removed->entries()[i].delta(DiffMetric::FwdGpu), 0.0);

        // Inserted after Layer_1: matched in order, so base Layer_2 (12 µs) faces the new layer
        // (50 µs), base Layer_3 faces candidate Layer_3 (12 µs), and candidate Layer_4 is extra.
        auto inserted = TraceDiff::compare(*base->graph, *more->graph);
        QVERIFY(inserted);
        QCOMPARE(inserted->count(DiffStatus::Matched), 8u);
        QCOMPARE(inserted->count(DiffStatus::OnlyCandidate), 2u);
        const auto &e = inserted->entries();
        QCOMPARE(e[4].delta(DiffMetric::FwdGpu), 38000.0);
        QCOMPARE(e[6].delta(DiffMetric::FwdGpu), -1000.0);
        QCOMPARE(status(e[8]), QStringLiteral("only_candidate"));
        QCOMPARE(
            inserted->modulePath(true, size_t(e[8].candidate.row)), std::string("Model_0/Layer_4"));
        QCOMPARE(e[8].delta(DiffMetric::FwdGpu), 13000.0);

        // By module: per instance path, each side in its own group.
        const auto &modules = inserted->groups(DiffGrouping::Module);
        QCOMPARE(modules.size(), size_t(5));
        QCOMPARE(modules[2].name, std::string("Model_0/Layer_2"));
        QCOMPARE(modules[2].delta(DiffMetric::FwdGpu), 38000.0);
        QCOMPARE(modules[4].name, std::string("Model_0/Layer_4"));
        QCOMPARE(modules[4].baseCount, 0u);
        QCOMPARE(modules[4].candidateCount, 2u);
        // By module type: all layers together, the change is the new layer's 50 + 3 µs.
        const auto &types = inserted->groups(DiffGrouping::ModuleType);
        QCOMPARE(types.size(), size_t(1));
        QCOMPARE(types[0].name, std::string("Layer"));
        QCOMPARE(types[0].baseCount, 8u);
        QCOMPARE(types[0].candidateCount, 10u);
        QCOMPARE(types[0].delta(DiffMetric::FwdGpu), 53000.0);
        const DiffGroupTable byType(*inserted, DiffGrouping::ModuleType);
        QCOMPARE(byType.columnName(0), std::string_view("module_type"));
        QCOMPARE(
            cell(byType, 0, byType.metricColumn(DiffMetric::FwdGpu) + 2), QStringLiteral("53.000"));
        QCOMPARE(cell(byType, 0, byType.countColumn()), QStringLiteral("8"));
    }

    void modulePaths()
    {
        QCOMPARE(
            moduleClassPath("Model_0/Encoder_12/Linear_3"), std::string("Model/Encoder/Linear"));
        QCOMPARE(moduleClassPath("Model/Block_a/_1/x_"), std::string("Model/Block_a/_1/x_"));
        QCOMPARE(moduleClassPath(""), std::string());
        Op l = linear();
        l.module = "Model_0/Encoder_0/Linear_3";
        auto t = linked({{l, relu()}});
        QVERIFY(t);
        auto diff = TraceDiff::compare(*t->graph, *t->graph);
        QVERIFY(diff);
        QCOMPARE(diff->modulePath(false, 0), std::string("Model_0/Encoder_0/Linear_3"));
        // The relu runs outside every module.
        QCOMPARE(diff->modulePath(false, 1), std::string("(no module)"));
    }

    /*
     * Issue #20 (6): a trace with record_function scopes and no nn.Module rolled up by module
     * gave one row with a blank name. The rows are the scopes the Modules tab shows, and the
     * work outside every scope is "(no module)". Figures by hand from the generated ops:
     *   base:      linear 11/21 in "## forward ##", relu 3/4 in "## forward ##/## head ##",
     *              mul 5/6 and linear 12/22 outside any scope;
     *   candidate: the same with relu 8/4 and mul 9/6 (fwd/bwd GPU µs).
     */
    void scopesWithoutModules()
    {
        auto scoped = [](Op o, const char *scope) {
            o.scope = scope;
            return o;
        };
        const Op mulBase = op("aten::mul", "[[4]]", "MulBackward0", 5, 6);
        const Op mulCand = op("aten::mul", "[[4]]", "MulBackward0", 9, 6);
        auto a = linked({{scoped(linear(11, 21), "## forward ##"),
            scoped(relu(3, 4), "## forward ##/## head ##"), mulBase, linear(12, 22)}});
        auto b = linked({{scoped(linear(11, 21), "## forward ##"),
            scoped(relu(8, 4), "## forward ##/## head ##"), mulCand, linear(12, 22)}});
        QVERIFY(a && b);
        // The Modules tab's tree of this trace: the two scopes.
        const auto tree = ModuleTree::build(*a->graph);
        QCOMPARE(tree->source(), ModuleTree::Source::Annotations);
        QVERIFY(tree->find("## forward ##/## head ##") != kNoModule);

        auto diff = TraceDiff::compare(*a->graph, *b->graph);
        QVERIFY(diff);
        QCOMPARE(diff->count(DiffStatus::Matched), 4u);
        QCOMPARE(diff->modulePath(false, 1), std::string("## forward ##/## head ##"));
        QCOMPARE(diff->modulePath(true, 2), std::string("(no module)"));

        struct Expected {
            const char *name;
            uint32_t count;
            double baseFwd, candFwd, baseBwd; // ns
        };
        auto check = [&](DiffGrouping grouping, const std::vector<Expected> &expected) {
            const auto &groups = diff->groups(grouping);
            QCOMPARE(groups.size(), expected.size());
            for (size_t i = 0; i < expected.size(); ++i) {
                const DiffGroup &g = groups[i];
                QCOMPARE(g.name, std::string(expected[i].name));
                QCOMPARE(g.baseCount, expected[i].count);
                QCOMPARE(g.candidateCount, expected[i].count);
                QCOMPARE(g.statusCount[size_t(DiffStatus::Matched)], expected[i].count);
                QCOMPARE(metric(g.base, DiffMetric::FwdGpu), expected[i].baseFwd);
                QCOMPARE(metric(g.candidate, DiffMetric::FwdGpu), expected[i].candFwd);
                QCOMPARE(metric(g.base, DiffMetric::BwdGpu), expected[i].baseBwd);
                QCOMPARE(metric(g.candidate, DiffMetric::BwdGpu), expected[i].baseBwd);
            }
        };
        // In order of first appearance.
        check(DiffGrouping::Module,
            {{"## forward ##", 1, 11000, 11000, 21000},
                {"## forward ##/## head ##", 1, 3000, 8000, 4000},
                {"(no module)", 2, 5000 + 12000, 9000 + 12000, 6000 + 22000}});
        check(DiffGrouping::ModuleType,
            {{"## forward ##", 1, 11000, 11000, 21000}, {"## head ##", 1, 3000, 8000, 4000},
                {"(no module)", 2, 17000, 21000, 28000}});

        // The export: one row per scope, the largest change first (head +5 µs, then +4 µs).
        const DiffGroupTable byModule(*diff, DiffGrouping::Module);
        QCOMPARE(byModule.columnName(0), std::string_view("module"));
        QCOMPARE(byModule.rowCount(), size_t(3));
        QCOMPARE(cell(byModule, 0, 0), QStringLiteral("## forward ##/## head ##"));
        QCOMPARE(cell(byModule, 0, byModule.metricColumn(DiffMetric::FwdGpu) + 2),
            QStringLiteral("5.000"));
        QCOMPARE(cell(byModule, 1, 0), QStringLiteral("(no module)"));
        QCOMPARE(cell(byModule, 1, byModule.countColumn()), QStringLiteral("2"));
        QCOMPARE(cell(byModule, 1, byModule.metricColumn(DiffMetric::FwdGpu) + 2),
            QStringLiteral("4.000"));
        // The pair rows name the same modules.
        const DiffTable pairs(*diff, DiffOrder::Structural);
        QCOMPARE(
            cell(pairs, 1, DiffTable::ModuleCandidate), QStringLiteral("## forward ##/## head ##"));
        QCOMPARE(cell(pairs, 3, DiffTable::ModuleBase), QStringLiteral("(no module)"));
    }

    /*
     * The DLRM ranks record record_function scopes only: by module, no row has a blank name, and
     * every pair's module is the innermost chain of scopes around its forward op, found here by
     * walking the slices' parents (the tree's paths), or "(no module)".
     */
    void dlrmModules()
    {
        auto r0
            = openShared(QStringLiteral("param_dlrm_worker0_step_12.1694128201545.pt.trace.json"));
        auto r1
            = openShared(QStringLiteral("param_dlrm_worker1_step_12.1694128201556.pt.trace.json"));
        if (!r0 || !r1)
            QSKIP("../shared/traces (the DLRM ranks) is absent");
        auto diff = TraceDiff::compare(*r0->graph, *r1->graph);
        QVERIFY(diff);
        for (const auto *trace : {r0.get(), r1.get()}) {
            const bool c = trace == r1.get();
            const OpGraph &g = *trace->graph;
            const TraceModel &m = g.model();
            const auto tree = ModuleTree::build(g);
            QCOMPARE(tree->source(), ModuleTree::Source::Annotations);
            int scoped = 0;
            for (size_t r = 0; r < g.rows().size(); ++r) {
                std::string expected;
                const SliceId f = g.rows()[r].forward;
                for (SliceId p = f == kNoSlice ? kNoSlice : m.slices.parent[f]; p != kNoSlice;
                     p = m.slices.parent[p]) {
                    const std::string_view name = m.sliceName(p);
                    if (m.slices.kind[p] != EventKind::UserAnnotation
                        || name.starts_with("ProfilerStep#"))
                        continue;
                    expected
                        = expected.empty() ? std::string(name) : std::string(name) + '/' + expected;
                }
                scoped += !expected.empty();
                if (expected.empty())
                    expected = "(no module)";
                else
                    QVERIFY(tree->find(expected) != kNoModule);
                QCOMPARE(diff->modulePath(c, r), expected);
            }
            QVERIFY(scoped > 0);
            for (const DiffGroup &group : diff->groups(DiffGrouping::Module)) {
                QVERIFY(!group.name.empty());
                QVERIFY(group.name == "(no module)" || tree->find(group.name) != kNoModule);
            }
            for (const DiffGroup &group : diff->groups(DiffGrouping::ModuleType))
                QVERIFY(!group.name.empty());
        }
        // Several scopes, not one blank row; the ranks run the same scopes.
        QVERIFY(diff->groups(DiffGrouping::Module).size() > 1);
        for (const DiffGroup &group : diff->groups(DiffGrouping::Module))
            QCOMPARE(group.baseCount, group.candidateCount);
    }

    //! Chosen steps, steps by position, and the mean over steps.
    void steps()
    {
        // Base steps 1, 2: linear 10 / 30 µs. Candidate steps 5, 6, 7: 20 / 40 / 60 µs.
        auto a = linked({{linear(10), relu()}, {linear(30), relu()}}, 1);
        auto b = linked({{linear(20), relu()}, {linear(40), relu()}, {linear(60), relu()}}, 5);
        QVERIFY(a && b);

        DiffOptions chosen;
        chosen.baseStep = 2;
        chosen.candidateStep = 5;
        auto one = TraceDiff::compare(*a->graph, *b->graph, chosen);
        QVERIFY(one);
        QCOMPARE(one->entries().size(), size_t(2));
        QCOMPARE(one->entries()[0].base.step, 2);
        QCOMPARE(one->entries()[0].candidate.step, 5);
        QCOMPARE(one->entries()[0].delta(DiffMetric::FwdGpu), -10000.0);

        // Steps by position: 1↔5, 2↔6, and 7 alone.
        auto byPosition = TraceDiff::compare(*a->graph, *b->graph);
        QVERIFY(byPosition);
        QCOMPARE(byPosition->stepSlots().size(), size_t(3));
        QCOMPARE(byPosition->stepSlots()[2].baseStep, kNoValue);
        QCOMPARE(byPosition->stepSlots()[2].candidateStep, 7);
        QCOMPARE(byPosition->count(DiffStatus::Matched), 4u);
        QCOMPARE(byPosition->count(DiffStatus::OnlyCandidate), 2u);
        QCOMPARE(byPosition->entries()[2].delta(DiffMetric::FwdGpu), 10000.0);

        // Mean: base linear (10 + 30) / 2 = 20 µs, candidate (20 + 40 + 60) / 3 = 40 µs.
        DiffOptions mean;
        mean.meanOverSteps = true;
        auto averaged = TraceDiff::compare(*a->graph, *b->graph, mean);
        QVERIFY(averaged);
        QCOMPARE(averaged->stepSlots().size(), size_t(1));
        QVERIFY(averaged->stepSlots()[0].mean);
        QCOMPARE(averaged->entries().size(), size_t(2));
        const DiffEntry &e = averaged->entries()[0];
        QCOMPARE(e.base.occurrences, 2u);
        QCOMPARE(e.candidate.occurrences, 3u);
        QCOMPARE(metric(e.base.values, DiffMetric::FwdGpu), 20000.0);
        QCOMPARE(metric(e.candidate.values, DiffMetric::FwdGpu), 40000.0);
        QCOMPARE(e.delta(DiffMetric::FwdKernels), 0.0);
        const DiffTable table(*averaged, DiffOrder::Structural);
        QCOMPARE(cell(table, 0, DiffTable::StepBase), QString());
        QCOMPARE(cell(table, 0, DiffTable::NBase), QStringLiteral("2"));
        QCOMPARE(cell(table, 0, DiffTable::NCandidate), QStringLiteral("3"));
        QCOMPARE(cell(table, 0, DiffTable::metricColumn(DiffMetric::FwdGpu) + 3),
            QStringLiteral("1.0000"));

        // A missing step is an error, not an empty comparison.
        DiffOptions missing;
        missing.baseStep = 4;
        std::string error;
        QVERIFY(!TraceDiff::compare(*a->graph, *b->graph, missing, &error));
        QCOMPARE(QString::fromStdString(error),
            QStringLiteral("the base trace has no ProfilerStep#4 (steps: 1, 2)"));
        // Only one side given: the other side takes the same number.
        missing.baseStep = 2;
        QVERIFY(!TraceDiff::compare(*a->graph, *b->graph, missing, &error));
        QCOMPARE(QString::fromStdString(error),
            QStringLiteral("the candidate trace has no ProfilerStep#2 (steps: 5, 6, 7)"));
        mean.baseStep = 1;
        QVERIFY(!TraceDiff::compare(*a->graph, *b->graph, mean, &error));

        // A cancelled comparison stops and says so; the flag unset changes nothing.
        std::atomic<bool> stop {true};
        DiffOptions cancelled;
        cancelled.cancel = &stop;
        QVERIFY(!TraceDiff::compare(*a->graph, *b->graph, cancelled, &error));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("cancelled"));
        stop = false;
        const auto notCancelled = TraceDiff::compare(*a->graph, *b->graph, cancelled);
        QVERIFY(notCancelled);
        QCOMPARE(notCancelled->entries().size(), byPosition->entries().size());
        QCOMPARE(notCancelled->options().cancel, nullptr);
    }

    //! Mean mode with a layer present in some steps only keeps it in place.
    void meanWithIrregularSteps()
    {
        // Step 1: linear, relu; step 2: linear, dropout, relu. Folded: linear, dropout, relu.
        auto a = linked({{linear(10), relu()},
            {linear(20), op("aten::dropout", "[[8, 32]]", "NativeDropoutBackward0", 6, 6),
                relu()}});
        QVERIFY(a);
        DiffOptions mean;
        mean.meanOverSteps = true;
        auto diff = TraceDiff::compare(*a->graph, *a->graph, mean);
        QVERIFY(diff);
        QCOMPARE(shape(*diff),
            QStringList({QStringLiteral("matched:aten::linear"),
                QStringLiteral("matched:aten::dropout"), QStringLiteral("matched:aten::relu")}));
        QCOMPARE(diff->entries()[0].base.occurrences, 2u);
        QCOMPARE(metric(diff->entries()[0].base.values, DiffMetric::FwdGpu), 15000.0);
        QCOMPARE(diff->entries()[1].base.occurrences, 1u);
        QCOMPARE(metric(diff->entries()[1].base.values, DiffMetric::FwdGpu), 6000.0);
    }

    //! CSV and JSON through exportTable.
    void exports()
    {
        auto a = linked({{linear(10, 20), relu()}});
        auto b = linked({{linear(12, 20, "[[4, 16], [32, 16], [32]]"), relu()}});
        QVERIFY(a && b);
        auto diff = TraceDiff::compare(*a->graph, *b->graph);
        QVERIFY(diff);
        const DiffTable table(*diff);
        QCOMPARE(csvLines(table).first(),
            QStringLiteral("status,changes,fwd_name,bwd_names_base,bwd_names_candidate,"
                           "input_dims_base,input_dims_candidate,module_base,module_candidate,"
                           "step_base,step_candidate,n_base,n_candidate,fwd_ts_base,"
                           "fwd_ts_candidate,base_fwd_gpu_us,cand_fwd_gpu_us,delta_fwd_gpu_us,"
                           "rel_fwd_gpu,base_bwd_gpu_us,cand_bwd_gpu_us,delta_bwd_gpu_us,"
                           "rel_bwd_gpu,base_fwd_cpu_us,cand_fwd_cpu_us,delta_fwd_cpu_us,"
                           "rel_fwd_cpu,base_bwd_cpu_us,cand_bwd_cpu_us,delta_bwd_cpu_us,"
                           "rel_bwd_cpu,base_fwd_kernels,cand_fwd_kernels,delta_fwd_kernels,"
                           "base_bwd_kernels,cand_bwd_kernels,delta_bwd_kernels,base_held_bytes,"
                           "cand_held_bytes,delta_held_bytes,base_fwd_tflops,cand_fwd_tflops,"
                           "rel_fwd_tflops,base_bwd_tflops,cand_bwd_tflops,rel_bwd_tflops"));
        QCOMPARE(csvLines(table).at(1),
            QStringLiteral("shape_changed,input_dims,aten::linear,AddmmBackward0,AddmmBackward0,"
                           "\"[[8,16],[32,16],[32]]\",\"[[4,16],[32,16],[32]]\",aten::linear,"
                           "aten::linear,1,1,1,1,110,110,"
                           "10.000,12.000,2.000,0.2000,20.000,20.000,0.000,0.0000,50.000,50.000,"
                           "0.000,0.0000,80.000,80.000,0.000,0.0000,1,1,0,1,1,0,,,,,,,,,"));

        const QString path = test::tempDir() + QStringLiteral("/diff.json");
        std::string error;
        QVERIFY(exportTable(table, path.toStdString(), error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonParseError parseError;
        const QJsonArray rows = QJsonDocument::fromJson(f.readAll(), &parseError).array();
        QCOMPARE(parseError.error, QJsonParseError::NoError);
        QCOMPARE(rows.size(), 2);
        const QJsonObject first = rows[0].toObject();
        QCOMPARE(first[QStringLiteral("status")].toString(), QStringLiteral("shape_changed"));
        QCOMPARE(first[QStringLiteral("input_dims_candidate")].toArray().size(), 3);
        QCOMPARE(first[QStringLiteral("delta_fwd_gpu_us")].toDouble(), 2.0);
        QCOMPARE(first[QStringLiteral("step_base")].toInt(), 1);
        QCOMPARE(first[QStringLiteral("module_base")].toString(), QStringLiteral("aten::linear"));
        QCOMPARE(rows[1].toObject()[QStringLiteral("changes")].toString(), QString());

        // Without modules or scopes the rows are the outermost ops: linear and relu.
        const DiffGroupTable byModule(*diff, DiffGrouping::Module);
        QCOMPARE(byModule.rowCount(), size_t(2));
        QVERIFY(exportTable(
            byModule, QString(test::tempDir() + QStringLiteral("/m.csv")).toStdString(), error));
    }

    /*
     * A shared trace against a copy in which the test doubled the duration of every cuDNN
     * batch-norm backward kernel: every pair still matches, and each pair's backward GPU time
     * grows by exactly the duration of those kernels under it, nothing else changes.
     */
    void scaledKernels()
    {
        const QString dir = test::sharedTracesDir();
        if (dir.isEmpty())
            QSKIP("../shared/traces is absent");
        const QString path = dir + QStringLiteral("/hta_nccl_parser_config_nccl_data.json.gz");
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = gunzip(f.readAll());
        QVERIFY(!text.isEmpty());
        auto base
            = openTraceText(std::string_view(text.constData(), size_t(text.size())), "base").trace;
        QVERIFY(base);
        const QByteArray pattern = "bn_bw_1C11";
        int64_t added = 0;
        const int edited = doubleKernels(text, pattern, added);
        QVERIFY(edited > 0);
        auto candidate
            = openTraceText(std::string_view(text.constData(), size_t(text.size())), "candidate")
                  .trace;
        QVERIFY(candidate);

        const OpGraph &g = *base->graph;
        const TraceModel &m = g.model();
        // Expected per row: the durations of the pattern's kernels under its backward nodes.
        auto scaledUnder = [&](SliceId s) {
            int64_t sum = 0;
            for (SliceId k : g.gpuEventsUnder(s)) {
                if (m.sliceName(k).find(pattern.constData()) != std::string_view::npos)
                    sum += m.slices.dur[k];
            }
            return sum;
        };
        int64_t expectedTotal = 0;
        int kernelsSeen = 0;
        for (SliceId k : g.gpuEvents())
            kernelsSeen += m.sliceName(k).find(pattern.constData()) != std::string_view::npos;
        QCOMPARE(kernelsSeen, edited);

        for (const DiffOptions &options : {DiffOptions {}, DiffOptions {4, 4, false}}) {
            auto diff = TraceDiff::compare(g, *candidate->graph, options);
            QVERIFY(diff);
            QCOMPARE(diff->count(DiffStatus::Matched), uint32_t(diff->entries().size()));
            QCOMPARE(diff->entries().size(), options.baseStep ? size_t(176) : g.rows().size());
            int changedRows = 0;
            expectedTotal = 0;
            for (const DiffEntry &e : diff->entries()) {
                QCOMPARE(e.base.row, e.candidate.row); // same text elsewhere: same rows
                const PairRow &row = g.rows()[size_t(e.base.row)];
                QVERIFY(row.forward != kNoSlice); // every row of this trace has its forward op
                int64_t expected = 0;
                for (uint32_t i : g.nodesOf(row))
                    expected += scaledUnder(g.nodes()[i].outer);
                QCOMPARE(scaledUnder(row.forward), int64_t(0));
                QCOMPARE(e.delta(DiffMetric::BwdGpu), double(expected));
                QCOMPARE(e.delta(DiffMetric::FwdGpu), 0.0);
                QCOMPARE(e.delta(DiffMetric::FwdCpu), 0.0);
                QCOMPARE(e.delta(DiffMetric::BwdCpu), 0.0);
                QCOMPARE(e.delta(DiffMetric::FwdKernels), 0.0);
                QCOMPARE(e.delta(DiffMetric::BwdKernels), 0.0);
                if (expected) {
                    ++changedRows;
                    QCOMPARE(qs(m.sliceName(row.forward)), QStringLiteral("aten::batch_norm"));
                }
                expectedTotal += expected;
            }
            QVERIFY(changedRows > 0);
            if (!options.baseStep) {
                // Every doubled kernel was launched by a batch-norm backward node.
                QCOMPARE(expectedTotal, added);
                // ... and every batch-norm row (53 per step) launched some.
                const auto batchNorms
                    = std::count_if(g.rows().begin(), g.rows().end(), [&](const PairRow &row) {
                          return row.forward != kNoSlice
                              && m.sliceName(row.forward) == "aten::batch_norm";
                      });
                QCOMPARE(changedRows, int(batchNorms));
            }
            QCOMPARE(metric(diff->candidateTotals(), DiffMetric::BwdGpu)
                    - metric(diff->baseTotals(), DiffMetric::BwdGpu),
                double(expectedTotal));
            // The op-group rollup puts all of it on batch_norm groups.
            double groupTotal = 0;
            for (const DiffGroup &group : diff->groups(DiffGrouping::Op)) {
                if (group.delta(DiffMetric::BwdGpu) != 0) {
                    QCOMPARE(group.name, std::string("aten::batch_norm"));
                    groupTotal += group.delta(DiffMetric::BwdGpu);
                }
            }
            QCOMPARE(groupTotal, double(expectedTotal));
            // Sorted by change, the first row is a batch norm, the last unchanged ones are not.
            const DiffTable table(*diff);
            QCOMPARE(cell(table, 0, DiffTable::FwdName), QStringLiteral("aten::batch_norm"));
            QCOMPARE(
                cell(table, table.rowCount() - 1, DiffTable::metricColumn(DiffMetric::BwdGpu) + 2),
                QStringLiteral("0.000"));
        }

        // Mean over the three steps: per position, the mean of the three steps' changes.
        DiffOptions mean;
        mean.meanOverSteps = true;
        auto averaged = TraceDiff::compare(g, *candidate->graph, mean);
        QVERIFY(averaged);
        QCOMPARE(averaged->entries().size(), size_t(176));
        QCOMPARE(averaged->count(DiffStatus::Matched), 176u);
        QCOMPARE(averaged->entries()[0].base.occurrences, 3u);
        const double total = metric(averaged->candidateTotals(), DiffMetric::BwdGpu)
            - metric(averaged->baseTotals(), DiffMetric::BwdGpu);
        QVERIFY(std::fabs(total - double(added) / 3) < 1.0);
    }

    /*
     * Rank 0 against rank 1 of the DLRM run (same step, ProfilerStep#10): the same model on
     * both, so every pair matches, except the embedding lookup whose indices differ in size per
     * rank (fbgemm::bounds_check_indices: [768] vs [1792] indices). The ranks differ in time:
     * rank 1 waits longer in the all-to-all (forward GPU time of All2All_Pooled_Req).
     */
    void dlrmRanks()
    {
        auto r0
            = openShared(QStringLiteral("param_dlrm_worker0_step_12.1694128201545.pt.trace.json"));
        auto r1
            = openShared(QStringLiteral("param_dlrm_worker1_step_12.1694128201556.pt.trace.json"));
        if (!r0 || !r1)
            QSKIP("../shared/traces is absent");
        const OpGraph &a = *r0->graph, &b = *r1->graph;
        // The README's kernel counts (GPU events also include 16 memcpys on each rank).
        auto kernels = [](const OpGraph &g) {
            return std::count_if(g.gpuEvents().begin(), g.gpuEvents().end(),
                [&](SliceId s) { return g.model().slices.kind[s] == EventKind::Kernel; });
        };
        QCOMPARE(kernels(a), 245);
        QCOMPARE(kernels(b), 310);
        QCOMPARE(a.rows().size(), b.rows().size());

        DiffOptions step10;
        step10.baseStep = 10;
        for (const DiffOptions &options : {DiffOptions {}, step10}) {
            auto diff = TraceDiff::compare(a, b, options);
            QVERIFY(diff);
            QCOMPARE(diff->entries().size(), a.rows().size());
            QCOMPARE(diff->count(DiffStatus::OnlyBase), 0u);
            QCOMPARE(diff->count(DiffStatus::OnlyCandidate), 0u);
            QCOMPARE(diff->count(DiffStatus::ShapeChanged), 1u);
            QCOMPARE(diff->count(DiffStatus::Matched), uint32_t(a.rows().size() - 1));
            for (const DiffEntry &e : diff->entries()) {
                QCOMPARE(e.base.row, e.candidate.row);
                if (e.status == DiffStatus::ShapeChanged) {
                    QCOMPARE(qs(a.model().sliceName(a.rows()[size_t(e.base.row)].forward)),
                        QStringLiteral("fbgemm::bounds_check_indices"));
                    QCOMPARE(e.changes, uint8_t(InputDimsChanged));
                }
            }
            // The diff's totals are the sums over each side's rows.
            DiffValues sumA {}, sumB {};
            for (const PairRow &row : a.rows()) {
                sumA[size_t(DiffMetric::FwdGpu)] += double(row.forwardGpu.time);
                sumA[size_t(DiffMetric::BwdKernels)] += row.backwardGpu.count;
            }
            for (const PairRow &row : b.rows()) {
                sumB[size_t(DiffMetric::FwdGpu)] += double(row.forwardGpu.time);
                sumB[size_t(DiffMetric::BwdKernels)] += row.backwardGpu.count;
            }
            QCOMPARE(
                metric(diff->baseTotals(), DiffMetric::FwdGpu), metric(sumA, DiffMetric::FwdGpu));
            QCOMPARE(metric(diff->candidateTotals(), DiffMetric::BwdKernels),
                metric(sumB, DiffMetric::BwdKernels));

            // Largest change: the all-to-all request waits several ms longer on rank 1.
            const DiffTable table(*diff);
            QCOMPARE(cell(table, 0, DiffTable::FwdName), QStringLiteral("All2All_Pooled_Req"));
            QVERIFY(table.number(0, DiffTable::metricColumn(DiffMetric::FwdGpu) + 2) > 5e6);
            const int bwdKernels = column(table, "delta_bwd_kernels");
            QVERIFY(bwdKernels > 0);
            double kernelDelta = 0;
            for (size_t r = 0; r < table.rowCount(); ++r)
                kernelDelta += table.number(r, size_t(bwdKernels));
            QCOMPARE(kernelDelta,
                metric(sumB, DiffMetric::BwdKernels) - metric(sumA, DiffMetric::BwdKernels));
            // Pair by pair, rank 1 launches one more backward kernel (the embedding lookup's
            // backward: 14 → 15); its 65 extra kernels are otherwise outside the pairs.
            QCOMPARE(kernelDelta, 1.0);
            QCOMPARE(metric(diff->candidateTotals(), DiffMetric::FwdKernels),
                metric(diff->baseTotals(), DiffMetric::FwdKernels));
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceDiff)
#include "tst_tracediff.moc"
