// SPDX-License-Identifier: MIT
// The linker on the real traces of ../shared/traces, checked against numbers computed
// independently: the Python reference (tests/reference, written from trace-format.md without
// looking at the C++), and rows verified by hand with a direct scan of the JSON.
#include "analysis/efficiency/opefficiency.h"
#include "export/pairtable.h"
#include "export/summary.h"
#include "link/gpuside.h"
#include "modeldump.h"
#include "testutil.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <map>

using namespace ks;

namespace {

struct Loaded {
    std::shared_ptr<const LoadedTrace> trace;
    QJsonObject reference;
    QByteArray referenceCsv;
};

//! Each trace is loaded and run through the reference once per test process.
Loaded &loaded(const QString &path)
{
    static std::map<QString, Loaded> cache;
    auto it = cache.find(path);
    if (it != cache.end())
        return it->second;
    Loaded l;
    OpenResult r = openTrace(path.toStdString());
    l.trace = r.trace;
    const QString csv = test::tempDir() + QStringLiteral("/reference-") + QFileInfo(path).fileName()
        + QStringLiteral(".csv");
    l.reference = QJsonDocument::fromJson(test::referenceSummary(path, csv)).object();
    QFile f(csv);
    if (f.open(QIODevice::ReadOnly))
        l.referenceCsv = f.readAll();
    return cache.emplace(path, std::move(l)).first->second;
}

QStringList strings(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *s : items)
        out << QString::fromUtf8(s);
    return out;
}

int rowWith(const PairTable &table, const std::string &name, const std::string &ts)
{
    for (size_t r = 0; r < table.rowCount(); ++r) {
        if (table.text(r, PairTable::FwdName) == name && table.text(r, PairTable::FwdTs) == ts)
            return int(r);
    }
    return -1;
}

} // namespace

