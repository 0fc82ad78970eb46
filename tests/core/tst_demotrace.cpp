// SPDX-License-Identifier: MIT
// The linker against the ground truth of the project's own trace generator: gentrace knows which
// backward nodes each forward op created and which kernels it launched (its --truth file), so
// every row of the pair table can be checked on traces of any size and seed.
#include "analysis/memory/memoryindex.h"
#include "analysis/time/gputime.h"
#include "analysis/time/stepbreakdown.h"
#include "export/pairtable.h"
#include "export/summary.h"
#include "link/gpuside.h"
#include "testutil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <numeric>

using namespace ks;

class TestDemoTrace : public QObject {
    Q_OBJECT
private slots:
    void linkerMatchesGeneratorTruth_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("name");
        QTest::newRow("demo (3 steps, gzip)") << QStringList {QStringLiteral("--steps"),
            QStringLiteral("3"), QStringLiteral("--seed"), QStringLiteral("1")}
                                              << QStringLiteral("demo.pt.trace.json.gz");
        QTest::newRow("5 steps, seed 7") << QStringList {QStringLiteral("--steps"),
            QStringLiteral("5"), QStringLiteral("--seed"), QStringLiteral("7")}
                                         << QStringLiteral("s7.json");
        QTest::newRow("memory (4 steps, seed 2)") << QStringList {QStringLiteral("--steps"),
            QStringLiteral("4"), QStringLiteral("--seed"), QStringLiteral("2"),
            QStringLiteral("--memory")} << QStringLiteral("memory.json");
        QTest::newRow("2 MB") << QStringList {QStringLiteral("--target-mb"), QStringLiteral("2"),
            QStringLiteral("--seed"), QStringLiteral("3")}
                              << QStringLiteral("big.json");
        // Non-reentrant activation checkpointing of the transformer block (docs/recompute.md).
        QTest::newRow("checkpointed, 3 steps") << QStringList {QStringLiteral("--checkpoint"),
            QStringLiteral("--steps"), QStringLiteral("3")}
                                               << QStringLiteral("ck.json");
        QTest::newRow("checkpointed, 2 MB, seed 5") << QStringList {QStringLiteral("--checkpoint"),
            QStringLiteral("--target-mb"), QStringLiteral("2"), QStringLiteral("--seed"),
            QStringLiteral("5")} << QStringLiteral("ck-big.json.gz");
        // What Kineto writes since 2026 (pytorch/kineto 114171df): sync rows, stream waits,
        // hardware counters, overhead, a graph replay a step; and an MTIA-like trace.
        QTest::newRow("kineto 2026, 2 steps") << QStringList {QStringLiteral("--kineto-2026"),
            QStringLiteral("--steps"), QStringLiteral("2")}
                                              << QStringLiteral("k2026.json");
        QTest::newRow("MTIA, 2 steps") << QStringList {QStringLiteral("--device"),
            QStringLiteral("mtia"), QStringLiteral("--steps"), QStringLiteral("2")}
                                       << QStringLiteral("mtia.json");
    }
    void linkerMatchesGeneratorTruth()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, name);
        const QString trace = test::tempDir() + QLatin1Char('/') + name;
        const QString truthPath = trace + QStringLiteral(".truth.json");
        const test::ProcessResult gen = test::run(
            test::gentracePath(), args << QStringLiteral("--truth") << truthPath << trace);
        QCOMPARE(gen.exitCode, 0);
        QFile truthFile(truthPath);
        QVERIFY(truthFile.open(QIODevice::ReadOnly));
        const QJsonObject truth = QJsonDocument::fromJson(truthFile.readAll()).object();
        QVERIFY(!truth.isEmpty());

        OpenResult opened = openTrace(trace.toStdString());
        QVERIFY2(opened.trace, opened.error.c_str());
        const TraceModel &m = *opened.trace->model;
        const OpGraph &g = *opened.trace->graph;
        const TraceCounts counts = countTrace(m, g);
        QCOMPARE(qint64(m.eventCount), truth[QStringLiteral("events")].toInteger());
        QCOMPARE(qint64(counts.cpuOps), truth[QStringLiteral("cpu_ops")].toInteger());
        QCOMPARE(qint64(counts.gpuEvents), truth[QStringLiteral("gpu_events")].toInteger());
        QCOMPARE(qint64(m.flowKeysWithBothEnds), truth[QStringLiteral("flows")].toInteger());
        QCOMPARE(qint64(counts.steps), truth[QStringLiteral("steps")].toInteger());
        // Every GPU event has its op, except graph replays: no op is around their launch.
        uint64_t replayed = 0;
        for (SliceId e : g.gpuEvents())
            replayed += m.gpu(e)->graphId != kNoValue;
        QCOMPARE(replayed, uint64_t(name.startsWith(QLatin1String("k2026")) ? 2 * 5 : 0));
        QCOMPARE(g.stats().gpuEventsAttributed, g.stats().gpuEvents - replayed);
        QCOMPARE(g.stats().unpairedBackward, uint64_t(0));
        QCOMPARE(m.diagnostics.warnings(), uint64_t(0));
        // Written as Kineto writes it, nothing in it is suspect (--check: no warning).
        for (const Finding &f : opened.trace->findings())
            QVERIFY2(f.severity == Severity::Info, info(f.check).name.data());

        const QJsonArray pairs = truth[QStringLiteral("pairs")].toArray();
        const PairTable table(g);
        QCOMPARE(qsizetype(table.rowCount()), pairs.size());
        auto text = [&](size_t r, PairTable::Column c) {
            return QString::fromStdString(table.text(r, c));
        };
        for (qsizetype i = 0; i < pairs.size(); ++i) {
            const QJsonObject p = pairs[i].toObject();
            const auto r = size_t(i);
            QCOMPARE(text(r, PairTable::FwdName), p[QStringLiteral("fwd_name")].toString());
            QCOMPARE(text(r, PairTable::FwdTs), p[QStringLiteral("fwd_ts")].toString());
            QStringList names, numbers;
            for (const QJsonValue &v : p[QStringLiteral("bwd_names")].toArray())
                names << v.toString();
            // cli.md: sequence numbers ascending (the truth lists them in node order).
            std::vector<qint64> sorted;
            for (const QJsonValue &v : p[QStringLiteral("sequence_numbers")].toArray())
                sorted.push_back(v.toInteger());
            std::sort(sorted.begin(), sorted.end());
            for (qint64 n : sorted)
                numbers << QString::number(n);
            QCOMPARE(text(r, PairTable::BwdNames), names.join(QLatin1Char(';')));
            QCOMPARE(text(r, PairTable::SequenceNumbers), numbers.join(QLatin1Char(';')));
            QCOMPARE(text(r, PairTable::Link), QStringLiteral("flow"));
            QCOMPARE(text(r, PairTable::FwdGpuEvents),
                QString::number(p[QStringLiteral("fwd_gpu_events")].toInteger()));
            QCOMPARE(text(r, PairTable::FwdGpuUs), p[QStringLiteral("fwd_gpu_us")].toString());
            QCOMPARE(text(r, PairTable::BwdGpuEvents),
                QString::number(p[QStringLiteral("bwd_gpu_events")].toInteger()));
            QCOMPARE(text(r, PairTable::BwdGpuUs), p[QStringLiteral("bwd_gpu_us")].toString());
            QCOMPARE(
                text(r, PairTable::Step), QString::number(p[QStringLiteral("step")].toInteger()));
            QCOMPARE(text(r, PairTable::Module), p[QStringLiteral("module")].toString());
            // Without checkpointing the truth has no recompute fields: all zero.
            const QString zero = QStringLiteral("0.000");
            QCOMPARE(text(r, PairTable::RecomputeGpuEvents),
                QString::number(p[QStringLiteral("recompute_gpu_events")].toInteger()));
            QCOMPARE(text(r, PairTable::RecomputeGpuUs),
                p[QStringLiteral("recompute_gpu_us")].toString(zero));
            QCOMPARE(text(r, PairTable::RecomputedGpuUs),
                p[QStringLiteral("recomputed_gpu_us")].toString(zero));
            // --memory: saved tensors held from the forward op to its first node, and so on.
            if (args.contains(QStringLiteral("--memory"))) {
                QCOMPARE(text(r, PairTable::FwdAllocBytes),
                    QString::number(p[QStringLiteral("fwd_alloc_bytes")].toInteger()));
                QCOMPARE(text(r, PairTable::HeldBytes),
                    QString::number(p[QStringLiteral("held_bytes")].toInteger()));
                QCOMPARE(text(r, PairTable::BwdAllocBytes),
                    QString::number(p[QStringLiteral("bwd_alloc_bytes")].toInteger()));
            }
        }
        if (args.contains(QStringLiteral("--memory"))) {
            // Every allocation of the generator has its free (no diagnostics) but the batches.
            const MemoryIndex memory(g);
            QCOMPARE(memory.unmatchedFrees(), uint64_t(0));
            QVERIFY(memory.memoryEvents() > 1000);
        }
        const bool checkpointed = args.contains(QStringLiteral("--checkpoint"));
        QCOMPARE(g.stats().recomputedOps > 0, checkpointed);
        QCOMPARE(g.stats().recomputeGpuTime,
            TimeNs(truth[QStringLiteral("recompute_gpu_ns")].toInteger()));
        // Every recomputation finds its original; where a module runs one op twice with the same
        // shapes (the block's two residual adds) the order decides, and the truth above agrees.
        for (const Recomputation &rc : g.recomputations()) {
            QVERIFY(rc.original != kNoSlice);
            QCOMPARE(m.sliceName(rc.original), m.sliceName(rc.op));
            QVERIFY(rc.candidates >= 1);
        }

        // Without flows, the sequence numbers alone give the same pairs.
        const auto noFlows = OpGraph::build(m, LinkOptions {false});
        QCOMPARE(noFlows->stats().pairsFromSequence, g.stats().pairsFromFlows);
        const PairTable sequenceTable(*noFlows);
        QCOMPARE(sequenceTable.rowCount(), table.rowCount());
        for (size_t r = 0; r < table.rowCount(); ++r) {
            for (size_t c = 0; c < PairTable::ColumnCount; ++c) {
                if (c != PairTable::Link)
                    QCOMPARE(sequenceTable.text(r, c), table.text(r, c));
            }
            QCOMPARE(sequenceTable.text(r, PairTable::Link), std::string("sequence"));
        }
        QCOMPARE(g.stats().flowPairsAgreeingWithSequence, g.stats().pairsFromFlows);
    }

    // The same trace without sequence numbers (as 2020 pre-release files are): nothing pairs,
    // yet every GPU event keeps the side the pairs gave it, by thread and node name, and the
    // module tree, the per-step breakdown and --export-kernels agree event for event.
    void withoutSequenceNumbersEveryViewAgrees()
    {
        const QString paired = test::tempDir() + QStringLiteral("/paired.json");
        QCOMPARE(test::run(test::gentracePath(), {paired}).exitCode, 0);
        QFile in(paired);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(in.readAll()).object();
        QJsonArray kept;
        for (const QJsonValue &v : root[QStringLiteral("traceEvents")].toArray()) {
            QJsonObject e = v.toObject();
            if (e[QStringLiteral("cat")].toString() == QLatin1String("fwdbwd"))
                continue;
            QJsonObject args = e[QStringLiteral("args")].toObject();
            args.remove(QStringLiteral("Sequence number"));
            args.remove(QStringLiteral("Fwd thread id"));
            e[QStringLiteral("args")] = args;
            kept.append(e);
        }
        root[QStringLiteral("traceEvents")] = kept;
        const QString unpaired = test::writeTemp(
            QStringLiteral("unpaired.json"), QJsonDocument(root).toJson(QJsonDocument::Compact));

        OpenResult a = openTrace(paired.toStdString()), b = openTrace(unpaired.toStdString());
        QVERIFY(a.trace && b.trace);
        const OpGraph &ga = *a.trace->graph, &gb = *b.trace->graph;
        QVERIFY(ga.stats().hasSequenceNumbers && !gb.stats().hasSequenceNumbers);
        QVERIFY(gb.rows().empty());
        QCOMPARE(gb.gpuEvents().size(), ga.gpuEvents().size());
        const TraceModel &mb = *b.trace->model;
        TimeNs side[6] = {};
        size_t fromOther = 0;
        for (size_t i = 0; i < gb.gpuEvents().size(); ++i) {
            const GpuSide was = gpuSideOf(ga, ga.gpuEvents()[i]);
            const GpuSide is = gpuSideOf(gb, gb.gpuEvents()[i]);
            side[size_t(is)] += mb.slices.dur[gb.gpuEvents()[i]];
            // Forward, backward and AccumulateGrad's work keep their side; of "other", only what
            // is outside the optimizer and the data loader (input copies, loss.item()) reads as
            // forward, for the main thread is all that is left to say.
            if (was == GpuSide::Other && is == GpuSide::Forward) {
                const std::string_view op = mb.sliceName(gb.launchingOp(gb.gpuEvents()[i]));
                QVERIFY2(
                    op == "aten::copy_" || op == "aten::fill_" || op == "aten::_local_scalar_dense",
                    std::string(op).c_str());
                ++fromOther;
                continue;
            }
            QCOMPARE(int(is), int(was));
        }
        QVERIFY(fromOther > 0 && fromOther < gb.gpuEvents().size() / 10);
        QVERIFY(side[size_t(GpuSide::Backward)] > 0);

        // One classification: the module tree's root totals and the steps' sums are the same
        // numbers, side by side.
        const ModuleTimes &all = b.trace->modules().node(0).times;
        QCOMPARE(all.forwardTotal.time, side[size_t(GpuSide::Forward)]);
        QCOMPARE(all.backwardTotal.time, side[size_t(GpuSide::Backward)]);
        QCOMPARE(all.backwardOtherTotal.time, side[size_t(GpuSide::BackwardOther)]);
        QCOMPARE(all.otherTotal.time,
            side[size_t(GpuSide::Other)] + side[size_t(GpuSide::Unattributed)]);
        // The steps split each step's busy time exactly, and their computation, communication
        // and memcpy are the step's TraceLens figures, computed apart (analysis/gputime).
        const std::vector<StepBreakdown> steps = stepBreakdown(gb);
        const std::vector<StepGpuTime> tracelens = gpuTimePerStep(gb);
        QCOMPARE(steps.size(), tracelens.size());
        for (size_t i = 0; i < steps.size(); ++i) {
            const StepBreakdown &st = steps[i];
            const GpuTimeBreakdown &tl = tracelens[i].time;
            QCOMPARE(std::accumulate(st.parts.begin(), st.parts.end(), TimeNs(0)), st.busy);
            QCOMPARE(st.busy, tl.busy);
            QCOMPARE(st.idle(), tl.idle);
            QCOMPARE(st.part(WorkPart::Communication), tl.exposedComm);
            QCOMPARE(st.part(WorkPart::Memcpy), tl.exposedMemcpy);
            QCOMPARE(st.busy - st.part(WorkPart::Communication) - st.part(WorkPart::Memcpy),
                tl.computation);
        }
        // And the kernel export writes the same side for each event.
        const KernelTable kernels(gb);
        for (size_t r = 0; r < kernels.rowCount(); ++r)
            QCOMPARE(kernels.text(r, KernelTable::Side),
                std::string(gpuSideName(gpuSideOf(gb, gb.gpuEvents()[r]))));
    }
};

QTEST_GUILESS_MAIN(TestDemoTrace)
#include "tst_demotrace.moc"
