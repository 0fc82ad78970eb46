// SPDX-License-Identifier: MIT
// Memory events (issue: memory, the core part): `[memory]` instants loaded as columns, each
// allocation matched to its free and tied to the op and pair around it (core/analysis/
// memoryindex), `--summary`'s memory keys and `--export-memory`; inline cases worked out by hand,
// the shared traces against tests/reference/memory_reference.py.
#include "analysis/memory/memoryindex.h"
#include "analysis/timeline/curvetracks.h"
#include "base/saturating.h"
#include "export/allocationtable.h"
#include "export/moduletable.h"
#include "export/pairtable.h"
#include "export/summary.h"
#include "memorytrace.h"
#include "testutil.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <string>

using namespace ks;
using test::memory;
using test::memoryTrace;
using test::op;

class TestMemory : public QObject {
    Q_OBJECT
private slots:
    void eventsAreLoadedAsColumns();
    void allocationsMatchTheirFrees();
    void allocationsTiedToOpsAndPairs();
    void pairColumns();
    void moduleColumns();
    void summaryKeys();
    void exportRows();
    void absurdSizesAreLeftOutAndCounted();
    void byteSumsSaturate();
    void resnetRowsByHand();
    void sharedTracesAgreeWithReference_data();
    void sharedTracesAgreeWithReference();
};

void TestMemory::eventsAreLoadedAsColumns()
{
    auto t = test::link(memoryTrace());
    QVERIFY(t);
    const MemoryTable &m = t->model->memory;
    QCOMPARE(m.size(), size_t(11));
    QCOMPARE(m.time[0], TimeNs(110000));
    QCOMPARE(m.bytes[0], int64_t(256));
    QCOMPARE(m.totalReserved[0], int64_t(2048));
    QCOMPARE(m.deviceType[7], int64_t(0));
    QCOMPARE(m.deviceId[7], int64_t(-1));
    QCOMPARE(m.totalAllocated[7], kNoValue);
    QCOMPARE(m.outOfMemory[6], uint8_t(1));
    QCOMPARE(m.bytes[6], int64_t(1099511627776));
    QCOMPARE(t->model->lanes[m.lane[10]].tid, int64_t(2));
    // They stay instants too (markers on their thread).
    QCOMPARE(t->model->instants.size(), size_t(11));
}

void TestMemory::allocationsMatchTheirFrees()
{
    auto t = test::link(memoryTrace());
    QVERIFY(t);
    const MemoryIndex index(*t->graph);
    const auto &a = index.allocations();
    QCOMPARE(a.size(), size_t(5)); // A B C F E
    const MemoryTable &m = t->model->memory;
    auto freedAt = [&](const Allocation &x) {
        return x.freeEvent < 0 ? TimeNs(-1) : m.time[size_t(x.freeEvent)] / 1000;
    };
    QCOMPARE(freedAt(a[0]), TimeNs(550)); // A
    QCOMPARE(freedAt(a[1]), TimeNs(150)); // B
    QCOMPARE(freedAt(a[2]), TimeNs(-1)); // C never freed
    QCOMPARE(freedAt(a[3]), TimeNs(560)); // F at B's address after B's free
    QCOMPARE(freedAt(a[4]), TimeNs(260)); // E on the CPU, not A's free
    QCOMPARE(index.unmatchedFrees(), uint64_t(1)); // D
    QCOMPARE(index.outOfMemoryEvents(), uint64_t(1));
    QCOMPARE(index.memoryEvents(), uint64_t(10));
    QCOMPARE(index.diagnostics().count(Diag::FreeWithoutAllocation), uint64_t(1));
    QCOMPARE(index.diagnostics().count(Diag::OutOfMemory), uint64_t(1));
    QCOMPARE(index.diagnostics().count(Diag::AllocAddressReused), uint64_t(0));
    // The warnings banner reads allDiagnostics: the out-of-memory event is there.
    QCOMPARE(allDiagnostics(*t->model, *t->graph).count(Diag::OutOfMemory), uint64_t(1));
    const auto &d = index.devices();
    QCOMPARE(d.size(), size_t(2));
    QCOMPARE(d[0].deviceType, int64_t(0));
    QCOMPARE(d[0].allocations, uint64_t(1));
    QCOMPARE(d[0].peakAllocated, kNoValue);
    QCOMPARE(d[1].deviceId, int64_t(0));
    QCOMPARE(d[1].events, uint64_t(8)); // A B C D, B's free, F, A's and F's frees; not the OOM
    QCOMPARE(d[1].allocations, uint64_t(4));
    QCOMPARE(d[1].peakAllocated, int64_t(416));
    QCOMPARE(d[1].peakReserved, int64_t(2048));
}