class TestSharedTraces : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (test::sharedTracesDir().isEmpty())
            QSKIP("../shared/traces is absent (a user's clone has none): real-trace tests skipped");
        QVERIFY2(test::sharedTraces().size() >= 8, "expected the 8 shared traces");
    }

    void addTraces()
    {
        QTest::addColumn<QString>("path");
        for (const QString &p : test::sharedTraces())
            QTest::newRow(qPrintable(QFileInfo(p).fileName())) << p;
    }

    void summaryMatchesReference_data() { addTraces(); }
    void summaryMatchesReference()
    {
        QFETCH(QString, path);
        Loaded &l = loaded(path);
        QVERIFY2(l.trace, "the trace must load");
        QVERIFY2(!l.reference.isEmpty(), "the Python reference must run (python3 needed)");
        const QJsonObject ours = QJsonDocument::fromJson(
            QByteArray::fromStdString(summaryJson(*l.trace->model, *l.trace->graph, 0)))
                                     .object();
        for (const char *key : {"events", "cpu_ops", "gpu_events", "flows", "steps",
                 "fwd_bwd_pairs", "pairs_from_flows", "pairs_from_sequence", "unpaired_backward",
                 "gpu_events_attributed"}) {
            const QString k = QString::fromLatin1(key);
            QVERIFY2(l.reference.contains(k), key);
            QCOMPARE(ours.value(k).toInteger(), l.reference.value(k).toInteger());
        }
        // µs with 3 decimals on both sides: equal to the ns.
        QCOMPARE(qRound64(ours.value(QStringLiteral("recompute_gpu_us")).toDouble() * 1000),
            qRound64(l.reference.value(QStringLiteral("recompute_gpu_us")).toDouble() * 1000));
        QCOMPARE(ours.value(QStringLiteral("truncated")).toBool(), false);
    }

    void pairTableMatchesReference_data() { addTraces(); }
    void pairTableMatchesReference()
    {
        QFETCH(QString, path);
        Loaded &l = loaded(path);
        QVERIFY(l.trace);
        QVERIFY2(!l.referenceCsv.isEmpty(), "the reference wrote no CSV");
        // The reference computes the columns of cli.md; the memory columns after them
        // (fwd_alloc_bytes, held_bytes, bwd_alloc_bytes: plain numbers, never quoted;
        // held_until: a node or op name, none with a comma) are checked by tests/core/tst_memory,
        // the efficiency ones (numbers and compute|memory) by tst_opefficiency, critical_us (a
        // number) by tst_criticalpath.
        QByteArray ours;
        for (const QByteArray &line :
            QByteArray::fromStdString(tableToCsv(PairTable(*l.trace->graph))).split('\n')) {
            if (line.isEmpty())
                continue;
            qsizetype cut = line.size();
            for (int k = 0; k < 10; ++k)
                cut = line.lastIndexOf(',', cut - 1);
            ours += line.left(cut) + '\n';
        }
        if (ours != l.referenceCsv) {
            const QList<QByteArray> a = ours.split('\n'), b = l.referenceCsv.split('\n');
            for (qsizetype i = 0; i < std::min(a.size(), b.size()); ++i) {
                if (a[i] != b[i])
                    QFAIL(qPrintable(QStringLiteral("line %1 differs:\n ours: %2\n ref:  %3")
                                         .arg(i + 1)
                                         .arg(QString::fromUtf8(a[i]), QString::fromUtf8(b[i]))));
            }
            QCOMPARE(a.size(), b.size());
        }
    }

    // One rule for the autograd thread (issue #55): nothing it launches is `other`.
    void autogradThreadLaunchesNoOtherWork_data() { addTraces(); }
    void autogradThreadLaunchesNoOtherWork()
    {
        QFETCH(QString, path);
        Loaded &l = loaded(path);
        QVERIFY(l.trace);
        const OpGraph &g = *l.trace->graph;
        const TraceModel &m = *l.trace->model;
        size_t fromAutograd = 0;
        for (SliceId k : g.gpuEvents()) {
            const SliceId launch = g.launchOf(k);
            if (launch == kNoSlice || !g.isAutogradThread(m.slices.lane[launch]))
                continue;
            ++fromAutograd;
            QVERIFY2(gpuSideOf(g, k) != GpuSide::Other, std::string(m.sliceName(k)).c_str());
        }
        // On the shared nccl_parser_config trace DDP's copy_bucket_to_grad memcpys are there.
        if (path.contains(QStringLiteral("nccl_parser_config")))
            QVERIFY(fromAutograd >= 483);
    }

    // Files load with a builder thread beside the parser, texts in memory without one: the
    // model must not depend on which.
    void builderThreadChangesNothing_data() { addTraces(); }
    void builderThreadChangesNothing()
    {
        QFETCH(QString, path);
        const Loaded &l = loaded(path);
        QVERIFY(l.trace);
        const std::string text = test::traceText(path);
        QVERIFY(!text.empty());
        const OpenResult direct = openTraceText(text, path.toStdString());
        QVERIFY(direct.trace);
        const std::string difference = test::firstDifference(
            test::dumpModel(*l.trace->model), test::dumpModel(*direct.trace->model));
        QVERIFY2(difference.empty(), difference.c_str());
        QCOMPARE(
            tableToCsv(PairTable(*l.trace->graph)), tableToCsv(PairTable(*direct.trace->graph)));
        QCOMPARE(tableToCsv(KernelTable(*l.trace->graph)),
            tableToCsv(KernelTable(*direct.trace->graph)));
    }

    // linking.md §7: with flows ignored, the sequence-number fallback must find the same
    // creator for at least 99.9% of the nodes the fwdbwd flows pair.
    void sequenceFallbackReproducesFlowPairs_data() { addTraces(); }
    void sequenceFallbackReproducesFlowPairs()
    {
        QFETCH(QString, path);
        Loaded &l = loaded(path);
        QVERIFY(l.trace);
        const OpGraph &withFlows = *l.trace->graph;
        if (withFlows.stats().pairsFromFlows == 0)
            QSKIP("no fwdbwd flows in this trace");
        const auto noFlows = OpGraph::build(*l.trace->model, LinkOptions {false});
        QCOMPARE(noFlows->stats().pairsFromFlows, uint64_t(0));
        QCOMPARE(noFlows->nodes().size(), withFlows.nodes().size());
        uint64_t flowPairs = 0, same = 0;
        for (size_t i = 0; i < withFlows.nodes().size(); ++i) {
            if (withFlows.nodes()[i].method != LinkMethod::Flow)
                continue;
            ++flowPairs;
            same += noFlows->nodes()[i].creator == withFlows.nodes()[i].creator;
        }
        QVERIFY(flowPairs > 0);
        QVERIFY2(same * 1000 >= flowPairs * 999,
            qPrintable(QStringLiteral("%1 of %2 flow pairs reproduced").arg(same).arg(flowPairs)));
        // The linker's own cross-check reports the same figure.
        QCOMPARE(withFlows.stats().flowPairsCheckedBySequence, flowPairs);
        QCOMPARE(withFlows.stats().flowPairsAgreeingWithSequence, same);
    }

    // Rows checked by hand: the forward op's subtree numbers, the backward nodes with those numbers
    // after it, their evaluate_function wrappers, and the GPU events whose runtime launch (same
    // correlation) lies inside each, summed — by a throwaway scan of the JSON, not by either
    // linker.
    void handCheckedRows_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("expected"); // fwd_name, fwd_ts, sequence_numbers, link,
                                                   // bwd_names, bwd_ts, bwd_dur, fwd_gpu_events,
                                                   // fwd_gpu_us, bwd_gpu_events, bwd_gpu_us, step
        QTest::newRow("nccl conv2d (flow)")
            << QStringLiteral("hta_nccl_parser_config_nccl_data.json.gz")
            << strings({"aten::conv2d", "4458676456881.997", "900", "flow", "ConvolutionBackward0",
                   "4458676605673.461", "335.978", "2", "464.378", "7", "487.417", "4"});
        QTest::newRow("trace_diff layer_norm (sequence)")
            << QStringLiteral("hta_trace_diff_control_control.json.gz")
            << strings({"aten::layer_norm", "1661203462603207", "450030", "sequence",
                   "NativeLayerNormBackward0", "1661203462662397", "75.000", "1", "17.000", "3",
                   "21.000", "1009"});
        QTest::newRow("trace_diff linear owns two nodes")
            << QStringLiteral("hta_trace_diff_control_control.json.gz")
            << strings({"aten::linear", "1661203462603061", "450028;450029", "sequence",
                   "AddmmBackward0;TBackward0", "1661203462662537", "148.000", "2", "97.000", "4",
                   "74.000", "1009"});
        QTest::newRow("resnet50 1.9 conv2d (no wrappers)")
            << QStringLiteral(
                   "kineto_resnet50_num_workers_0_worker0.1623143089861.pt.trace.json.gz")
            << strings({"aten::conv2d", "1623142623531336", "890", "sequence",
                   "CudnnConvolutionBackward", "1623142623615522", "136.000", "2", "607.000", "2",
                   "981.000", "5"});
        QTest::newRow("dlrm linear")
            << QStringLiteral("param_dlrm_worker0_step_12.1694128201545.pt.trace.json")
            << strings({"aten::linear", "1694128201428408", "480;481", "sequence",
                   "AddmmBackward0;TBackward0", "1694128201439212", "70.000", "1", "8.000", "2",
                   "10.000", "10"});
        QTest::newRow("mi300 linear (ROCm, flows)")
            << QStringLiteral("tl_mi300_ddp_resnet18_no_pool_train_resnet18.json.gz")
            << strings({"aten::linear", "1305516337552.894", "281;282", "flow",
                   "AddmmBackward0;TBackward0", "1305516338160.232", "437.788", "1", "7.958", "4",
                   "35.676", ""});
        QTest::newRow("torch.compile CompiledFunction")
            << QStringLiteral("hta_negative_queue_length_values_check_rank0.json.gz")
            << strings({"CompiledFunction", "1683564901553408", "46651", "sequence",
                   "CompiledFunctionBackward", "1683564901728039", "319.000", "9", "830.000", "25",
                   "11899.000", "550"});
    }
    void handCheckedRows()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, expected);
        const QString path = test::sharedTracesDir() + QLatin1Char('/') + file;
        Loaded &l = loaded(path);
        QVERIFY(l.trace);
        const PairTable table(*l.trace->graph);
        const int r = rowWith(table, expected[0].toStdString(), expected[1].toStdString());
        QVERIFY2(r >= 0, "the forward op must have a row");
        const PairTable::Column columns[]
            = {PairTable::FwdName, PairTable::FwdTs, PairTable::SequenceNumbers, PairTable::Link,
                PairTable::BwdNames, PairTable::BwdTs, PairTable::BwdDur, PairTable::FwdGpuEvents,
                PairTable::FwdGpuUs, PairTable::BwdGpuEvents, PairTable::BwdGpuUs, PairTable::Step};
        for (size_t i = 0; i < std::size(columns); ++i)
            QCOMPARE(
                QString::fromStdString(table.text(size_t(r), columns[i])), expected[qsizetype(i)]);
    }

    // Ops without a backward have no row; a node whose forward op is missing is its own row.
    /*
     * FLOPs, bytes and kernel time of every modelled op of the MI300X ResNet-18 trace against
     * TraceLens's own (AMD-AGI/TraceLens 171dd747, TreePerfAnalyzer.compute_perf_metrics on each
     * event its perf-model map covers; tools/tracelens_perf.py): the same 890 instances, summed
     * per op. Where Kinetoscope differs on purpose (docs/efficiency.md): the first convolution's
     * backward asks [False, True, False] (5 instances of 120.846286848 GFLOPs, 931.0179443359375
     * MiB fewer); aten::mean and aten::sum each own a hipMemsetAsync whose ac2g flow has no
     * start, which TraceLens misses: by hand from the file, 1.559 ×3 + 1.679 + 1.919 = 8.275 µs
     * and 1.799 ×2 + 1.639 + 1.719 + 1.679 = 8.635 µs more; their bytes (outputs from `dim`) are
     * checked in tst_perfmodel.
     */
    void efficiencyEqualsTraceLensOnMi300ResNet()
    {
        Loaded &l = loaded(test::sharedTracesDir()
            + QStringLiteral("/tl_mi300_ddp_resnet18_no_pool_train_resnet18.json.gz"));
        QVERIFY(l.trace);
        struct TraceLensTotals {
            int count;
            double gflops, mib, kernelUs;
        };
        const std::map<std::string, TraceLensTotals> traceLens = {
            {"aten::add_", {180, 4.3030938600000095, 24622.50228881836, 6034.123046875}},
            {"aten::addmm", {5, 2.624, 12.275161743164062, 40.833984375}},
            {"aten::batch_norm", {100, 31.791657600000043, 24255.274658203125, 44122.044921875}},
            {"aten::clamp_min_", {85, 5.908725759999997, 22540.0, 7307.528564453125}},
            {"aten::convolution", {100, 9285.434081280004, 22891.495971679688, 55935.5029296875}},
            {"aten::convolution_backward",
                {100, 18570.868162560007 - 5 * 120.846286848,
                    45782.991943359375 - 5 * 931.0179443359375, 104993.12060546875}},
            {"aten::div", {10, 0.12845055999999996, 490.000057220459, 158.06787109375}},
            {"aten::mean", {10, 0.06678527999999999, -1, 302.510009765625 + 8.275}},
            {"aten::mm", {10, 5.24288, 24.53125, 106.550537109375}},
            {"aten::native_batch_norm",
                {100, 31.791657600000043, 24255.274658203125, 44122.044921875}},
            {"aten::native_batch_norm_backward",
                {100, 57.224724480000035, 36382.68310546875, 111470.84057617188}},
            {"aten::sum", {5, 0.0025599999999999998, -1, 57.835205078125 + 8.635}},
            {"aten::threshold_backward", {85, 5.908725759999998, 33810.0, 7825.129150390625}},
        };
        std::map<std::string, TraceLensTotals> ours;
        const OpEfficiency &e = l.trace->efficiency();
        for (const OpInstance &in : e.instances()) {
            TraceLensTotals &t = ours[std::string(l.trace->model->sliceName(in.op))];
            ++t.count;
            t.gflops += in.work.flops / 1e9;
            t.mib += in.work.bytes.value_or(0) / 1048576;
            t.kernelUs += double(in.kernelTime) / 1e3;
        }
        QCOMPARE(ours.size(), traceLens.size());
        for (const auto &[name, expected] : traceLens) {
            const TraceLensTotals &t = ours[name];
            QVERIFY2(t.count == expected.count, name.c_str());
            QVERIFY2(std::fabs(t.gflops / expected.gflops - 1) < 1e-12, name.c_str());
            QVERIFY2(expected.mib < 0 || std::fabs(t.mib / expected.mib - 1) < 1e-12, name.c_str());
            // TraceLens sums float µs; ours are whole ns: a ns an instance.
            QVERIFY2(std::fabs(t.kernelUs - expected.kernelUs) < 1e-3 * t.count, name.c_str());
        }
    }

    void opsWithoutBackwardAndOrphanNodes()
    {
        const QString path = test::sharedTracesDir()
            + QStringLiteral(
                "/hta_cpu_only_full_b8cce2c_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
        Loaded &l = loaded(path);
        QVERIFY(l.trace);
        const PairTable table(*l.trace->graph);
        int orphans = 0;
        for (size_t r = 0; r < table.rowCount(); ++r) {
            if (table.text(r, PairTable::Link) == "none") {
                ++orphans;
                QCOMPARE(table.text(r, PairTable::FwdName), std::string());
                QCOMPARE(table.text(r, PairTable::BwdNames),
                    std::string("torch::jit::(anonymous namespace)::DifferentiableGraphBackward"));
            }
        }
        // By hand: 5 DifferentiableGraphBackward nodes (numbers 7727, 7741, 7755, 7769, 7783) have
        // no forward op with their number anywhere in the file.
        QCOMPARE(orphans, 5);
        QCOMPARE(l.trace->graph->stats().unpairedBackward, uint64_t(5));
        // aten::copy_ runs 960 times in the nccl trace, never with a Sequence number: no node.
        Loaded &nccl = loaded(
            test::sharedTracesDir() + QStringLiteral("/hta_nccl_parser_config_nccl_data.json.gz"));
        const PairTable ncclTable(*nccl.trace->graph);
        for (size_t r = 0; r < ncclTable.rowCount(); ++r)
            QVERIFY(ncclTable.text(r, PairTable::FwdName) != "aten::copy_");
    }
};

QTEST_GUILESS_MAIN(TestSharedTraces)
#include "tst_sharedtraces.moc"