void TestMemory::allocationsTiedToOpsAndPairs()
{
    auto t = test::link(memoryTrace());
    QVERIFY(t);
    const MemoryIndex index(*t->graph);
    const auto &a = index.allocations();
    const TraceModel &m = *t->model;
    QCOMPARE(m.sliceName(a[0].op), std::string_view("aten::mm"));
    QCOMPARE(m.sliceName(a[0].freeOp), std::string_view("MmBackward0"));
    QCOMPARE(a[0].side, GpuSide::Forward);
    QCOMPARE(a[0].row, 0);
    QCOMPARE(m.sliceName(a[1].freeOp), std::string_view("aten::mm"));
    QCOMPARE(a[4].op, kNoSlice); // E at 250: outside every op
    QCOMPARE(a[4].side, GpuSide::Other);
    QCOMPARE(a[4].row, -1);
}

// aten::mm [100,200) allocates X 10 B (freed at 150, before its backward) and Y 20 B (freed at
// 550, inside it); MmBackward0 [500,600) allocates Z 40 B. fwd_alloc 30, held 20, bwd_alloc 40.
// The first trace: A + B + C + F = 480 allocated in aten::mm; held A (freed 550), C (never
// freed) and F (freed 560) = 416, not B (freed 150).
void TestMemory::pairColumns()
{
    auto t = test::link(test::traceWith(op("aten::mm", 1, 100, 100, 1)
        + op("MmBackward0", 2, 500, 100, 1) + memory(1, 110, 1, 0, 1, 10)
        + memory(1, 120, 1, 0, 2, 20) + memory(1, 150, 1, 0, 1, -10) + memory(2, 510, 1, 0, 3, 40)
        + memory(2, 550, 1, 0, 2, -20) + memory(2, 580, 1, 0, 3, -40)
        + R"({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}})"));
    QVERIFY(t);
    const PairTable pairs(*t->graph);
    QCOMPARE(pairs.rowCount(), size_t(1));
    QCOMPARE(pairs.text(0, PairTable::FwdAllocBytes), std::string("30"));
    QCOMPARE(pairs.text(0, PairTable::HeldBytes), std::string("20"));
    QCOMPARE(pairs.text(0, PairTable::BwdAllocBytes), std::string("40"));
    QCOMPARE(pairs.number(0, PairTable::HeldBytes), 20.0);

    auto first = test::link(memoryTrace());
    QVERIFY(first);
    const PairTable firstPairs(*first->graph);
    QCOMPARE(firstPairs.text(0, PairTable::FwdAllocBytes), std::string("480"));
    QCOMPARE(firstPairs.text(0, PairTable::HeldBytes), std::string("416"));
    QCOMPARE(firstPairs.text(0, PairTable::BwdAllocBytes), std::string("0"));

    // Without memory events the cells are empty, not 0.
    auto none = test::link(
        test::traceWith(op("aten::mm", 1, 100, 100, 1) + op("MmBackward0", 2, 500, 100, 1)
            + R"({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}})"));
    QVERIFY(none);
    QCOMPARE(PairTable(*none->graph).text(0, PairTable::HeldBytes), std::string());
}

// The pairColumns trace inside nn.Module: Net_0 > nn.Module: Linear_0 (python_function on the
// main thread): both modules, and the root, hold its one row: 30 / 20 / 40 bytes.
void TestMemory::moduleColumns()
{
    auto t = test::link(test::moduleMemoryTrace());
    QVERIFY(t);
    const ModuleTable table(t->modules());
    QCOMPARE(table.rowCount(), size_t(3)); // (all), Net_0, Net_0/Linear_0
    QCOMPARE(table.text(2, ModuleTable::Module), std::string("Net_0/Linear_0"));
    // The same in the row's step (ProfilerStep#1), and nothing in a step it is not in.
    const ModuleTable inStep(t->modules(), int64_t(1));
    QCOMPARE(inStep.rowCount(), size_t(3));
    for (const ModuleTable *m : {&table, &inStep}) {
        for (size_t r = 0; r < m->rowCount(); ++r) {
            QCOMPARE(m->text(r, ModuleTable::FwdAllocBytes), std::string("30"));
            QCOMPARE(m->text(r, ModuleTable::HeldBytes), std::string("20"));
            QCOMPARE(m->text(r, ModuleTable::BwdAllocBytes), std::string("40"));
        }
    }
}

void TestMemory::summaryKeys()
{
    auto t = test::link(memoryTrace());
    QVERIFY(t);
    const QJsonObject s
        = QJsonDocument::fromJson(QByteArray::fromStdString(summaryJson(*t->model, *t->graph, 0)))
              .object();
    QCOMPARE(s.value(QStringLiteral("memory_events")).toInt(), 10);
    const QJsonArray devices = s.value(QStringLiteral("memory_devices")).toArray();
    QCOMPARE(devices.size(), 2);
    QCOMPARE(devices[0].toObject().value(QStringLiteral("device_type")).toInt(), 0);
    QVERIFY(devices[0].toObject().value(QStringLiteral("peak_allocated_bytes")).isNull());
    QCOMPARE(devices[1].toObject().value(QStringLiteral("allocations")).toInt(), 4);
    QCOMPARE(devices[1].toObject().value(QStringLiteral("peak_allocated_bytes")).toInt(), 416);
    QCOMPARE(devices[1].toObject().value(QStringLiteral("peak_reserved_bytes")).toInt(), 2048);
    QCOMPARE(s.value(QStringLiteral("diagnostics"))
                 .toObject()
                 .value(QStringLiteral("out_of_memory"))
                 .toInt(),
        1);
}

void TestMemory::exportRows()
{
    auto t = test::link(memoryTrace());
    QVERIFY(t);
    const MemoryIndex index(*t->graph);
    const AllocationTable table(index);
    QCOMPARE(tableToCsv(table),
        std::string("device,addr,bytes,alloc_ts,free_ts,alloc_op,free_op,side,pair_fwd_name,"
                    "pair_fwd_ts,step\n"
                    "cuda:0,1000,256,110.000,550.000,aten::mm,MmBackward0,forward,aten::mm,100,\n"
                    "cuda:0,2000,64,120.000,150.000,aten::mm,aten::mm,forward,aten::mm,100,\n"
                    "cuda:0,3000,32,130.000,,aten::mm,,forward,aten::mm,100,\n"
                    "cuda:0,2000,128,180.000,560.000,aten::mm,MmBackward0,forward,aten::mm,100,\n"
                    "cpu,1000,16,250.000,260.000,,,other,,,\n"));
}

// Sizes no device has are counted: an event with |Bytes| over 2^50 is left out of memory, a
// negative total or one over 2^50 is left out of its event; a failed request may ask anything;
// device numbers at the int64 limits are fine.
void TestMemory::absurdSizesAreLeftOutAndCounted()
{
    const long long pib = 1LL << 50;
    const long long max = std::numeric_limits<long long>::max();
    const std::string negativeTotal
        = R"({"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":140,"args":{"Device Type":1,)"
          R"("Device Id":0,"Addr":1003,"Bytes":8,"Total Allocated":-5}},)"
          "\n";
    auto t = test::link(test::traceWith(op("aten::mm", 1, 100, 100, 1)
        + op("MmBackward0", 2, 500, 100, 1) + memory(1, 110, 1, 0, 1000, 100, 100)
        + memory(1, 120, 1, 0, 1001, 1LL << 60) + memory(1, 130, 1, 0, 1002, -max) + negativeTotal
        + memory(1, 150, 1, 0, 0, 1LL << 60, 100, 2048, "[OutOfMemory]")
        + memory(1, 160, max, -max, 5, 64) + memory(1, 170, max, -max, 5, -64)
        + memory(1, 180, 1, 0, 1004, pib) + memory(2, 550, 1, 0, 1004, -pib)
        + R"({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}})"));
    QVERIFY(t);
    const MemoryTable &m = t->model->memory;
    // 110, 140 (its total left out), the OOM at 150, 160, 170, 180, 550
    QCOMPARE(m.size(), size_t(7));
    QCOMPARE(t->model->diagnostics.count(Diag::InvalidMemorySize), uint64_t(3));
    QCOMPARE(t->model->instants.size(), size_t(9)); // still markers on their thread
    QCOMPARE(m.bytes[1], int64_t(8));
    QCOMPARE(m.totalAllocated[1], kNoValue);
    QCOMPARE(m.bytes[2], int64_t(1LL << 60));
    QCOMPARE(m.outOfMemory[2], uint8_t(1));

    const MemoryIndex &index = t->memory();
    QCOMPARE(index.allocations().size(), size_t(4)); // 110, 140, 160, 180
    QCOMPARE(index.unmatchedFrees(), uint64_t(0)); // 170 frees 160 on the odd device
    QCOMPARE(index.allocations()[2].freeEvent, 4);
    QCOMPARE(index.devices().size(), size_t(2));
    // aten::mm allocates 100 + 8 + 64 + 2^50; 64 is freed before MmBackward0 starts.
    QCOMPARE(t->pairMemory()[0].forwardAllocated, 172 + pib);
    QCOMPARE(t->pairMemory()[0].held, 108 + pib);
    QCOMPARE(t->curves().tracks.size(), size_t(2));
}

void TestMemory::byteSumsSaturate()
{
    const int64_t max = std::numeric_limits<int64_t>::max();
    const int64_t min = std::numeric_limits<int64_t>::min();
    QCOMPARE(saturatingAdd(2, 3), int64_t(5));
    QCOMPARE(saturatingAdd(max, 1), max);
    QCOMPARE(saturatingAdd(max - 1, 1), max);
    QCOMPARE(saturatingAdd(min + 1, -5), min);
    QCOMPARE(saturatingAdd(max, min), int64_t(-1));
    int64_t sum = max - 10;
    addSaturating(sum, 20);
    QCOMPARE(sum, max);
}

// The 1.9 ResNet-50 trace, checked by hand from the JSON: the first aten::conv2d (ts
// 1623142623531336, 326 µs) has three [memory] events inside it on its thread, all on cuda:0:
// +102760448, +114176, −114176; aten::batch_norm at 1623142623531804 (232 µs): +102760448, +512,
// +512. Without `Addr` no free can be matched, so what is held is unknown: empty, not a guess.
void TestMemory::resnetRowsByHand()
{
    const QString dir = test::sharedTracesDir();
    if (dir.isEmpty())
        QSKIP("../shared/traces is absent (a user's clone has none): not checked");
    const QString path = dir
        + QStringLiteral("/kineto_resnet50_num_workers_0_worker0.1623143089861.pt.trace.json.gz");
    const OpenResult opened = openTrace(path.toStdString());
    QVERIFY(opened.trace);
    const PairTable pairs(*opened.trace->graph);
    auto rowAt = [&](const char *name, const char *ts) -> int {
        for (size_t r = 0; r < pairs.rowCount(); ++r) {
            if (pairs.text(r, PairTable::FwdName) == name && pairs.text(r, PairTable::FwdTs) == ts)
                return int(r);
        }
        return -1;
    };
    const int conv = rowAt("aten::conv2d", "1623142623531336");
    QVERIFY(conv >= 0);
    QCOMPARE(pairs.text(size_t(conv), PairTable::FwdAllocBytes), std::string("102874624"));
    QCOMPARE(pairs.text(size_t(conv), PairTable::HeldBytes), std::string());
    const int bn = rowAt("aten::batch_norm", "1623142623531804");
    QVERIFY(bn >= 0);
    QCOMPARE(pairs.text(size_t(bn), PairTable::FwdAllocBytes), std::string("102761472"));
}

void TestMemory::sharedTracesAgreeWithReference_data()
{
    QTest::addColumn<QString>("path");
    const QStringList traces = test::sharedTraces();
    if (traces.isEmpty())
        QSKIP("../shared/traces is absent (a user's clone has none): real traces not checked");
    for (const QString &path : traces)
        QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void TestMemory::sharedTracesAgreeWithReference()
{
    QFETCH(QString, path);
    const QJsonObject ref = test::referenceJson(QStringLiteral("memory_reference.py"), path);
    QVERIFY2(!ref.isEmpty(), "memory_reference.py must run (python3 needed)");
    const OpenResult opened = openTrace(path.toStdString());
    QVERIFY(opened.trace);
    const MemoryIndex index(*opened.trace->graph);
    QCOMPARE(qint64(index.memoryEvents()), ref.value(QStringLiteral("memory_events")).toInteger());
    QCOMPARE(
        qint64(index.unmatchedFrees()), ref.value(QStringLiteral("unmatched_frees")).toInteger());
    QCOMPARE(qint64(index.noAddress()), ref.value(QStringLiteral("no_address")).toInteger());
    QCOMPARE(
        qint64(index.outOfMemoryEvents()), ref.value(QStringLiteral("out_of_memory")).toInteger());
    int64_t freed = 0, neverFreed = 0, neverFreedBytes = 0;
    for (const Allocation &a : index.allocations()) {
        freed += a.freeEvent >= 0;
        neverFreed += a.freeEvent < 0;
        neverFreedBytes += a.freeEvent < 0 ? opened.trace->model->memory.bytes[a.event] : 0;
    }
    QCOMPARE(freed, ref.value(QStringLiteral("freed")).toInteger());
    QCOMPARE(neverFreed, ref.value(QStringLiteral("never_freed")).toInteger());
    QCOMPARE(neverFreedBytes, ref.value(QStringLiteral("never_freed_bytes")).toInteger());
    const QJsonArray devices = ref.value(QStringLiteral("devices")).toArray();
    QCOMPARE(qsizetype(index.devices().size()), devices.size());
    for (size_t i = 0; i < index.devices().size(); ++i) {
        const MemoryDevice &d = index.devices()[i];
        const QJsonObject o = devices[qsizetype(i)].toObject();
        QCOMPARE(d.deviceType, o.value(QStringLiteral("device_type")).toInteger());
        QCOMPARE(d.deviceId, o.value(QStringLiteral("device_id")).toInteger());
        QCOMPARE(qint64(d.events), o.value(QStringLiteral("events")).toInteger());
        QCOMPARE(qint64(d.allocations), o.value(QStringLiteral("allocations")).toInteger());
        QCOMPARE(
            d.peakAllocated, o.value(QStringLiteral("peak_allocated_bytes")).toInteger(kNoValue));
        QCOMPARE(
            d.peakReserved, o.value(QStringLiteral("peak_reserved_bytes")).toInteger(kNoValue));
    }
}

QTEST_GUILESS_MAIN(TestMemory)
#include "tst_memory.moc"
