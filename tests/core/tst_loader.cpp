// SPDX-License-Identifier: MIT
// Unit tests of the streaming trace loader (core/tracereader, core/tracebuilder, core/inputfile):
// every phase, layout and anomaly it handles, from inline JSON and from small files.
#include "base/jsonwrite.h"
#include "load/tracereader.h"
#include "modeldump.h"
#include "testutil.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <initializer_list>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace ks;

namespace {

//! A model column as a std::vector, to compare with one.
template<typename T> std::vector<T> asVector(const PodVector<T> &column)
{
    return std::vector<T>(column.begin(), column.end());
}

QByteArray bytes(std::string_view s)
{
    return QByteArray(s.data(), qsizetype(s.size()));
}

//! Count of \a counter; -1 for a name that is no counter (a typo must not read as "none").
int diag(const TraceModel &m, const char *counter)
{
    const std::optional<Diag> d = diagnosticNamed(counter);
    return d ? int(m.diagnostics.count(*d)) : -1;
}

//! Offset of the first example of \a counter, -1 if none.
qint64 diagOffset(const TraceModel &m, const char *counter)
{
    for (const Diagnostics::Example &e : m.diagnostics.examples()) {
        if (info(e.counter).name == counter)
            return qint64(e.offset);
    }
    return -1;
}

SliceId sliceNamed(const TraceModel &m, std::string_view name)
{
    for (SliceId s = 0; s < m.slices.size(); ++s) {
        if (m.sliceName(s) == name)
            return s;
    }
    return kNoSlice;
}

std::vector<std::string> sliceNames(const TraceModel &m)
{
    std::vector<std::string> out;
    for (SliceId s = 0; s < m.slices.size(); ++s)
        out.emplace_back(m.sliceName(s));
    return out;
}

QByteArray joinedNames(const TraceModel &m)
{
    QByteArray out;
    for (const std::string &n : sliceNames(m)) {
        if (!out.isEmpty())
            out += ',';
        out += bytes(n);
    }
    return out;
}

std::string join(std::initializer_list<std::string> events)
{
    std::string out;
    for (const std::string &e : events) {
        if (!out.empty())
            out += ',';
        out += e;
    }
    return out;
}

//! An X event of pid 1 (host) with times in µs exactly as they should be written.
std::string slice(std::string_view name,
    int tid,
    std::string_view ts,
    std::string_view dur,
    std::string_view cat = "cpu_op",
    std::string_view more = {})
{
    std::string e = R"({"ph":"X","cat":")" + std::string(cat) + R"(","name":")" + std::string(name)
        + R"(","pid":1,"tid":)" + std::to_string(tid) + R"(,"ts":)" + std::string(ts) + R"(,"dur":)"
        + std::string(dur);
    if (!more.empty())
        e += "," + std::string(more);
    return e + "}";
}

//! A flow event (s/t/f) on (pid, tid).
std::string flow(char ph,
    std::string_view cat,
    std::string_view id,
    std::string_view pid,
    std::string_view tid,
    std::string_view ts,
    bool enclosing = false)
{
    std::string e = R"({"ph":")" + std::string(1, ph) + R"(","cat":")" + std::string(cat)
        + R"(","name":")" + std::string(cat) + R"(","pid":)" + std::string(pid) + R"(,"tid":)"
        + std::string(tid) + R"(,"ts":)" + std::string(ts);
    if (!id.empty())
        e += R"(,"id":)" + std::string(id);
    if (enclosing)
        e += R"(,"bp":"e")";
    return e + "}";
}

/*!
 * Checks the SliceTable invariants: lanes are contiguous and sorted by (start, longer first),
 * depth and parent agree, and a slice's descendants are exactly [id + 1, subtreeEnd).
 */
QString treeProblem(const TraceModel &m)
{
    const SliceTable &t = m.slices;
    auto isAncestor = [&](SliceId a, SliceId d) {
        for (SliceId p = t.parent[d]; p != kNoSlice; p = t.parent[p]) {
            if (p == a)
                return true;
        }
        return false;
    };
    SliceId expectedBegin = 0;
    for (LaneId l = 0; l < m.lanes.size(); ++l) {
        const Lane &lane = m.lanes[l];
        if (lane.sliceBegin != expectedBegin)
            return QStringLiteral("lane %1 not contiguous").arg(l);
        expectedBegin = lane.sliceEnd;
        uint32_t maxDepth = 0;
        for (SliceId s = lane.sliceBegin; s < lane.sliceEnd; ++s) {
            if (t.lane[s] != l)
                return QStringLiteral("slice %1: wrong lane").arg(s);
            if (s > lane.sliceBegin) {
                const SliceId p = s - 1;
                if (t.start[p] > t.start[s] || (t.start[p] == t.start[s] && t.dur[p] < t.dur[s]))
                    return QStringLiteral("slice %1: not sorted").arg(s);
            }
            const SliceId parent = t.parent[s];
            if (parent == kNoSlice) {
                if (t.depth[s] != 0)
                    return QStringLiteral("slice %1: depth without parent").arg(s);
            } else {
                if (parent >= s || parent < lane.sliceBegin)
                    return QStringLiteral("slice %1: parent outside lane or after it").arg(s);
                if (t.depth[s] != t.depth[parent] + 1)
                    return QStringLiteral("slice %1: depth is not parent's + 1").arg(s);
                if (t.start[s] >= t.end(parent) && !(t.start[s] == t.start[parent]))
                    return QStringLiteral("slice %1: starts after its parent ended").arg(s);
            }
            if (t.subtreeEnd[s] <= s || t.subtreeEnd[s] > lane.sliceEnd)
                return QStringLiteral("slice %1: subtreeEnd out of range").arg(s);
            for (SliceId d = s + 1; d < lane.sliceEnd; ++d) {
                if ((d < t.subtreeEnd[s]) != isAncestor(s, d))
                    return QStringLiteral("slice %1: subtree [%2, %3) wrong at %4")
                        .arg(s)
                        .arg(s + 1)
                        .arg(t.subtreeEnd[s])
                        .arg(d);
            }
            maxDepth = std::max(maxDepth, t.depth[s]);
        }
        if (lane.sliceEnd > lane.sliceBegin && lane.maxDepth != maxDepth)
            return QStringLiteral("lane %1: maxDepth").arg(l);
    }
    if (expectedBegin != t.size())
        return QStringLiteral("lanes do not cover the slice table");
    return {};
}

//! Events "op0", "op1", … on one thread, 10 µs apart; \a tail is appended as further events.
std::string manyEvents(int n, std::string_view tail = {})
{
    std::string out = R"({"schemaVersion":1,"traceEvents":[)";
    out.reserve(size_t(n) * 80 + 64);
    for (int i = 0; i < n; ++i) {
        if (i)
            out += ',';
        out += R"({"ph":"X","cat":"cpu_op","name":"op)";
        out += std::to_string(i);
        out += R"(","pid":1,"tid":1,"ts":)";
        out += std::to_string(i * 10);
        out += R"(,"dur":5})";
    }
    out += tail;
    out += "]}";
    return out;
}

//! Decompresses whatever a (possibly cut) gzip stream holds.
QByteArray gunzipPrefix(const QByteArray &gz)
{
    z_stream zs {};
    inflateInit2(&zs, 16 + MAX_WBITS);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(gz.data()));
    zs.avail_in = uInt(gz.size());
    QByteArray out;
    char buf[1 << 16];
    for (;;) {
        zs.next_out = reinterpret_cast<Bytef *>(buf);
        zs.avail_out = sizeof buf;
        const int rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buf, qsizetype(sizeof buf - zs.avail_out));
        if (rc != Z_OK)
            break;
        if (zs.avail_in == 0 && zs.avail_out != 0)
            break;
    }
    inflateEnd(&zs);
    return out;
}

//! "NAME: byte N: reason": returns N, or -1 when \a error does not have that form.
qint64 errorOffset(const std::string &error, const QString &name)
{
    const QRegularExpression re(
        QStringLiteral("^%1: byte (\\d+): (.+)$").arg(QRegularExpression::escape(name)),
        QRegularExpression::DotMatchesEverythingOption);
    const auto match = re.match(QString::fromStdString(error));
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

} // namespace

#define LOAD_OR_FAIL(var, text)                                                                    \
    const LoadResult var##Result = ks::test::load(text);                                           \
    QVERIFY2(var##Result.status == LoadResult::Status::Loaded && var##Result.model,                \
        var##Result.error.c_str());                                                                \
    const TraceModel &var = *var##Result.model

#define CHECK_TREE(m)                                                                              \
    do {                                                                                           \
        const QString problem = treeProblem(m);                                                    \
        QVERIFY2(problem.isEmpty(), qPrintable(problem));                                          \
    } while (false)

class TestLoader : public QObject {
    Q_OBJECT

private slots:
    // Layouts
    void objectLayoutKeepsOtherTopLevelKeysAsMetadata();
    void bareArrayLayoutLoads();
    void trailingCommasAreAccepted();
    void mangledKernelNamesAreDemangled();

    // X slices
    void sliceTimesAreExactNanoseconds_data();
    void sliceTimesAreExactNanoseconds();
    void nestingGivesDepthParentAndSubtreeEnd();
    void equalStartsPutLongerFirstThenFileOrder();
    void zeroDurationSlicesHaveNoChildren();
    void sliceEndingWhenNextStartsIsNotItsParent();
    void eventsOutOfTimeOrderAreSortedPerLane();
    void eventOffsetsPointAtOpeningBrace();

    // B/E
    void beginEndPairsMatchPerThread();
    void beginWithoutEndIsClosedAtTraceEnd();
    void endWithoutBeginIsCounted();
    void endWithoutCategoryClosesDeviceBegin();
    void endBeforeBeginGivesZeroDuration();

    // Instants, counters, metadata
    void instantsGoOnTheirLaneOrGlobal();
    void countersFormSortedSeriesPerArg();
    void counterSeriesKeepArgNamesThatAreAlsoKnownArgs();
    void singleArgCounterIsNamedAfterItsEvent();
    void counterWithoutNumericArgsIsCounted();
    void metadataNamesProcessesAndThreads();
    void metadataOfManyThreadsAndProcesses();
    void unknownMetadataIsCounted();

    // Flows
    void flowsAreKeyedByCategoryNameAndId();
    void flowEndBindsToEnclosingOrNextSlice();
    void flowStepsChainEdges();
    void flowAnomaliesAreCounted_data();
    void flowAnomaliesAreCounted();

    // Legacy traces, ids, lanes
    void categoriesMapToKindsAndLanes_data();
    void categoriesMapToKindsAndLanes();
    void numericStringPidTidShareLaneWithNumbers();
    void nonNumericPidsAndStreamTidsGetTheirOwnLanes();
    void hostAndDeviceLanesOfOnePidAreSplitByCategory();

    // Typed args
    void cpuOpArgsAreTyped();
    void gpuArgsAreTyped();
    void legacyArgNamesAreAccepted();
    void sequenceNumberForms_data();
    void sequenceNumberForms();

    // Anomalies
    void unknownPhasesAreCounted_data();
    void unknownPhasesAreCounted();
    void unsupportedPhasesAreCounted_data();
    void unsupportedPhasesAreCounted();
    void missingPhIsCounted();
    void unusableTsSkipsOnlyThatEvent_data();
    void unusableTsSkipsOnlyThatEvent();
    void negativeTsIsKept();
    void unusableDurGivesZeroDuration_data();
    void unusableDurGivesZeroDuration();
    void wrongFieldTypesAreCounted_data();
    void wrongFieldTypesAreCounted();
    void entriesThatAreNotObjectsAreCounted();
    void overlappingHostSlicesAreCounted();
    void deepNestingInArgsDoesNotCrash();
    void eventsAcrossManyBatches_data();
    void eventsAcrossManyBatches();
    void deepNestingAndRepairsKeepOffsets_data();
    void deepNestingAndRepairsKeepOffsets();
    void longStringsAreKept();
    void namesAreReadWhereverTheirCharactersFall_data();
    void namesAreReadWhereverTheirCharactersFall();
    void numbersAreReadWhereverTheyFall_data();
    void numbersAreReadWhereverTheyFall();
    void invalidStringsAreRepaired_data();
    void invalidStringsAreRepaired();
    void nanLiteralsAreNotNumbers();

    // Truncation and syntax errors
    void truncatedTextKeepsCompleteEvents_data();
    void truncatedTextKeepsCompleteEvents();
    void truncatedEventCountExcludesIncompleteEvent();
    void textCutBeforeAnyCompleteEventFails_data();
    void textCutBeforeAnyCompleteEventFails();
    void syntaxErrorKeepsEventsBeforeIt_data();
    void syntaxErrorKeepsEventsBeforeIt();

    // Not a trace
    void notATraceFailsWithOffset_data();
    void notATraceFailsWithOffset();

    // Files
    void gzipIsDetectedByMagicNotName();
    void cutGzipLoadsCompleteEvents();
    void corruptGzipFails_data();
    void corruptGzipFails();
    void concatenatedGzipMembersAreOneText();
    void dataAfterGzipStreamIsCounted();
    void readingOnTheParserThreadChangesNothing_data();
    void readingOnTheParserThreadChangesNothing();
    void unreadablePathsFailFast_data();
    void unreadablePathsFailFast();
    void progressIsMonotonicAndEndsAt1000_data();
    void progressIsMonotonicAndEndsAt1000();
    void gzipProgressCountsTextNotCompressedBytes();
    void cancelBeforeLoadingStops_data();
    void cancelBeforeLoadingStops();
    void cancelWhileLoadingStops();
};

void TestLoader::mangledKernelNamesAreDemangled()
{
    // ROCm writes some kernel names mangled; CUPTI demangles CUDA's. The expected names are
    // c++filt's; the second is not a valid mangling past its name, so only the name is read.
    LOAD_OR_FAIL(m, R"({"traceEvents": [
        {"ph":"X","cat":"kernel","name":"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_","pid":0,"tid":7,"ts":1,"dur":1},
        {"ph":"X","cat":"kernel","name":"_ZN2ck6device12_GLOBAL__N_16kernelIXYZ","pid":0,"tid":7,"ts":3,"dur":1},
        {"ph":"X","cat":"kernel","name":"_ZN2ck6device12_GLOBAL__N_16kernelIXYZ","pid":0,"tid":7,"ts":5,"dur":1},
        {"ph":"X","cat":"kernel","name":"_Znot a name","pid":0,"tid":7,"ts":7,"dur":1},
        {"ph":"X","cat":"cpu_op","name":"_Z3foov","pid":1,"tid":1,"ts":1,"dur":9}]})");
    std::vector<std::string> names;
    for (SliceId s = 0; s < m.slices.size(); ++s)
        names.emplace_back(m.sliceName(s));
    std::sort(names.begin(), names.end());
    const std::vector<std::string> expected {"_Z3foov", "_Znot a name",
        "ck::device::(anonymous namespace)::kernel<…>",
        "ck::device::(anonymous namespace)::kernel<…>",
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)"};
    QCOMPARE(names, expected);
}

// ---------------------------------------------------------------------------------------------
// Layouts

void TestLoader::objectLayoutKeepsOtherTopLevelKeysAsMetadata()
{
    const std::string json = R"({"schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA H100", "totalGlobalMem": 85045870592}],
  "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 10, "dur": 5}],
  "traceName": "run \"1\".json", "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1700000000000000000,
  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2, "flags": [true, false, null], "x": {}},
  "with_stack": 1.50})";
    LOAD_OR_FAIL(m, json);
    QVERIFY(!m.arrayLayout);
    QCOMPARE(int(m.slices.size()), 1);
    QCOMPARE(qint64(m.eventCount), qint64(1));
    QCOMPARE(qint64(m.baseTimeNs), qint64(1700000000000000000));
    QVERIFY(!m.metadata.count("traceEvents"));
    QCOMPARE(int(m.metadata.size()), 7);
    QCOMPARE(bytes(m.metadata.at("schemaVersion")), QByteArray("1"));
    QCOMPARE(bytes(m.metadata.at("deviceProperties")),
        QByteArray(R"([{"id":0,"name":"NVIDIA H100","totalGlobalMem":85045870592}])"));
    QCOMPARE(bytes(m.metadata.at("traceName")), QByteArray(R"("run \"1\".json")"));
    QCOMPARE(bytes(m.metadata.at("displayTimeUnit")), QByteArray(R"("ms")"));
    QCOMPARE(bytes(m.metadata.at("baseTimeNanoseconds")), QByteArray("1700000000000000000"));
    QCOMPARE(bytes(m.metadata.at("distributedInfo")),
        QByteArray(
            R"({"backend":"nccl","rank":0,"world_size":2,"flags":[true,false,null],"x":{}})"));
    QCOMPARE(bytes(m.metadata.at("with_stack")), QByteArray("1.50")); // number text as written
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::bareArrayLayoutLoads()
{
    const std::string json
        = std::string("[") + slice("a", 1, "0", "10") + ",\n " + slice("b", 2, "5", "1") + "]";
    LOAD_OR_FAIL(m, json);
    QVERIFY(m.arrayLayout);
    QVERIFY(m.metadata.empty());
    QCOMPARE(qint64(m.baseTimeNs), qint64(0));
    QCOMPARE(joinedNames(m), QByteArray("a,b"));
    QCOMPARE(qint64(m.eventCount), qint64(2));
    QCOMPARE(int(m.lanes.size()), 2);
    QVERIFY(!m.truncated);
    QCOMPARE(qint64(m.textSize), qint64(json.size()));
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::trailingCommasAreAccepted()
{
    // Hand-edited traces often keep a trailing comma; Chrome accepts it.
    LOAD_OR_FAIL(m, R"({"traceEvents": [{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},],})");
    QCOMPARE(int(m.slices.size()), 1);
    QVERIFY(!m.truncated);
    QVERIFY(m.diagnostics.empty());
}

// ---------------------------------------------------------------------------------------------
// X slices

void TestLoader::sliceTimesAreExactNanoseconds_data()
{
    QTest::addColumn<QByteArray>("ts");
    QTest::addColumn<QByteArray>("dur");
    QTest::addColumn<qint64>("startNs");
    QTest::addColumn<qint64>("durNs");
    QTest::addColumn<int>("tsDecimals");
    QTest::addColumn<int>("durDecimals");
    QTest::addRow("ns resolution epoch") << QByteArray("4458676522709.059") << QByteArray("12.345")
                                         << qint64(4458676522709059) << qint64(12345) << 3 << 3;
    QTest::addRow("integer µs epoch (≤2023)")
        << QByteArray("1623142623460111") << QByteArray("25") << qint64(1623142623460111000)
        << qint64(25000) << 0 << 0;
    QTest::addRow("relative with 3 decimals") << QByteArray("812000.250") << QByteArray("180.500")
                                              << qint64(812000250) << qint64(180500) << 3 << 3;
    QTest::addRow("one and two decimals")
        << QByteArray("12.5") << QByteArray("0.25") << qint64(12500) << qint64(250) << 1 << 2;
    QTest::addRow("more than 3 decimals rounds")
        << QByteArray("1.23456") << QByteArray("1") << qint64(1235) << qint64(1000) << 3 << 0;
    QTest::addRow("numeric strings")
        << QByteArray(R"("1623142623460111")") << QByteArray(R"("7.5")")
        << qint64(1623142623460111000) << qint64(7500) << 0 << 1;
    QTest::addRow("exponent") << QByteArray("1.5e3") << QByteArray("2") << qint64(1500000)
                              << qint64(2000) << 3 << 0;
    QTest::addRow("zero") << QByteArray("0") << QByteArray("0") << qint64(0) << qint64(0) << 0 << 0;
}

void TestLoader::sliceTimesAreExactNanoseconds()
{
    QFETCH(QByteArray, ts);
    QFETCH(QByteArray, dur);
    QFETCH(qint64, startNs);
    QFETCH(qint64, durNs);
    QFETCH(int, tsDecimals);
    QFETCH(int, durDecimals);
    LOAD_OR_FAIL(m, test::traceWith(slice("op", 1, ts.toStdString(), dur.toStdString())));
    QCOMPARE(int(m.slices.size()), 1);
    QCOMPARE(qint64(m.slices.start[0]), startNs);
    QCOMPARE(qint64(m.slices.dur[0]), durNs);
    QCOMPARE(qint64(m.slices.end(0)), startNs + durNs);
    QCOMPARE(m.slices.tsDecimals(0), tsDecimals);
    QCOMPARE(m.slices.durDecimals(0), durDecimals);
    QCOMPARE(qint64(m.minTime), startNs);
    QCOMPARE(qint64(m.maxTime), startNs + durNs);
    QVERIFY(!(m.slices.flags[0] & SliceTable::Unfinished));
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::nestingGivesDepthParentAndSubtreeEnd()
{
    // A [0,100) ⊃ B [10,50) ⊃ C [20,30); A ⊃ D [60,90); E [100,110) starts as A ends.
    // Written out of order.
    const std::string json
        = test::traceWith(join({slice("D", 1, "60", "30"), slice("B", 1, "10", "40"),
            slice("E", 1, "100", "10"), slice("A", 1, "0", "100"), slice("C", 1, "20", "10")}));
    LOAD_OR_FAIL(m, json);
    CHECK_TREE(m);
    const SliceTable &t = m.slices;
    QCOMPARE(joinedNames(m), QByteArray("A,B,C,D,E"));
    QCOMPARE(int(m.lanes.size()), 1);
    QCOMPARE(m.lanes[0].sliceBegin, SliceId(0));
    QCOMPARE(m.lanes[0].sliceEnd, SliceId(5));
    QCOMPARE(m.lanes[0].maxDepth, 2u);
    const std::vector<uint32_t> depth {0, 1, 2, 1, 0};
    const std::vector<SliceId> parent {kNoSlice, 0, 1, 0, kNoSlice};
    const std::vector<SliceId> subtreeEnd {4, 3, 3, 4, 5};
    QCOMPARE(asVector(t.depth), depth);
    QCOMPARE(asVector(t.parent), parent);
    QCOMPARE(asVector(t.subtreeEnd), subtreeEnd);
    // The lookups the flow binding uses.
    QCOMPARE(m.innermostAt(0, 25000), SliceId(2));
    QCOMPARE(m.innermostAt(0, 55000), SliceId(0));
    QCOMPARE(m.innermostAt(0, 100000), SliceId(4));
    QCOMPARE(m.innermostAt(0, 110000), kNoSlice);
    QCOMPARE(m.firstStartingAtOrAfter(0, 55000), SliceId(3));
    QCOMPARE(m.firstStartingAtOrAfter(0, 100001), kNoSlice);
    QCOMPARE(qint64(m.minTime), qint64(0));
    QCOMPARE(qint64(m.maxTime), qint64(110000));
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::equalStartsPutLongerFirstThenFileOrder()
{
    const std::string json = test::traceWith(join({slice("short", 1, "0", "10"),
        slice("long", 1, "0", "20"), slice("first", 1, "50", "5"), slice("second", 1, "50", "5")}));
    LOAD_OR_FAIL(m, json);
    CHECK_TREE(m);
    QCOMPARE(joinedNames(m), QByteArray("long,short,first,second"));
    const std::vector<SliceId> parent {kNoSlice, 0, kNoSlice, 2};
    QCOMPARE(asVector(m.slices.parent), parent);
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::zeroDurationSlicesHaveNoChildren()
{
    // A [0,10) ⊃ Y [5,7); Z1, Z2 zero-length at 5 (file order kept); Z3 zero-length at 7,
    // exactly when Y ends: not Y's child.
    const std::string json
        = test::traceWith(join({slice("Z1", 1, "5", "0"), slice("A", 1, "0", "10"),
            slice("Z3", 1, "7", "0"), slice("Z2", 1, "5", "0"), slice("Y", 1, "5", "2")}));
    LOAD_OR_FAIL(m, json);
    CHECK_TREE(m);
    QCOMPARE(joinedNames(m), QByteArray("A,Y,Z1,Z2,Z3"));
    const std::vector<SliceId> parent {kNoSlice, 0, 1, 1, 0};
    const std::vector<uint32_t> depth {0, 1, 2, 2, 1};
    const std::vector<SliceId> subtreeEnd {5, 4, 3, 4, 5};
    QCOMPARE(asVector(m.slices.parent), parent);
    QCOMPARE(asVector(m.slices.depth), depth);
    QCOMPARE(asVector(m.slices.subtreeEnd), subtreeEnd);
    QCOMPARE(qint64(m.slices.dur[2]), qint64(0));
    // A zero-length slice is "at" its start for flow binding.
    QCOMPARE(m.innermostAt(0, 5000), SliceId(3));
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::sliceEndingWhenNextStartsIsNotItsParent()
{
    const std::string json = test::traceWith(
        join({slice("P", 1, "0", "10"), slice("Q", 1, "10", "5"), slice("Qc", 1, "10", "2")}));
    LOAD_OR_FAIL(m, json);
    CHECK_TREE(m);
    QCOMPARE(joinedNames(m), QByteArray("P,Q,Qc"));
    const std::vector<SliceId> parent {kNoSlice, kNoSlice, 1};
    QCOMPARE(asVector(m.slices.parent), parent);
    QCOMPARE(m.slices.subtreeEnd[0], SliceId(1));
    QCOMPARE(m.innermostAt(0, 10000), SliceId(2));
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::eventsOutOfTimeOrderAreSortedPerLane()
{
    const std::string json = test::traceWith(join({
        R"({"ph":"X","cat":"cpu_op","name":"p2t1-late","pid":2,"tid":1,"ts":90,"dur":1})",
        slice("t2-late", 2, "80", "1"),
        slice("t1-late", 1, "70", "1"),
        R"({"ph":"X","cat":"cpu_op","name":"p2t1-early","pid":2,"tid":1,"ts":3,"dur":1})",
        slice("t2-early", 2, "2", "1"),
        slice("t1-early", 1, "1", "1"),
    }));
    LOAD_OR_FAIL(m, json);
    CHECK_TREE(m);
    // Lanes are ordered by (host before device, pid, tid).
    QCOMPARE(int(m.lanes.size()), 3);
    QCOMPARE(qint64(m.lanes[0].pid), qint64(1));
    QCOMPARE(qint64(m.lanes[0].tid), qint64(1));
    QCOMPARE(qint64(m.lanes[1].pid), qint64(1));
    QCOMPARE(qint64(m.lanes[1].tid), qint64(2));
    QCOMPARE(qint64(m.lanes[2].pid), qint64(2));
    QCOMPARE(qint64(m.lanes[2].tid), qint64(1));
    QCOMPARE(joinedNames(m), QByteArray("t1-early,t1-late,t2-early,t2-late,p2t1-early,p2t1-late"));
    QCOMPARE(m.findLane(2, 1, false), LaneId(2));
    QCOMPARE(m.findLane(2, 1, true), kNoLane);
    QCOMPARE(qint64(m.minTime), qint64(1000));
    QCOMPARE(qint64(m.maxTime), qint64(91000));
}

void TestLoader::eventOffsetsPointAtOpeningBrace()
{
    const std::string a = slice("a", 1, "0", "10");
    const std::string b = R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":20})"; // no dur
    const std::string i = R"({"ph":"i","s":"t","name":"mark","pid":1,"tid":1,"ts":5})";
    const std::string json = test::traceWith(join({b, " \n" + a, i}));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(qint64(m.slices.offset[sliceNamed(m, "a")]), qint64(json.find(a)));
    QCOMPARE(qint64(m.slices.offset[sliceNamed(m, "b")]), qint64(json.find(b)));
    QCOMPARE(int(m.instants.size()), 1);
    QCOMPARE(qint64(m.instants.offset[0]), qint64(json.find(i)));
    QCOMPARE(diag(m, "missing_dur"), 1);
    QCOMPARE(diagOffset(m, "missing_dur"), qint64(json.find(b)));

    // The same offsets in the original text when the strings needed repairing.
    const std::string c
        = "{\"ph\":\"X\",\"name\":\"c\tc\",\"pid\":1,\"tid\":1,\"ts\":30,\"dur\":1}";
    const std::string repairedJson = test::traceWith(join({a, c, b}));
    LOAD_OR_FAIL(r, repairedJson);
    QCOMPARE(diag(r, "repaired_strings"), 1);
    QCOMPARE(diagOffset(r, "repaired_strings"), qint64(repairedJson.find('\t')));
    QCOMPARE(qint64(r.slices.offset[sliceNamed(r, "a")]), qint64(repairedJson.find(a)));
    QCOMPARE(qint64(r.slices.offset[sliceNamed(r, "c\tc")]), qint64(repairedJson.find(c)));
    QCOMPARE(qint64(r.slices.offset[sliceNamed(r, "b")]), qint64(repairedJson.find(b)));
}

// ---------------------------------------------------------------------------------------------
// B/E

void TestLoader::beginEndPairsMatchPerThread()
{
    const std::string json = test::traceWith(join({
        R"({"ph":"B","name":"outer","pid":1,"tid":1,"ts":0})",
        R"({"ph":"B","name":"inner","pid":1,"tid":1,"ts":10,"args":{"External id":3}})",
        R"({"ph":"B","name":"other","pid":1,"tid":2,"ts":5})",
        R"({"ph":"E","name":"not the name of inner","pid":1,"tid":1,"ts":20.5,"args":{"correlation":9}})",
        R"({"ph":"E","pid":1,"tid":2,"ts":30})",
        R"({"ph":"X","name":"x","pid":1,"tid":1,"ts":25,"dur":5})",
        R"({"ph":"E","pid":1,"tid":1,"ts":40,"args":{"External id":7}})",
    }));
    LOAD_OR_FAIL(m, json);
    CHECK_TREE(m);
    QCOMPARE(joinedNames(m), QByteArray("outer,inner,x,other"));
    const SliceTable &t = m.slices;
    QCOMPARE(qint64(t.start[0]), qint64(0));
    QCOMPARE(qint64(t.dur[0]), qint64(40000));
    QCOMPARE(qint64(t.start[1]), qint64(10000));
    QCOMPARE(qint64(t.dur[1]), qint64(10500));
    QCOMPARE(t.durDecimals(1), 1); // from the E event's ts
    QCOMPARE(qint64(t.start[3]), qint64(5000));
    QCOMPARE(qint64(t.dur[3]), qint64(25000));
    const std::vector<SliceId> parent {kNoSlice, 0, 0, kNoSlice};
    QCOMPARE(asVector(t.parent), parent);
    for (SliceId s = 0; s < t.size(); ++s)
        QVERIFY(!(t.flags[s] & SliceTable::Unfinished));
    // Args of the E event complete those of the B event.
    QCOMPARE(qint64(t.externalId[1]), qint64(3));
    QCOMPARE(qint64(t.correlation[1]), qint64(9));
    QCOMPARE(qint64(t.externalId[0]), qint64(7));
    QCOMPARE(qint64(m.eventCount), qint64(7));
    QVERIFY2(m.diagnostics.empty(), m.diagnostics.report().c_str());
}

void TestLoader::beginWithoutEndIsClosedAtTraceEnd()
{
    const std::string json = test::traceWith(join({
        slice("long", 2, "0", "500"),
        R"({"ph":"B","name":"open","pid":1,"tid":1,"ts":100})",
        R"({"ph":"B","name":"closed","pid":1,"tid":1,"ts":150})",
        R"({"ph":"E","pid":1,"tid":1,"ts":200})",
    }));
    LOAD_OR_FAIL(m, json);
    CHECK_TREE(m);
    const SliceId open = sliceNamed(m, "open");
    const SliceId closed = sliceNamed(m, "closed");
    QVERIFY(open != kNoSlice && closed != kNoSlice);
    QCOMPARE(diag(m, "unmatched_begin"), 1);
    QCOMPARE(diagOffset(m, "unmatched_begin"), qint64(json.find(R"({"ph":"B","name":"open")")));
    QVERIFY(m.slices.flags[open] & SliceTable::Unfinished);
    QVERIFY(!(m.slices.flags[closed] & SliceTable::Unfinished));
    QCOMPARE(qint64(m.slices.start[open]), qint64(100000));
    QCOMPARE(qint64(m.slices.end(open)), qint64(500000)); // the end of the trace
    QCOMPARE(qint64(m.slices.dur[closed]), qint64(50000));
    QCOMPARE(m.slices.parent[closed], open);
    QCOMPARE(qint64(m.maxTime), qint64(500000));
    QCOMPARE(int(m.diagnostics.total()), 1);
}

void TestLoader::endWithoutBeginIsCounted()
{
    const std::string json = test::traceWith(join({
        R"({"ph":"E","pid":1,"tid":3,"ts":5})", // thread without events
        R"({"ph":"B","name":"b","pid":1,"tid":1,"ts":10})", R"({"ph":"E","pid":1,"tid":1,"ts":20})",
        R"({"ph":"E","pid":1,"tid":1,"ts":30})", // nothing open any more
    }));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(diag(m, "unmatched_end"), 2);
    QCOMPARE(int(m.slices.size()), 1);
    QCOMPARE(qint64(m.slices.dur[0]), qint64(10000));
    QCOMPARE(int(m.lanes.size()), 1);
    QCOMPARE(int(m.diagnostics.total()), 2);
}

void TestLoader::endWithoutCategoryClosesDeviceBegin()
{
    LOAD_OR_FAIL(m,
        test::traceWith(join({
            R"({"ph":"B","cat":"kernel","name":"k","pid":0,"tid":7,"ts":0})",
            R"({"ph":"E","pid":0,"tid":7,"ts":10})",
        })));
    QCOMPARE(int(m.slices.size()), 1);
    QCOMPARE(qint64(m.slices.dur[0]), qint64(10000));
    QVERIFY(m.lanes[m.slices.lane[0]].device);
    QVERIFY(!(m.slices.flags[0] & SliceTable::Unfinished));
    QVERIFY2(m.diagnostics.empty(), m.diagnostics.report().c_str());
}

void TestLoader::endBeforeBeginGivesZeroDuration()
{
    LOAD_OR_FAIL(m,
        test::traceWith(join({R"({"ph":"B","name":"b","pid":1,"tid":1,"ts":50})",
            R"({"ph":"E","pid":1,"tid":1,"ts":40})"})));
    QCOMPARE(int(m.slices.size()), 1);
    QCOMPARE(qint64(m.slices.start[0]), qint64(50000));
    QCOMPARE(qint64(m.slices.dur[0]), qint64(0));
    QCOMPARE(diag(m, "negative_dur"), 1);
    QCOMPARE(diag(m, "unmatched_begin"), 0);
}

// ---------------------------------------------------------------------------------------------
// Instants, counters, metadata

void TestLoader::instantsGoOnTheirLaneOrGlobal()
{
    const std::string json = test::traceWith(join({
        slice("op", 1, "0", "100"),
        R"({"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":30,"args":{"Bytes":512}})",
        R"({"ph":"i","s":"t","name":"early","pid":1,"tid":1,"ts":10})",
        R"({"ph":"I","name":"capital","pid":1,"tid":1,"ts":20})",
        R"({"ph":"i","s":"g","name":"Iteration Start: PyTorch Profiler","pid":"","tid":"","ts":5})",
        R"({"ph":"i","s":"g","name":"Record Window End","pid":"","tid":"","ts":200})",
        R"({"ph":"i","s":"t","name":"other thread","pid":1,"tid":2,"ts":15})",
        R"({"ph":"R","name":"mark","pid":1,"tid":2,"ts":16})",
    }));
    LOAD_OR_FAIL(m, json);
    const InstantTable &in = m.instants;
    QCOMPARE(int(in.size()), 7);
    QCOMPARE(int(m.lanes.size()), 2); // global instants create no lane
    const LaneId t1 = m.findLane(1, 1, false);
    const LaneId t2 = m.findLane(1, 2, false);
    QCOMPARE(t1, LaneId(0));
    QCOMPARE(t2, LaneId(1));
    QCOMPARE(m.lanes[t1].instantBegin, 0u);
    QCOMPARE(m.lanes[t1].instantEnd, 3u);
    QCOMPARE(m.lanes[t2].instantBegin, 3u);
    QCOMPARE(m.lanes[t2].instantEnd, 5u);
    const char *names[] = {"early", "capital", "[memory]", "other thread", "mark",
        "Iteration Start: PyTorch Profiler", "Record Window End"};
    const qint64 times[] = {10000, 20000, 30000, 15000, 16000, 5000, 200000};
    const LaneId lanes[] = {t1, t1, t1, t2, t2, kNoLane, kNoLane};
    for (int k = 0; k < 7; ++k) {
        QCOMPARE(bytes(m.str(in.name[k])), QByteArray(names[k]));
        QCOMPARE(qint64(in.time[k]), times[k]);
        QCOMPARE(in.lane[k], lanes[k]);
    }
    QCOMPARE(qint64(m.minTime), qint64(0));
    QCOMPARE(qint64(m.maxTime), qint64(200000));
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::countersFormSortedSeriesPerArg()
{
    const std::string json = test::traceWith(join({
        R"({"ph":"C","name":"mem","pid":1,"ts":20,"args":{"alloc":5,"free":2.5}})",
        R"({"ph":"C","name":"mem","pid":1,"ts":10,"args":{"alloc":3,"free":1,"label":"not a number"}})",
        R"({"ph":"C","name":"mem","pid":2,"ts":10,"args":{"alloc":7,"free":0}})",
        R"({"name":"late ph","args":{"v":-1.5e2},"ph":"C","pid":1,"ts":1})", // args before ph
    }));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(int(m.counters.size()), 5);
    auto series = [&](int64_t pid, std::string_view name) -> const CounterSeries * {
        for (const CounterSeries &c : m.counters) {
            if (c.pid == pid && m.str(c.name) == name)
                return &c;
        }
        return nullptr;
    };
    const CounterSeries *alloc = series(1, "mem.alloc");
    const CounterSeries *freed = series(1, "mem.free");
    const CounterSeries *alloc2 = series(2, "mem.alloc");
    const CounterSeries *late = series(1, "late ph"); // a single arg: named after its event
    QVERIFY(alloc && freed && alloc2 && late);
    QCOMPARE(alloc->time, (std::vector<TimeNs> {10000, 20000}));
    QCOMPARE(alloc->value, (std::vector<double> {3, 5}));
    QCOMPARE(freed->time, (std::vector<TimeNs> {10000, 20000}));
    QCOMPARE(freed->value, (std::vector<double> {1, 2.5}));
    QCOMPARE(alloc2->time, (std::vector<TimeNs> {10000}));
    QCOMPARE(alloc2->value, (std::vector<double> {7}));
    QCOMPARE(late->value, (std::vector<double> {-150}));
    QCOMPARE(int(m.slices.size()), 0);
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::counterSeriesKeepArgNamesThatAreAlsoKnownArgs()
{
    // "device", "stream", "correlation" are args the reader types for slices; as counter args
    // they are plain series names.
    LOAD_OR_FAIL(m,
        test::traceWith(
            R"({"ph":"C","name":"gpu","pid":0,"ts":1,"args":{"device":1,"stream":2,"correlation":3,"util":4}})"));
    std::vector<std::string> names;
    for (const CounterSeries &c : m.counters)
        names.emplace_back(m.str(c.name));
    std::sort(names.begin(), names.end());
    QByteArray joined;
    for (const std::string &n : names)
        joined += bytes(n) + ';';
    QCOMPARE(joined, QByteArray("gpu.correlation;gpu.device;gpu.stream;gpu.util;"));
}

void TestLoader::singleArgCounterIsNamedAfterItsEvent()
{
    // tracemodel.h: CounterSeries::name is "<event name>.<arg name>", or the event name for a
    // single arg.
    LOAD_OR_FAIL(m,
        test::traceWith(join({
            R"({"ph":"C","name":"Allocated","pid":1,"ts":1,"args":{"value":10}})",
            R"({"ph":"C","name":"Allocated","pid":1,"ts":2,"args":{"value":20}})",
        })));
    QCOMPARE(int(m.counters.size()), 1);
    QCOMPARE(bytes(m.str(m.counters[0].name)), QByteArray("Allocated"));
    QCOMPARE(m.counters[0].value, (std::vector<double> {10, 20}));
}

void TestLoader::counterWithoutNumericArgsIsCounted()
{
    LOAD_OR_FAIL(m,
        test::traceWith(join({
            R"({"ph":"C","name":"c","pid":1,"ts":1,"args":{"s":"text"}})",
            R"({"ph":"C","name":"c","pid":1,"ts":2})",
            slice("op", 1, "0", "1"),
        })));
    QCOMPARE(diag(m, "empty_counter"), 2);
    QCOMPARE(int(m.counters.size()), 0);
    QCOMPARE(int(m.slices.size()), 1);
}

// 3000 threads of one process and 3000 processes of one thread, each named by metadata: every
// name lands on its own lane or process (they are found by key, not by scanning every lane).
void TestLoader::metadataOfManyThreadsAndProcesses()
{
    std::string events;
    for (int i = 0; i < 3000; ++i) {
        const std::string t = std::to_string(100 + i), p = std::to_string(5000 + i);
        events += R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":)" + t
            + R"(,"ts":0,"dur":1},)";
        events += R"({"ph":"M","name":"thread_name","pid":1,"tid":)" + t
            + R"(,"args":{"name":"worker )" + t + "\"}},";
        events += R"({"ph":"X","cat":"cpu_op","name":"op","pid":)" + p
            + R"(,"tid":1,"ts":0,"dur":1},)";
        events += R"({"ph":"M","name":"process_name","pid":)" + p + R"(,"args":{"name":"rank )" + p
            + "\"}},";
    }
    events.pop_back(); // the last comma
    LOAD_OR_FAIL(m, test::traceWith(events));
    QCOMPARE(int(m.lanes.size()), 6000);
    QCOMPARE(int(m.processes.size()), 3001);
    for (const Lane &lane : m.lanes) {
        if (lane.pid == 1)
            QCOMPARE(m.str(lane.threadName), "worker " + std::to_string(lane.tid));
    }
    for (const Process &p : m.processes) {
        if (p.pid != 1)
            QCOMPARE(m.str(p.name), "rank " + std::to_string(p.pid));
    }
}

void TestLoader::metadataNamesProcessesAndThreads()
{
    const std::string json = test::traceWith(join({
        R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python3"}})",
        R"({"ph":"M","name":"process_labels","pid":1,"tid":0,"args":{"labels":"CPU"}})",
        R"({"ph":"M","name":"process_labels","pid":1,"tid":0,"args":{"labels":"GPU 1"}})",
        R"({"ph":"M","name":"process_sort_index","pid":1,"tid":0,"args":{"sort_index":5}})",
        R"J({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"thread 1 (python)"}})J",
        R"({"ph":"M","name":"thread_sort_index","pid":1,"tid":1,"args":{"sort_index":3}})",
        R"({"ph":"M","name":"thread_name","pid":1,"tid":7,"args":{"name":"stream 7 "}})",
        R"({"ph":"M","name":"thread_name","pid":2,"tid":9,"args":{"name":"no events"}})",
        slice("op", 1, "0", "10"),
        slice("op7", 7, "0", "10"), // a host thread whose tid equals the stream id
        R"({"ph":"X","cat":"kernel","name":"k","pid":1,"tid":7,"ts":0,"dur":10})",
    }));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(qint64(m.eventCount), qint64(11));
    QCOMPARE(int(m.lanes.size()), 3);
    const LaneId host1 = m.findLane(1, 1, false);
    const LaneId host7 = m.findLane(1, 7, false);
    const LaneId dev7 = m.findLane(1, 7, true);
    QVERIFY(host1 != kNoLane && host7 != kNoLane && dev7 != kNoLane);
    QVERIFY(m.lanes[dev7].device);
    QVERIFY(!m.lanes[host7].device);
    QCOMPARE(bytes(m.str(m.lanes[host1].threadName)), QByteArray("thread 1 (python)"));
    QCOMPARE(qint64(m.lanes[host1].sortIndex), qint64(3));
    QCOMPARE(bytes(m.laneLabel(host1)), QByteArray("thread 1 (python)"));
    QCOMPARE(bytes(m.laneLabel(dev7)), QByteArray("stream 7")); // trailing blank dropped
    QCOMPARE(bytes(m.laneLabel(host7)), QByteArray("thread 7"));
    QCOMPARE(qint64(m.lanes[host7].sortIndex), qint64(kNoValue));

    QCOMPARE(int(m.processes.size()), 2);
    const Process *host = nullptr, *dev = nullptr;
    for (const Process &p : m.processes)
        (p.device ? dev : host) = &p;
    QVERIFY(host && dev);
    QCOMPARE(qint64(host->pid), qint64(1));
    QCOMPARE(qint64(dev->pid), qint64(1));
    QCOMPARE(bytes(m.str(host->name)), QByteArray("python3"));
    QCOMPARE(bytes(m.str(dev->name)), QByteArray("python3"));
    QCOMPARE(bytes(m.str(host->labels)), QByteArray("CPU"));
    QCOMPARE(bytes(m.str(dev->labels)), QByteArray("GPU 1"));
    QCOMPARE(qint64(host->sortIndex), qint64(5));
    QCOMPARE(qint64(dev->sortIndex), qint64(5));
    QCOMPARE(bytes(m.str(host->pidText)), QByteArray("1"));
    QCOMPARE(diag(m, "unknown_metadata"), 0);
}

void TestLoader::unknownMetadataIsCounted()
{
    LOAD_OR_FAIL(m,
        test::traceWith(join({R"({"ph":"M","name":"foo_bar","pid":1,"tid":1,"args":{}})",
            slice("op", 1, "0", "1")})));
    QCOMPARE(diag(m, "unknown_metadata"), 1);
    QCOMPARE(int(m.slices.size()), 1);
}

// ---------------------------------------------------------------------------------------------
// Flows

void TestLoader::flowsAreKeyedByCategoryNameAndId()
{
    // fwdbwd id 5 and ac2g id 5 are unrelated flows.
    const std::string json = test::traceWith(join({
        slice("aten::mm", 1, "0", "30"),
        slice("cudaLaunchKernel", 1, "10", "5", "cuda_runtime"),
        slice("MmBackward0", 2, "100", "20"),
        R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":50,"dur":10})",
        flow('s', "fwdbwd", "5", "1", "1", "0"),
        flow('f', "fwdbwd", "5", "1", "2", "100", true),
        flow('s', "ac2g", "5", "1", "1", "10"),
        flow('f', "ac2g", "5", "0", "7", "50", true),
    }));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(qint64(m.flowKeysWithBothEnds), qint64(2));
    QCOMPARE(int(m.flows.size()), 2);
    const FlowEdge *fb = nullptr, *launch = nullptr;
    for (const FlowEdge &e : m.flows)
        (e.kind == FlowKind::FwdBwd ? fb : launch) = &e;
    QVERIFY(fb && launch);
    QCOMPARE(int(launch->kind), int(FlowKind::LaunchToGpu));
    QCOMPARE(fb->from, sliceNamed(m, "aten::mm"));
    QCOMPARE(fb->to, sliceNamed(m, "MmBackward0"));
    QCOMPARE(fb->fromLane, m.findLane(1, 1, false));
    QCOMPARE(fb->toLane, m.findLane(1, 2, false));
    QCOMPARE(qint64(fb->fromTime), qint64(0));
    QCOMPARE(qint64(fb->toTime), qint64(100000));
    QCOMPARE(qint64(fb->id), qint64(5));
    QCOMPARE(bytes(m.str(fb->category)), QByteArray("fwdbwd"));
    QCOMPARE(launch->from, sliceNamed(m, "cudaLaunchKernel"));
    QCOMPARE(launch->to, sliceNamed(m, "gemm"));
    QCOMPARE(launch->toLane, m.findLane(0, 7, true));
    QCOMPARE(qint64(launch->id), qint64(5));
    QCOMPARE(bytes(m.str(launch->category)), QByteArray("ac2g"));
    QVERIFY2(m.diagnostics.empty(), m.diagnostics.report().c_str());
}

void TestLoader::flowEndBindsToEnclosingOrNextSlice()
{
    // Thread 1: a [0,10), b [20,30). Thread 2: c [10,15), d [20,25).
    const std::string json = test::traceWith(join({
        slice("a", 1, "0", "10"),
        slice("b", 1, "20", "10"),
        slice("c", 2, "10", "5"),
        slice("d", 2, "20", "5"),
        // Without bp the end binds to the next slice that begins: d.
        flow('s', "x", "1", "1", "1", "5"),
        flow('f', "x", "1", "1", "2", "16"),
        // With bp:"e" it binds to the enclosing slice: c.
        flow('s', "x", "2", "1", "1", "5"),
        flow('f', "x", "2", "1", "2", "12", true),
        // A numeric string id is the same id as the number.
        flow('s', "x", R"("3")", "1", "1", "22"),
        flow('f', "x", "3", "1", "2", "12", true),
        // A non-numeric string id.
        flow('s', "x", R"("0x1f")", "1", "1", "1"),
        flow('f', "x", R"("0x1f")", "1", "2", "21", true),
    }));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(qint64(m.flowKeysWithBothEnds), qint64(4));
    QCOMPARE(int(m.flows.size()), 4);
    const SliceId a = sliceNamed(m, "a"), b = sliceNamed(m, "b"), c = sliceNamed(m, "c"),
                  d = sliceNamed(m, "d");
    auto edge = [&](int64_t id, SliceId from) -> const FlowEdge * {
        for (const FlowEdge &e : m.flows) {
            if (e.id == id && e.from == from)
                return &e;
        }
        return nullptr;
    };
    const FlowEdge *e1 = edge(1, a), *e2 = edge(2, a), *e3 = edge(3, b), *e4 = edge(kNoValue, a);
    QVERIFY(e1 && e2 && e3 && e4);
    QCOMPARE(e1->to, d);
    QCOMPARE(e2->to, c);
    QCOMPARE(e3->to, c);
    QCOMPARE(e4->to, d);
    for (const FlowEdge *e : {e1, e2, e3, e4})
        QCOMPARE(int(e->kind), int(FlowKind::Other));
    QVERIFY2(m.diagnostics.empty(), m.diagnostics.report().c_str());
}

void TestLoader::flowStepsChainEdges()
{
    const std::string json = test::traceWith(join({
        slice("a", 1, "0", "10"),
        slice("b", 1, "20", "10"),
        slice("c", 2, "10", "5"),
        flow('f', "chain", "9", "1", "1", "25", true), // written first: order is by kind, then ts
        flow('t', "chain", "9", "1", "2", "12"),
        flow('s', "chain", "9", "1", "1", "5"),
    }));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(qint64(m.flowKeysWithBothEnds), qint64(1));
    QCOMPARE(int(m.flows.size()), 2);
    QCOMPARE(m.flows[0].from, sliceNamed(m, "a"));
    QCOMPARE(m.flows[0].to, sliceNamed(m, "c"));
    QCOMPARE(qint64(m.flows[0].fromTime), qint64(5000));
    QCOMPARE(qint64(m.flows[0].toTime), qint64(12000));
    QCOMPARE(m.flows[1].from, sliceNamed(m, "c"));
    QCOMPARE(m.flows[1].to, sliceNamed(m, "b"));
    QCOMPARE(qint64(m.flows[1].toTime), qint64(25000));
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::flowAnomaliesAreCounted_data()
{
    QTest::addColumn<QByteArray>("flows");
    QTest::addColumn<QByteArray>("counter");
    QTest::addColumn<int>("edges");
    QTest::addColumn<int>("keysWithBothEnds");
    // Base: thread 1: a [0,10), b [20,30); thread 2: c [0,10).
    auto row = [](const char *name, std::initializer_list<std::string> f, const char *counter,
                   int edges, int keys) {
        QTest::addRow("%s", name) << QByteArray::fromStdString(join(f)) << QByteArray(counter)
                                  << edges << keys;
    };
    row("duplicate end",
        {flow('s', "ac2g", "1", "1", "1", "5"), flow('f', "ac2g", "1", "1", "2", "5", true),
            flow('f', "ac2g", "1", "1", "2", "6", true)},
        "duplicate_flow_end", 1, 1);
    row("duplicate start",
        {flow('s', "ac2g", "1", "1", "1", "5"), flow('s', "ac2g", "1", "1", "1", "25"),
            flow('f', "ac2g", "1", "1", "2", "5", true)},
        "duplicate_flow_start", 1, 1);
    row("lone start", {flow('s', "ac2g", "1", "1", "1", "5")}, "flow_start_without_end", 0, 0);
    row("lone end", {flow('f', "ac2g", "1", "1", "2", "5", true)}, "flow_end_without_start", 0, 0);
    row("lone step", {flow('t', "ac2g", "1", "1", "2", "5")}, "flow_step_without_ends", 0, 0);
    row("flow to itself",
        {flow('s', "fwdbwd", "1", "1", "1", "2"), flow('f', "fwdbwd", "1", "1", "1", "8", true)},
        "flow_to_itself", 0, 1);
    row("start on unknown thread",
        {flow('s', "fwdbwd", "1", "9", "9", "5"), flow('f', "fwdbwd", "1", "1", "2", "5", true)},
        "flow_on_unknown_thread", 0, 1);
    row("end on unknown thread",
        {flow('s', "fwdbwd", "1", "1", "1", "5"), flow('f', "fwdbwd", "1", "9", "9", "5", true)},
        "flow_on_unknown_thread", 0, 1);
    row("without id",
        {flow('s', "ac2g", "", "1", "1", "5"), flow('f', "ac2g", "", "1", "2", "5", true)},
        "flow_without_id", 0, 0);
    row("start between slices",
        {flow('s', "fwdbwd", "1", "1", "1", "15"), flow('f', "fwdbwd", "1", "1", "2", "5", true)},
        "flow_endpoint_unbound", 1, 1);
}

void TestLoader::flowAnomaliesAreCounted()
{
    QFETCH(QByteArray, flows);
    QFETCH(QByteArray, counter);
    QFETCH(int, edges);
    QFETCH(int, keysWithBothEnds);
    const std::string json = test::traceWith(join({slice("a", 1, "0", "10"),
        slice("b", 1, "20", "10"), slice("c", 2, "0", "10"), flows.toStdString()}));
    LOAD_OR_FAIL(m, json);
    const int expectedCount = counter == "flow_without_id" ? 2 : 1;
    QCOMPARE(diag(m, counter.constData()), expectedCount);
    QCOMPARE(int(m.diagnostics.total()), expectedCount);
    QCOMPARE(int(m.flows.size()), edges);
    QCOMPARE(qint64(m.flowKeysWithBothEnds), qint64(keysWithBothEnds));
    QCOMPARE(int(m.slices.size()), 3);
    if (counter == "duplicate_flow_start" || counter == "duplicate_flow_end") {
        // The first start and the first end in file order are kept.
        QCOMPARE(m.flows[0].from, sliceNamed(m, "a"));
        QCOMPARE(m.flows[0].to, sliceNamed(m, "c"));
        QCOMPARE(qint64(m.flows[0].toTime), qint64(5000));
    }
    if (counter == "flow_endpoint_unbound")
        QCOMPARE(m.flows[0].from, kNoSlice);
}

// ---------------------------------------------------------------------------------------------
// Legacy traces, ids, lanes

void TestLoader::categoriesMapToKindsAndLanes_data()
{
    QTest::addColumn<QByteArray>("cat");
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("device");
    auto row = [](const char *cat, EventKind kind, bool device) {
        QTest::addRow("%s", *cat ? cat : "(empty)") << QByteArray(cat) << int(kind) << device;
    };
    row("cpu_op", EventKind::CpuOp, false);
    row("Operator", EventKind::CpuOp, false);
    row("user_annotation", EventKind::UserAnnotation, false);
    row("python_function", EventKind::PythonFunction, false);
    row("cuda_runtime", EventKind::Runtime, false);
    row("cuda_driver", EventKind::Runtime, false);
    row("Runtime", EventKind::Runtime, false);
    row("kernel", EventKind::Kernel, true);
    row("Kernel", EventKind::Kernel, true);
    row("gpu_memcpy", EventKind::Memcpy, true);
    row("Memcpy", EventKind::Memcpy, true);
    row("gpu_memset", EventKind::Memset, true);
    row("Memset", EventKind::Memset, true);
    row("gpu_user_annotation", EventKind::GpuUserAnnotation, true);
    row("cuda_sync", EventKind::GpuSync, true);
    row("Trace", EventKind::TraceSpan, false);
    // 2026 activity names (pytorch/kineto 114171df, libkineto/include/ActivityType.h).
    row("overhead", EventKind::Overhead, false);
    row("mtia_runtime", EventKind::Runtime, false);
    row("mtia_ccp_events", EventKind::Kernel, true);
    row("xpu_runtime", EventKind::Runtime, false);
    row("xpu_driver", EventKind::Runtime, false);
    row("xpu_sync", EventKind::GpuSync, true);
    row("privateuse1_runtime", EventKind::Runtime, false);
    row("mtia_insight", EventKind::Other, false);
    row("", EventKind::Other, false);
}

void TestLoader::categoriesMapToKindsAndLanes()
{
    QFETCH(QByteArray, cat);
    QFETCH(int, kind);
    QFETCH(bool, device);
    LOAD_OR_FAIL(m,
        test::traceWith(R"({"ph":"X","cat":")" + cat.toStdString()
            + R"(","name":"e","pid":3,"tid":4,"ts":1,"dur":2})"));
    QCOMPARE(int(m.slices.size()), 1);
    QCOMPARE(int(m.slices.kind[0]), kind);
    QCOMPARE(bytes(m.str(m.slices.category[0])), cat); // as written
    QCOMPARE(int(m.lanes.size()), 1);
    QCOMPARE(m.lanes[0].device, device);
    QCOMPARE(m.findLane(3, 4, device), LaneId(0));
    QCOMPARE(m.gpu(0) != nullptr, hasGpuInfo(EventKind(kind)));

    // Without any cat at all.
    LOAD_OR_FAIL(n, test::traceWith(R"({"ph":"X","name":"e","pid":3,"tid":4,"ts":1,"dur":2})"));
    QCOMPARE(int(n.slices.kind[0]), int(EventKind::Other));
    QVERIFY(!n.lanes[0].device);
}

void TestLoader::numericStringPidTidShareLaneWithNumbers()
{
    // PyTorch 1.9: X events write "tid": "25738", flows the integer; GPU tids are "stream 7".
    const std::string json = test::traceWith(join({
        R"({"ph":"X","cat":"Operator","name":"aten::add","pid":"25738","tid":"25738","ts":100,"dur":10})",
        R"({"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":25738,"tid":25738,"ts":102,"dur":3})",
        R"({"ph":"X","cat":"Kernel","name":"add_kernel","pid":0,"tid":"stream 7","ts":110,"dur":5})",
        R"({"ph":"s","cat":"async","name":"launch","id":1,"pid":25738,"tid":25738,"ts":102})",
        R"({"ph":"f","cat":"async","name":"launch","id":1,"pid":0,"tid":"stream 7","ts":110,"bp":"e"})",
    }));
    LOAD_OR_FAIL(m, json);
    CHECK_TREE(m);
    QCOMPARE(int(m.lanes.size()), 2);
    const LaneId host = m.findLane(25738, 25738, false);
    QVERIFY(host != kNoLane);
    QCOMPARE(int(m.lanes[host].sliceEnd - m.lanes[host].sliceBegin), 2);
    QCOMPARE(bytes(m.str(m.lanes[host].tidText)), QByteArray("25738"));
    QCOMPARE(m.slices.parent[sliceNamed(m, "cudaLaunchKernel")], sliceNamed(m, "aten::add"));
    const SliceId kernel = sliceNamed(m, "add_kernel");
    const LaneId dev = m.slices.lane[kernel];
    QVERIFY(m.lanes[dev].device);
    QCOMPARE(bytes(m.str(m.lanes[dev].tidText)), QByteArray("stream 7"));
    QCOMPARE(bytes(m.laneLabel(dev)), QByteArray("stream 7"));
    QCOMPARE(int(m.flows.size()), 1);
    QCOMPARE(int(m.flows[0].kind), int(FlowKind::LaunchToGpu));
    QCOMPARE(m.flows[0].fromLane, host);
    QCOMPARE(m.flows[0].from, sliceNamed(m, "cudaLaunchKernel"));
    QCOMPARE(m.flows[0].toLane, dev);
    QCOMPARE(m.flows[0].to, kernel);
    QVERIFY2(m.diagnostics.empty(), m.diagnostics.report().c_str());
}

void TestLoader::nonNumericPidsAndStreamTidsGetTheirOwnLanes()
{
    const std::string json = test::traceWith(join({
        R"J({"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":0,"dur":100})J",
        R"({"ph":"X","cat":"Trace","name":"old span","pid":"Traces","tid":"PyTorch Profiler","ts":0,"dur":100})",
        R"({"ph":"X","cat":"cpu_op","name":"op","pid":0,"tid":0,"ts":0,"dur":1})",
        R"({"ph":"X","cat":"kernel","name":"k7","pid":0,"tid":"stream 7","ts":1,"dur":1})",
        R"({"ph":"X","cat":"kernel","name":"k7n","pid":0,"tid":7,"ts":3,"dur":1})",
    }));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(int(m.lanes.size()), 5);
    auto laneOf = [&](const char *name) { return m.slices.lane[sliceNamed(m, name)]; };
    const LaneId spans = laneOf("PyTorch Profiler (0)");
    const LaneId traces = laneOf("old span");
    QVERIFY(spans != traces);
    QVERIFY(!m.lanes[spans].device);
    QCOMPARE(bytes(m.str(m.lanes[spans].pidText)), QByteArray("Spans"));
    QCOMPARE(bytes(m.str(m.lanes[spans].tidText)), QByteArray("PyTorch Profiler"));
    QCOMPARE(bytes(m.str(m.lanes[traces].pidText)), QByteArray("Traces"));
    // A non-numeric pid is not pid 0.
    QVERIFY(spans != laneOf("op") && traces != laneOf("op"));
    QVERIFY(m.lanes[spans].pid != 0);
    // "stream 7" and 7 are different tids as written.
    QVERIFY(laneOf("k7") != laneOf("k7n"));
    QVERIFY(m.lanes[laneOf("k7")].device && m.lanes[laneOf("k7n")].device);
    QCOMPARE(bytes(m.laneLabel(laneOf("k7n"))), QByteArray("stream 7"));
    bool spansProcess = false;
    for (const Process &p : m.processes)
        spansProcess = spansProcess || m.str(p.pidText) == "Spans";
    QVERIFY(spansProcess);
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::hostAndDeviceLanesOfOnePidAreSplitByCategory()
{
    // ROCm: pid 1 is both the process and GPU 1; tid 1 both a thread and a stream.
    const std::string json = test::traceWith(join({
        slice("aten::mm", 1, "0", "100"),
        slice("hipLaunchKernel", 1, "10", "5", "cuda_runtime"),
        R"({"ph":"X","cat":"kernel","name":"Cijk","pid":1,"tid":1,"ts":20,"dur":10})",
        R"({"ph":"X","cat":"gpu_memcpy","name":"CopyHostToDevice","pid":1,"tid":1,"ts":40,"dur":10})",
        flow('s', "ac2g", "77", "1", "1", "10"),
        flow('f', "ac2g", "77", "1", "1", "20", true),
        R"({"ph":"M","name":"process_labels","pid":1,"args":{"labels":"GPU 1"}})",
    }));
    LOAD_OR_FAIL(m, json);
    const LaneId host = m.findLane(1, 1, false);
    const LaneId dev = m.findLane(1, 1, true);
    QVERIFY(host != kNoLane && dev != kNoLane && host != dev);
    QCOMPARE(int(m.lanes.size()), 2);
    QCOMPARE(m.slices.lane[sliceNamed(m, "aten::mm")], host);
    QCOMPARE(m.slices.lane[sliceNamed(m, "hipLaunchKernel")], host);
    QCOMPARE(m.slices.lane[sliceNamed(m, "Cijk")], dev);
    QCOMPARE(m.slices.lane[sliceNamed(m, "CopyHostToDevice")], dev);
    // The kernel does not nest under the host op that covers the same time.
    QCOMPARE(m.slices.parent[sliceNamed(m, "Cijk")], kNoSlice);
    // ac2g ends go to the device side.
    QCOMPARE(int(m.flows.size()), 1);
    QCOMPARE(m.flows[0].from, sliceNamed(m, "hipLaunchKernel"));
    QCOMPARE(m.flows[0].to, sliceNamed(m, "Cijk"));
    QCOMPARE(int(m.processes.size()), 2);
    for (const Process &p : m.processes)
        QCOMPARE(bytes(m.str(p.labels)), p.device ? QByteArray("GPU 1") : QByteArray());
    QVERIFY2(m.diagnostics.empty(), m.diagnostics.report().c_str());
}

// ---------------------------------------------------------------------------------------------
// Typed args

void TestLoader::cpuOpArgsAreTyped()
{
    const std::string json = test::traceWith(join({
        R"({"ph":"X","cat":"cpu_op","name":"aten::convolution","pid":1,"tid":1,"ts":0,"dur":10,
 "args":{"External id":77,"Sequence number":312,"Fwd thread id":0,"Ev Idx":76,"Record function id":9,
 "Input Dims":[[32, 3, 224, 224], [64, 3, 7, 7], []],"Input type":["float", "float", ""],
 "Call stack":"a.py(1): f", "Concrete Inputs": ["", "1"]}})",
        R"({"ph":"X","cat":"cpu_op","name":"aten::empty","pid":1,"tid":1,"ts":20,"dur":1,"args":{}})",
        R"({"ph":"X","cat":"cpu_op","name":"ConvolutionBackward0","pid":1,"tid":2,"ts":30,"dur":5,
 "args":{"Sequence number":312,"Fwd thread id":1,"Input Dims":"scalar"}})",
    }));
    LOAD_OR_FAIL(m, json);
    const SliceTable &t = m.slices;
    const SliceId conv = sliceNamed(m, "aten::convolution");
    QCOMPARE(qint64(t.externalId[conv]), qint64(77));
    QCOMPARE(qint64(t.sequence[conv]), qint64(312));
    QCOMPARE(qint64(t.fwdThread[conv]), qint64(0));
    QCOMPARE(qint64(t.correlation[conv]), qint64(kNoValue));
    QCOMPARE(bytes(m.str(t.inputDims[conv])), QByteArray("[[32,3,224,224],[64,3,7,7],[]]"));
    const CpuInfo *cpu = m.cpu(conv);
    QVERIFY(cpu);
    QVERIFY(!m.gpu(conv));
    QCOMPARE(qint64(cpu->evIdx), qint64(76));
    QCOMPARE(qint64(cpu->recordFunctionId), qint64(9));
    QCOMPARE(bytes(m.str(cpu->inputTypes)), QByteArray(R"(["float","float",""])"));

    const SliceId empty = sliceNamed(m, "aten::empty");
    QVERIFY(!m.cpu(empty));
    QCOMPARE(qint64(t.externalId[empty]), qint64(kNoValue));
    QCOMPARE(qint64(t.sequence[empty]), qint64(kNoValue));
    QCOMPARE(qint64(t.fwdThread[empty]), qint64(kNoValue));
    QCOMPARE(t.inputDims[empty], StringId(0));

    const SliceId bwd = sliceNamed(m, "ConvolutionBackward0");
    QCOMPARE(qint64(t.sequence[bwd]), qint64(312));
    QCOMPARE(qint64(t.fwdThread[bwd]), qint64(1));
    QCOMPARE(bytes(m.str(t.inputDims[bwd])), QByteArray(R"("scalar")"));
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::gpuArgsAreTyped()
{
    const std::string json = test::traceWith(join({
        R"({"ph":"X","cat":"kernel","name":"implicit_convolve_sgemm","pid":0,"tid":7,"ts":812140.750,"dur":52.000,
 "args":{"queued":0,"External id":80,"device":0,"context":1,"stream":7,"correlation":5501,
 "registers per thread":32,"grid":[196, 1, 1],"block":[256, 1, 1],"est. achieved occupancy %":100}})",
        R"J({"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,"ts":900,"dur":2,
 "args":{"device":0,"stream":7,"correlation":5502,"bytes":1024,"memory bandwidth (GB/s)":1.5}})J",
        R"({"ph":"X","cat":"kernel","name":"bare","pid":1,"tid":3,"ts":1000,"dur":2})",
        R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":812090,"dur":6.5,
 "args":{"External id":80,"cbid":211,"correlation":5501,"grid":[1,2,3]}})",
    }));
    LOAD_OR_FAIL(m, json);
    const SliceTable &t = m.slices;
    const SliceId k = sliceNamed(m, "implicit_convolve_sgemm");
    const GpuInfo *g = m.gpu(k);
    QVERIFY(g);
    QVERIFY(!m.cpu(k));
    QCOMPARE(g->device, 0);
    QCOMPARE(g->stream, 7);
    QCOMPARE((std::vector<int32_t>(g->grid, g->grid + 3)), (std::vector<int32_t> {196, 1, 1}));
    QCOMPARE((std::vector<int32_t>(g->block, g->block + 3)), (std::vector<int32_t> {256, 1, 1}));
    QCOMPARE(qint64(t.correlation[k]), qint64(5501));
    QCOMPARE(qint64(t.externalId[k]), qint64(80));
    QCOMPARE(qint64(t.start[k]), qint64(812140750));
    QCOMPARE(qint64(t.dur[k]), qint64(52000));

    const SliceId copy = sliceNamed(m, "Memcpy HtoD (Pageable -> Device)");
    QVERIFY(m.gpu(copy));
    QCOMPARE(m.gpu(copy)->stream, 7);
    QCOMPARE(m.gpu(copy)->grid[0], 0);
    QCOMPARE(qint64(t.correlation[copy]), qint64(5502));

    const SliceId bare = sliceNamed(m, "bare");
    QVERIFY(m.gpu(bare));
    QCOMPARE(m.gpu(bare)->device, -1);
    QCOMPARE(m.gpu(bare)->stream, -1);

    const SliceId launch = sliceNamed(m, "cudaLaunchKernel");
    QVERIFY(!m.gpu(launch));
    QVERIFY(!m.cpu(launch));
    QCOMPARE(qint64(t.correlation[launch]), qint64(5501));
    QCOMPARE(qint64(t.externalId[launch]), qint64(80));
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::legacyArgNamesAreAccepted()
{
    const std::string json = test::traceWith(join({
        R"({"ph":"X","cat":"Operator","name":"aten::add","pid":"25738","tid":"25738","ts":1,"dur":1,
 "args":{"Input dims":[[2, 3], [2, 3]],"Profiler Event Index":4,"Sequence number":"17","Fwd thread id":"1"}})",
        R"({"ph":"X","cat":"Kernel","name":"k","pid":0,"tid":"stream 7","ts":5,"dur":1,
 "args":{"external id":12,"correlation":34,"device":0,"stream":7}})",
    }));
    LOAD_OR_FAIL(m, json);
    const SliceId add = sliceNamed(m, "aten::add");
    QCOMPARE(bytes(m.str(m.slices.inputDims[add])), QByteArray("[[2,3],[2,3]]"));
    QVERIFY(m.cpu(add));
    QCOMPARE(qint64(m.cpu(add)->evIdx), qint64(4));
    QCOMPARE(qint64(m.slices.sequence[add]), qint64(17));
    QCOMPARE(qint64(m.slices.fwdThread[add]), qint64(1));
    const SliceId k = sliceNamed(m, "k");
    QCOMPARE(qint64(m.slices.externalId[k]), qint64(12));
    QCOMPARE(qint64(m.slices.correlation[k]), qint64(34));
    QCOMPARE(m.gpu(k)->stream, 7);
    QVERIFY(m.diagnostics.empty());
}

void TestLoader::sequenceNumberForms_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<qint64>("sequence");
    QTest::addColumn<int>("bad");
    QTest::addRow("number") << QByteArray("5") << qint64(5) << 0;
    QTest::addRow("string") << QByteArray(R"("12")") << qint64(12) << 0;
    QTest::addRow("negative") << QByteArray("-1") << qint64(-1) << 0;
    QTest::addRow("negative string") << QByteArray(R"("-3")") << qint64(-3) << 0;
    QTest::addRow("whole float") << QByteArray("12.0") << qint64(12) << 0;
    QTest::addRow("large") << QByteArray("281474976710655") << qint64(281474976710655) << 0;
    QTest::addRow("text") << QByteArray(R"("abc")") << qint64(kNoValue) << 1;
    QTest::addRow("fraction") << QByteArray("3.5") << qint64(kNoValue) << 1;
    QTest::addRow("null") << QByteArray("null") << qint64(kNoValue) << 1;
    QTest::addRow("bool") << QByteArray("true") << qint64(kNoValue) << 1;
}

void TestLoader::sequenceNumberForms()
{
    QFETCH(QByteArray, value);
    QFETCH(qint64, sequence);
    QFETCH(int, bad);
    LOAD_OR_FAIL(m,
        test::traceWith(slice("op", 1, "0", "1", "cpu_op",
            R"("args":{"Sequence number":)" + value.toStdString() + "}")));
    QCOMPARE(int(m.slices.size()), 1);
    QCOMPARE(qint64(m.slices.sequence[0]), sequence);
    QCOMPARE(diag(m, "bad_sequence_number"), bad);
}

// ---------------------------------------------------------------------------------------------
// Anomalies

void TestLoader::unknownPhasesAreCounted_data()
{
    QTest::addColumn<QByteArray>("ph");
    QTest::addRow("Z") << QByteArray(R"("Z")");
    QTest::addRow("lowercase x") << QByteArray(R"("x")");
    QTest::addRow("two letters") << QByteArray(R"("XX")");
    QTest::addRow("empty") << QByteArray(R"("")");
    QTest::addRow("control char") << QByteArray(R"("\u0001")");
}

void TestLoader::unknownPhasesAreCounted()
{
    QFETCH(QByteArray, ph);
    LOAD_OR_FAIL(m,
        test::traceWith(join(
            {R"({"ph":)" + ph.toStdString() + R"(,"name":"odd","pid":1,"tid":1,"ts":1,"dur":1})",
                slice("ok", 1, "0", "1")})));
    QCOMPARE(diag(m, "unknown_phase"), 1);
    QCOMPARE(int(m.diagnostics.total()), 1);
    QCOMPARE(joinedNames(m), QByteArray("ok"));
    QCOMPARE(qint64(m.eventCount), qint64(2));
}

void TestLoader::unsupportedPhasesAreCounted_data()
{
    QTest::addColumn<QByteArray>("ph");
    for (const char *ph : {"b", "e", "n", "S", "T", "p", "F", "N", "O", "D", "P"})
        QTest::addRow("%s", ph) << QByteArray(ph);
}

void TestLoader::unsupportedPhasesAreCounted()
{
    QFETCH(QByteArray, ph);
    LOAD_OR_FAIL(m,
        test::traceWith(join({R"({"ph":")" + ph.toStdString()
                + R"(","cat":"c","name":"async","id":"0x1","pid":1,"tid":1,"ts":1})",
            slice("ok", 1, "0", "1")})));
    QCOMPARE(diag(m, "unsupported_phase"), 1);
    QCOMPARE(int(m.diagnostics.total()), 1);
    QCOMPARE(joinedNames(m), QByteArray("ok"));
    QCOMPARE(int(m.instants.size()), 0);
    QCOMPARE(int(m.flows.size()), 0);
}

void TestLoader::missingPhIsCounted()
{
    LOAD_OR_FAIL(m,
        test::traceWith(join(
            {R"({"name":"no ph","pid":1,"tid":1,"ts":1,"dur":1})", slice("ok", 1, "0", "1")})));
    QCOMPARE(diag(m, "missing_ph"), 1);
    QCOMPARE(int(m.diagnostics.total()), 1);
    QCOMPARE(joinedNames(m), QByteArray("ok"));
}

void TestLoader::unusableTsSkipsOnlyThatEvent_data()
{
    QTest::addColumn<QByteArray>("ts"); // empty: no ts key at all
    QTest::addColumn<QByteArray>("counter");
    QTest::addRow("missing") << QByteArray() << QByteArray("missing_ts");
    QTest::addRow("text") << QByteArray(R"("abc")") << QByteArray("invalid_ts");
    QTest::addRow("empty string") << QByteArray(R"("")") << QByteArray("invalid_ts");
    QTest::addRow("1e300 overflows ns") << QByteArray("1e300") << QByteArray("invalid_ts");
    QTest::addRow("beyond 2^62 ns") << QByteArray("9000000000000000") << QByteArray("invalid_ts");
    QTest::addRow("NaN") << QByteArray("NaN") << QByteArray("invalid_ts");
    QTest::addRow("Infinity") << QByteArray("Infinity") << QByteArray("invalid_ts");
    QTest::addRow("-Infinity") << QByteArray("-Infinity") << QByteArray("invalid_ts");
    // Valid JSON numbers that do not fit in a double: still only this event is lost.
    QTest::addRow("1e400 overflows double") << QByteArray("1e400") << QByteArray("invalid_ts");
    QTest::addRow("-1e400") << QByteArray("-1e400") << QByteArray("invalid_ts");
}

void TestLoader::unusableTsSkipsOnlyThatEvent()
{
    QFETCH(QByteArray, ts);
    QFETCH(QByteArray, counter);
    std::string bad = R"({"ph":"X","cat":"cpu_op","name":"bad","pid":1,"tid":1,"dur":1)";
    if (!ts.isEmpty())
        bad += R"(,"ts":)" + ts.toStdString();
    bad += "}";
    const std::string json = test::traceWith(join({slice("before", 1, "0", "1"), bad,
        R"({"ph":"i","name":"bad instant","pid":1,"tid":1)"
            + (ts.isEmpty() ? std::string() : R"(,"ts":)" + ts.toStdString()) + "}",
        slice("after", 1, "5", "1")}));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(joinedNames(m), QByteArray("before,after"));
    QCOMPARE(int(m.instants.size()), 0);
    QCOMPARE(diag(m, counter.constData()), 2);
    // Numbers beyond a double may be rewritten by the repairing pass (and counted as a repair);
    // nothing else may be reported.
    QCOMPARE(int(m.diagnostics.total() - m.diagnostics.count("repaired_strings")), 2);
    if (!ts.contains("e400"))
        QCOMPARE(diag(m, "repaired_strings"), 0);
    QCOMPARE(diag(m, "syntax_error"), 0);
    QCOMPARE(diagOffset(m, counter.constData()), qint64(json.find(bad)));
    QVERIFY(!m.truncated);
    QCOMPARE(qint64(m.eventCount), qint64(4));
}

void TestLoader::negativeTsIsKept()
{
    LOAD_OR_FAIL(m, test::traceWith(join({slice("neg", 1, "-5", "3"), slice("pos", 1, "1", "1")})));
    QCOMPARE(joinedNames(m), QByteArray("neg,pos"));
    QCOMPARE(qint64(m.slices.start[0]), qint64(-5000));
    QCOMPARE(qint64(m.slices.dur[0]), qint64(3000));
    QCOMPARE(diag(m, "negative_ts"), 1);
    QCOMPARE(qint64(m.minTime), qint64(-5000));
}

void TestLoader::unusableDurGivesZeroDuration_data()
{
    QTest::addColumn<QByteArray>("dur"); // empty: no dur key at all
    QTest::addColumn<QByteArray>("counter");
    QTest::addRow("missing") << QByteArray() << QByteArray("missing_dur");
    QTest::addRow("negative") << QByteArray("-5") << QByteArray("negative_dur");
    QTest::addRow("negative fraction") << QByteArray("-0.001") << QByteArray("negative_dur");
    QTest::addRow("text") << QByteArray(R"("abc")") << QByteArray("invalid_dur");
    QTest::addRow("NaN") << QByteArray("NaN") << QByteArray("invalid_dur");
    QTest::addRow("1e300") << QByteArray("1e300") << QByteArray("invalid_dur");
    QTest::addRow("beyond 2^62 ns") << QByteArray("9000000000000000") << QByteArray("invalid_dur");
}

void TestLoader::unusableDurGivesZeroDuration()
{
    QFETCH(QByteArray, dur);
    QFETCH(QByteArray, counter);
    std::string e = R"({"ph":"X","cat":"cpu_op","name":"odd","pid":1,"tid":1,"ts":7)";
    if (!dur.isEmpty())
        e += R"(,"dur":)" + dur.toStdString();
    e += "}";
    LOAD_OR_FAIL(m, test::traceWith(join({e, slice("ok", 1, "0", "1")})));
    QCOMPARE(joinedNames(m), QByteArray("ok,odd"));
    QCOMPARE(qint64(m.slices.start[1]), qint64(7000));
    QCOMPARE(qint64(m.slices.dur[1]), qint64(0));
    QCOMPARE(diag(m, counter.constData()), 1);
    QCOMPARE(int(m.diagnostics.total()), 1);
}

void TestLoader::wrongFieldTypesAreCounted_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("kept");
    QTest::addColumn<QByteArray>("alsoCounted"); // a second counter the event leads to, or empty
    QTest::addRow("ts object") << QByteArray("ts") << QByteArray("{}") << false << QByteArray();
    QTest::addRow("ts array") << QByteArray("ts") << QByteArray("[1]") << false << QByteArray();
    QTest::addRow("ts bool") << QByteArray("ts") << QByteArray("true") << false << QByteArray();
    QTest::addRow("ts null") << QByteArray("ts") << QByteArray("null") << false << QByteArray();
    QTest::addRow("name number") << QByteArray("name") << QByteArray("5") << true
                                 << QByteArray("missing_name");
    QTest::addRow("name object") << QByteArray("name") << QByteArray(R"({"a":1})") << true
                                 << QByteArray("missing_name");
    QTest::addRow("args number") << QByteArray("args") << QByteArray("3") << true << QByteArray();
    QTest::addRow("args string") << QByteArray("args") << QByteArray(R"("x")") << true
                                 << QByteArray();
    QTest::addRow("args array") << QByteArray("args") << QByteArray("[1, 2]") << true
                                << QByteArray();
    QTest::addRow("ph number") << QByteArray("ph") << QByteArray("5") << false
                               << QByteArray("missing_ph");
    QTest::addRow("cat number") << QByteArray("cat") << QByteArray("5") << true << QByteArray();
    QTest::addRow("pid object") << QByteArray("pid") << QByteArray("{}") << true << QByteArray();
    QTest::addRow("tid bool") << QByteArray("tid") << QByteArray("false") << true << QByteArray();
    QTest::addRow("dur object") << QByteArray("dur") << QByteArray("{}") << true << QByteArray();
}

void TestLoader::wrongFieldTypesAreCounted()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, value);
    QFETCH(bool, kept);
    QFETCH(QByteArray, alsoCounted);
    // The event with every field in place, then \a key replaced (or added, for args).
    const std::vector<std::pair<std::string, std::string>> fields {{"ph", R"("X")"},
        {"cat", R"("cpu_op")"}, {"name", R"("odd")"}, {"pid", "1"}, {"tid", "1"}, {"ts", "7"},
        {"dur", "1"}};
    std::string e = "{";
    bool replaced = false;
    for (const auto &[k, v] : fields) {
        if (e.size() > 1)
            e += ',';
        const bool here = k == key.toStdString();
        replaced = replaced || here;
        e += '"' + k + "\":" + (here ? value.toStdString() : v);
    }
    if (!replaced)
        e += ",\"" + key.toStdString() + "\":" + value.toStdString();
    e += "}";
    const std::string json = test::traceWith(join({slice("ok", 1, "0", "1"), e}));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(diag(m, "wrong_type"), 1);
    QCOMPARE(diagOffset(m, "wrong_type"), qint64(json.find(e)));
    QCOMPARE(int(m.slices.size()), kept ? 2 : 1);
    if (!alsoCounted.isEmpty())
        QCOMPARE(diag(m, alsoCounted.constData()), 1);
    if (kept && key == "name")
        QCOMPARE(bytes(m.sliceName(1)), QByteArray());
    if (kept && key == "dur")
        QCOMPARE(qint64(m.slices.dur[1]), qint64(0));
    if (kept && key == "cat")
        QCOMPARE(int(m.slices.kind[1]), int(EventKind::Other));
    QVERIFY(!m.truncated);
}

void TestLoader::entriesThatAreNotObjectsAreCounted()
{
    const std::string json = test::traceWith(
        join({"1", R"("x")", std::string("[") + slice("nested", 1, "0", "1") + "]", "null",
            slice("ok", 1, "0", "1"), "true", "{}"}));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(diag(m, "event_not_object"), 5);
    QCOMPARE(joinedNames(m), QByteArray("ok")); // an event inside an array entry is not an entry
    QCOMPARE(qint64(m.eventCount), qint64(7));
    QCOMPARE(diag(m, "missing_ph"), 1); // the empty object
}

void TestLoader::overlappingHostSlicesAreCounted()
{
    const std::string json = test::traceWith(join({
        slice("A", 1, "0", "10"),
        slice("B", 1, "5", "10"), // ends after A
        R"({"ph":"X","cat":"kernel","name":"K1","pid":0,"tid":7,"ts":0,"dur":10})",
        R"({"ph":"X","cat":"kernel","name":"K2","pid":0,"tid":7,"ts":5,"dur":10})",
    }));
    LOAD_OR_FAIL(m, json);
    // GPU streams may overlap (concurrent kernels in one stream are reported so); threads may not.
    QCOMPARE(diag(m, "overlapping_slices"), 1);
    QCOMPARE(diagOffset(m, "overlapping_slices"), qint64(json.find(slice("B", 1, "5", "10"))));
    QCOMPARE(int(m.slices.size()), 4);
    CHECK_TREE(m);
}

void TestLoader::deepNestingInArgsDoesNotCrash()
{
    constexpr int kDepth = 100000;
    const std::string deep = std::string(kDepth, '[') + std::string(kDepth, ']');
    const std::string json = test::traceWith(join({
        slice("deep args", 1, "0", "10", "cpu_op",
            R"("args":{"deep":)" + deep + R"(,"External id":5})"),
        slice("deep dims", 1, "20", "10", "cpu_op", R"("args":{"Input Dims":)" + deep + "}"),
        R"({"ph":"X","cat":"cpu_op","pid":1,"tid":1,"ts":40,"dur":1,"name":)" + deep + "}",
        slice("after", 1, "50", "1"),
    }));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(joinedNames(m), QByteArray("deep args,deep dims,,after"));
    QCOMPARE(qint64(m.slices.externalId[0]), qint64(5));
    QCOMPARE(qint64(m.str(m.slices.inputDims[1]).size()), qint64(2 * kDepth));
    QCOMPARE(diag(m, "wrong_type"), 1);
    QVERIFY(!m.truncated);
}

void TestLoader::eventsAcrossManyBatches_data()
{
    // The builder thread receives events in batches of 2048, four batches in flight: counts
    // around those edges, whole or cut off in the middle of the last event.
    QTest::addColumn<int>("count");
    QTest::addColumn<bool>("cut");
    for (int n : {2047, 2048, 2049, 8192, 9000}) {
        QTest::addRow("%d", n) << n << false;
        QTest::addRow("%d cut", n) << n << true;
    }
}

void TestLoader::eventsAcrossManyBatches()
{
    QFETCH(int, count);
    QFETCH(bool, cut);
    std::string events;
    for (int i = 0; i < count; ++i) {
        if (i > 0)
            events += ',';
        events += slice("op" + std::to_string(i % 7), 1 + i % 3, std::to_string(10 * i), "5");
    }
    std::string json = test::traceWith(events);
    if (cut)
        json.resize(json.rfind("\"dur\""));
    LOAD_OR_FAIL(m, json);
    const int complete = cut ? count - 1 : count;
    QCOMPARE(int(m.slices.size()), complete);
    QCOMPARE(m.truncated, cut);
    // Every slice arrived once, in its lane, with its own offset.
    std::vector<uint64_t> offsets(m.slices.offset.begin(), m.slices.offset.end());
    std::sort(offsets.begin(), offsets.end());
    QVERIFY(std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end());
    QCOMPARE(int(m.lanes.size()), std::min(complete, 3));
    const SliceId last = SliceId(
        std::max_element(m.slices.start.begin(), m.slices.start.end()) - m.slices.start.begin());
    QCOMPARE(qint64(m.slices.start[last]), qint64(10'000) * (complete - 1));
    QCOMPARE(std::string(m.str(m.slices.name[last])), "op" + std::to_string((complete - 1) % 7));
}

void TestLoader::deepNestingAndRepairsKeepOffsets_data()
{
    QTest::addColumn<bool>("deepFirst");
    QTest::addRow("repair, then too deep") << false;
    QTest::addRow("too deep, then repair") << true;
}

void TestLoader::deepNestingAndRepairsKeepOffsets()
{
    // The loader re-reads the text when recursion would go too deep and when strings need
    // repairing; whichever comes first, the result must be the same as one careful read.
    QFETCH(bool, deepFirst);
    const std::string deep = std::string(5000, '[') + std::string(5000, ']');
    const std::string a = slice("a", 1, "0", "10", "cpu_op", R"("args":{"x":)" + deep + "}");
    const std::string b
        = "{\"ph\":\"X\",\"name\":\"b\001b\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":1}";
    const std::string c = slice("c", 1, "30", "1");
    const std::string json = test::traceWith(deepFirst ? join({a, b, c}) : join({b, a, c}));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(int(m.slices.size()), 3);
    QCOMPARE(qint64(m.slices.offset[sliceNamed(m, "a")]), qint64(json.find(a)));
    QCOMPARE(qint64(m.slices.offset[sliceNamed(m, "b\001b")]), qint64(json.find(b)));
    QCOMPARE(qint64(m.slices.offset[sliceNamed(m, "c")]), qint64(json.find(c)));
    QCOMPARE(diag(m, "repaired_strings"), 1);
    QCOMPARE(diagOffset(m, "repaired_strings"), qint64(json.find('\001')));
    QCOMPARE(diag(m, "syntax_error"), 0);
    QVERIFY(!m.truncated);
}

void TestLoader::longStringsAreKept()
{
    const std::string longName(2 << 20, 'n');
    const std::string longDim(1536 << 10, 'd'); // over the 1 MB capture limit
    const std::string json = test::traceWith(join({
        slice(longName, 1, "0", "10"),
        slice("dims", 1, "20", "10", "cpu_op", R"("args":{"Input Dims":[")" + longDim + R"("]})"),
        slice("after", 1, "40", "1"),
    }));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(int(m.slices.size()), 3);
    QCOMPARE(qint64(m.sliceName(0).size()), qint64(longName.size()));
    QVERIFY(m.sliceName(0) == longName);
    QCOMPARE(diag(m, "value_too_large"), 1);
    QCOMPARE(diagOffset(m, "value_too_large"),
        qint64(json.find(R"({"ph":"X","cat":"cpu_op","name":"dims")")));
    QVERIFY(m.str(m.slices.inputDims[1]).size() <= (1u << 20));
    QCOMPARE(bytes(m.sliceName(2)), QByteArray("after"));

    // Outside traceEvents, a value too large is reported where it starts.
    const std::string topLevel
        = test::traceWith(slice("a", 1, "0", "1"))
              .insert(1, R"("distributedInfo": {"ranks": [")" + longDim + R"("]}, )");
    LOAD_OR_FAIL(t, topLevel);
    QCOMPARE(diag(t, "value_too_large"), 1);
    QCOMPARE(diagOffset(t, "value_too_large"), qint64(topLevel.find(R"({"ranks")")));
}

void TestLoader::namesAreReadWhereverTheirCharactersFall_data()
{
    QTest::addColumn<QString>("file"); // empty: the text from memory
    QTest::addColumn<int>("threads");
    QTest::addRow("text, in chunks") << QString() << 1;
    QTest::addRow("file, one piece") << QStringLiteral("names.json") << 1;
    QTest::addRow("file, segments") << QStringLiteral("names.json") << 2;
    QTest::addRow("gzip, one piece") << QStringLiteral("names.json.gz") << 1;
    QTest::addRow("gzip, segments in memory") << QStringLiteral("names.json.gz") << 3;
}

/*!
 * Names whose escapes, multi-byte characters and runs of plain characters fall at every place of
 * a 16-byte scan block and across the 1 MB chunks a text is read in are read as written, by each
 * stream the loader parses (chunks of a file or of inflated text; a segment's text in memory).
 */
void TestLoader::namesAreReadWhereverTheirCharactersFall()
{
    QFETCH(QString, file);
    QFETCH(int, threads);
    const std::pair<std::string_view, std::string_view> specials[] = {// as written, as loaded
        {R"(\")", "\""}, {R"(\\)", "\\"}, {R"(\n)", "\n"}, {R"(\u00e9)", "\xC3\xA9"},
        {R"(\/)", "/"}, {"\xE2\x82\xAC", "\xE2\x82\xAC"}, {"\x7f", "\x7f"}, {"", ""}};
    std::vector<std::string> names;
    std::string events;
    for (size_t i = 0; events.size() < (5u << 20) / 2; ++i) {
        const std::string before(i % 301, char('a' + i % 26)), number = std::to_string(i);
        const std::string after = std::string(i % 17, 'z').append(number);
        const auto &[written, loaded] = specials[i % std::size(specials)];
        names.push_back(std::string(before).append(loaded).append(after));
        if (!events.empty())
            events += ',';
        events += slice(std::string(before).append(written).append(after), 1, number, "1");
    }
    const std::string json = test::traceWith(events);
    for (const size_t chunk : {size_t(1) << 20, size_t(2) << 20}) { // inside a name, not between
        const size_t quote = json.rfind('"', chunk);
        QVERIFY(json.compare(quote - 7, 8, R"("name":")") == 0 || json[quote - 1] == '\\');
    }
    LoadResult r;
    if (file.isEmpty()) {
        r = loadTraceText(json);
    } else {
        const QByteArray text = QByteArray::fromStdString(json);
        const QString path
            = test::writeTemp(file, file.endsWith(QLatin1String(".gz")) ? test::gzip(text) : text);
        LoadOptions options;
        options.threads = unsigned(threads);
        options.minSegmentBytes = 256 << 10;
        r = loadTrace(path.toStdString(), options);
        QCOMPARE(r.pieces > 1, threads > 1);
    }
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    QVERIFY2(r.model->diagnostics.empty(), r.model->diagnostics.report().c_str());
    QVERIFY(sliceNames(*r.model) == names);
}

void TestLoader::numbersAreReadWhereverTheyFall_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("before"); // of the number's characters, before the first chunk's end
    for (const QString &file : {QStringLiteral("numbers.json"), QStringLiteral("numbers.json.gz")})
        for (const int before : {1, 4, 7, 8, 10, 11, 12, 20})
            QTest::addRow("%s, %d before", qPrintable(file), before) << file << before;
}

/*!
 * A timestamp cut by the end of the first 1 MB chunk after any of its characters (the '-', a
 * digit, the '.', the last; and one whose ',' is the chunk's last character) is read exactly,
 * and so are the numbers of every other form in the events around it.
 */
void TestLoader::numbersAreReadWhereverTheyFall()
{
    QFETCH(QString, file);
    QFETCH(int, before);
    const std::string ts = "-1234567.891"; // -1 234 567 891 ns
    const std::string head = test::traceWith("");
    const size_t chunk = size_t(1) << 20;
    std::string events;
    for (int i = 0; head.size() + events.size() < chunk - 400; ++i) // ts 0.5, 1.5, 2e0, ...
        events += slice("op", 1, i % 3 == 2 ? std::to_string(i) + "e0" : std::to_string(i) + ".5",
                      "0.5", "cpu_op", R"("args":{"External id":)" + std::to_string(-i) + "}")
            + ',';
    const std::string probe = slice("", 1, ts, "0.001");
    const size_t tsAt = head.size() - 2 + events.size() + probe.find(ts);
    events += slice(std::string(chunk - size_t(before) - tsAt, 'p'), 1, ts, "0.001") + ',';
    events += slice("after", 1, "-2000000", "1");
    const std::string json = test::traceWith(events);
    QCOMPARE(json.substr(chunk - size_t(before), ts.size()), ts);

    const QByteArray text = QByteArray::fromStdString(json);
    const QString path
        = test::writeTemp(file, file.endsWith(QLatin1String(".gz")) ? test::gzip(text) : text);
    LoadOptions options;
    options.threads = 1;
    const LoadResult r = loadTrace(path.toStdString(), options);
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    const TraceModel &m = *r.model;
    QCOMPARE(qint64(m.diagnostics.total()), qint64(diag(m, "negative_ts"))); // the two below 0
    QCOMPARE(diag(m, "negative_ts"), 2);
    const SliceId cut = sliceNamed(m, std::string(chunk - size_t(before) - tsAt, 'p'));
    QVERIFY(cut != kNoSlice);
    QCOMPARE(qint64(m.slices.start[cut]), qint64(-1234567891));
    QCOMPARE(qint64(m.slices.dur[cut]), qint64(1));
    for (SliceId s = 0; s < m.slices.size(); ++s) {
        if (m.sliceName(s) != "op")
            continue;
        const int64_t i = -m.slices.externalId[s];
        QCOMPARE(qint64(m.slices.start[s]), qint64(i * 1000 + (i % 3 == 2 ? 0 : 500)));
    }
}

void TestLoader::invalidStringsAreRepaired_data()
{
    QTest::addColumn<QByteArray>("written"); // the name's bytes inside the quotes
    QTest::addColumn<QByteArray>("name"); // the name as loaded
    QTest::addColumn<int>("repairs");
    QTest::addRow("raw tab") << QByteArray("a\tb") << QByteArray("a\tb") << 1;
    QTest::addRow("raw newline and CR") << QByteArray("a\nb\rc") << QByteArray("a\nb\rc") << 2;
    QTest::addRow("raw 0x01") << QByteArray("x\x01y") << QByteArray("x\x01y") << 1;
    QTest::addRow("invalid escape") << QByteArray("a\\qb") << QByteArray("a\\qb") << 1;
    QTest::addRow("windows path") << QByteArray("C:\\data\\x.py(3): f")
                                  << QByteArray("C:\\data\\x.py(3): f") << 2;
    QTest::addRow("short unicode escape") << QByteArray("\\u12zz") << QByteArray("\\u12zz") << 1;
    QTest::addRow("lone high surrogate") << QByteArray("a\\ud800b")
                                         << QByteArray("a\xEF\xBF\xBD"
                                                       "b")
                                         << 1;
    // RapidJSON itself accepts a lone low surrogate: its bytes stay, counted as invalid UTF-8.
    QTest::addRow("lone low surrogate") << QByteArray("\\udc00") << QByteArray("\xED\xB0\x80") << 0;
    QTest::addRow("valid pair and a tab")
        << QByteArray("\\ud83d\\ude00\t") << QByteArray("\xF0\x9F\x98\x80\t") << 1;
    // Invalid UTF-8 is kept as written (the UI and exports show U+FFFD) and counted once per name.
    QTest::addRow("invalid UTF-8") << QByteArray("bad \xff\xfe") << QByteArray("bad \xff\xfe") << 0;
}

void TestLoader::invalidStringsAreRepaired()
{
    QFETCH(QByteArray, written);
    QFETCH(QByteArray, name);
    QFETCH(int, repairs);
    const std::string json = test::traceWith(join({slice("before", 1, "0", "1"),
        R"({"ph":"X","cat":"cpu_op","name":")" + written.toStdString()
            + R"(","pid":1,"tid":1,"ts":2,"dur":1})",
        slice("after", 1, "4", "1")}));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(int(m.slices.size()), 3);
    QCOMPARE(bytes(m.sliceName(1)), name);
    QCOMPARE(bytes(m.sliceName(2)), QByteArray("after"));
    QCOMPARE(diag(m, "repaired_strings"), repairs);
    const int invalid = isValidUtf8(m.sliceName(1)) ? 0 : 1;
    QCOMPARE(diag(m, "invalid_utf8_names"), invalid);
    QCOMPARE(int(m.diagnostics.total()), repairs + invalid);
    QVERIFY(!m.truncated);
}

void TestLoader::nanLiteralsAreNotNumbers()
{
    const std::string json = test::traceWith(join({
        R"({"ph":"X","cat":"cpu_op","name":"nan ts","pid":1,"tid":1,"ts":NaN,"dur":1})",
        R"({"ph":"X","cat":"cpu_op","name":"nan dur","pid":1,"tid":1,"ts":1,"dur":NaN})",
        R"({"ph":"C","name":"c","pid":1,"ts":1,"args":{"v":NaN,"w":Infinity,"u":2}})",
        R"({"ph":"X","cat":"cpu_op","name":"nan arg","pid":1,"tid":1,"ts":3,"dur":1,"args":{"External id":NaN}})",
    }));
    LOAD_OR_FAIL(m, json);
    QCOMPARE(joinedNames(m), QByteArray("nan dur,nan arg"));
    QCOMPARE(diag(m, "invalid_ts"), 1);
    QCOMPARE(diag(m, "invalid_dur"), 1);
    QCOMPARE(qint64(m.slices.externalId[1]), qint64(kNoValue));
    // Only finite values become counter points.
    QCOMPARE(int(m.counters.size()), 1);
    QCOMPARE(bytes(m.str(m.counters[0].name)), QByteArray("c.u")); // three number args: c.<arg>
    QVERIFY(!m.truncated);
}

// ---------------------------------------------------------------------------------------------
// Truncation and syntax errors

void TestLoader::truncatedTextKeepsCompleteEvents_data()
{
    QTest::addColumn<QByteArray>("tail"); // what follows the two complete events
    QTest::addColumn<bool>("insideEvent");
    QTest::addRow("mid-string") << QByteArray(R"(,{"ph":"X","name":"trunc)") << true;
    QTest::addRow("mid-escape") << QByteArray(R"(,{"ph":"X","name":"a\)") << true;
    QTest::addRow("mid-number") << QByteArray(R"(,{"ph":"X","name":"c","pid":1,"tid":1,"ts":12)")
                                << true;
    QTest::addRow("mid-event after comma") << QByteArray(R"(,{"ph":"X","name":"c",)") << true;
    QTest::addRow("mid-key") << QByteArray(R"(,{"ph":"X","na)") << true;
    QTest::addRow("mid-args") << QByteArray(R"(,{"ph":"X","name":"c","args":{"Input Dims":[[1,2)")
                              << true;
    QTest::addRow("after an event and comma") << QByteArray(",") << false;
    QTest::addRow("right after an event") << QByteArray("") << false;
    QTest::addRow("after the events array") << QByteArray("]") << false;
    QTest::addRow("in a key after the events") << QByteArray(R"(], "devicePro)") << false;
    QTest::addRow("in metadata after the events")
        << QByteArray(R"(], "deviceProperties": [{"id": 0, "name": "H1)") << false;
}

void TestLoader::truncatedTextKeepsCompleteEvents()
{
    QFETCH(QByteArray, tail);
    QFETCH(bool, insideEvent);
    const std::string json = R"({"schemaVersion":1,"traceEvents":[)" + slice("a", 1, "0", "10")
        + "," + slice("b", 1, "2", "3") + tail.toStdString();
    LOAD_OR_FAIL(m, json);
    QCOMPARE(joinedNames(m), QByteArray("a,b"));
    QVERIFY(m.truncated);
    QCOMPARE(diag(m, "truncated"), 1);
    QCOMPARE(diagOffset(m, "truncated"), qint64(json.size()));
    QCOMPARE(diag(m, "incomplete_event"), insideEvent ? 1 : 0);
    if (insideEvent)
        QCOMPARE(diagOffset(m, "incomplete_event"), qint64(json.rfind(",{\"ph\"") + 1));
    QCOMPARE(diag(m, "syntax_error"), 0);
    QCOMPARE(diag(m, "repaired_strings"), 0); // the cut is not a bad string
    QCOMPARE(qint64(m.textSize), qint64(json.size()));
    QCOMPARE(bytes(m.metadata.at("schemaVersion")), QByteArray("1"));
}

void TestLoader::truncatedEventCountExcludesIncompleteEvent()
{
    // eventCount is "entries of traceEvents read": the cut-off entry was not read (and is
    // reported as skipped by incomplete_event).
    const std::string json = R"({"traceEvents":[)" + slice("a", 1, "0", "10") + ","
        + slice("b", 1, "2", "3") + R"(,{"ph":"X","name":"tru)";
    LOAD_OR_FAIL(m, json);
    QCOMPARE(int(m.slices.size()), 2);
    QCOMPARE(qint64(m.eventCount), qint64(2));
}

void TestLoader::textCutBeforeAnyCompleteEventFails_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addRow("in the first key") << QByteArray(R"({"traceEv)");
    QTest::addRow("in metadata before the events")
        << QByteArray(R"({"schemaVersion": 1, "traceName": "ab)");
    QTest::addRow("after the opening bracket") << QByteArray(R"({"traceEvents": [)");
    QTest::addRow("bare array bracket") << QByteArray("[");
    QTest::addRow("in the first event") << QByteArray(R"({"traceEvents": [{"ph":"X","na)");
    QTest::addRow("in the first event of an array")
        << QByteArray(R"([{"ph":"X","name":"a","ts":1)");
}

void TestLoader::textCutBeforeAnyCompleteEventFails()
{
    QFETCH(QByteArray, text);
    const LoadResult r = test::load(text.toStdString());
    QCOMPARE(int(r.status), int(LoadResult::Status::Failed));
    QVERIFY(!r.model);
    QVERIFY2(errorOffset(r.error, QStringLiteral("inline.json")) == text.size(), r.error.c_str());
}

void TestLoader::syntaxErrorKeepsEventsBeforeIt_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("errorAt"); // the error offset is where this text starts
    QTest::addColumn<int>("slices");
    const QByteArray a = QByteArray::fromStdString(slice("a", 1, "0", "10"));
    const QByteArray b = QByteArray::fromStdString(slice("b", 1, "2", "3"));
    const QByteArray c = QByteArray::fromStdString(slice("c", 1, "4", "1"));
    QTest::addRow("junk between events")
        << QByteArray(R"({"traceEvents":[)" + a + "," + b + ", @junk, " + c + "]}")
        << QByteArray("@junk") << 2;
    QTest::addRow("missing comma")
        << QByteArray(R"({"traceEvents":[)" + a + "," + b + " " + c + "]}") << c << 2;
    QTest::addRow("unescaped quote in a name") << QByteArray(R"({"traceEvents":[)" + a
        + R"(,{"ph":"X","name":"say "hi"","pid":1,"tid":1,"ts":1,"dur":1},)" + c + "]}")
                                               << QByteArray(R"(hi"")") << 1;
    QTest::addRow("junk after the document")
        << QByteArray(R"({"traceEvents":[)" + a + "," + b + "]} trailing") << QByteArray("trailing")
        << 2;
    // A zero byte is never JSON text (and ends the zero-terminated buffer the parser reads).
    QTest::addRow("zero byte in a name")
        << QByteArray(R"({"traceEvents":[)" + a + R"(,{"ph":"X","name":"x)" + QByteArray(1, '\0')
               + R"(y","pid":1,"tid":1,"ts":1,"dur":1},)" + c + "]}")
        << QByteArray(1, '\0') << 1;
    QTest::addRow("zero padding after a crash")
        << QByteArray(R"({"traceEvents":[)" + a + "," + b + "," + QByteArray(64, '\0'))
        << QByteArray(1, '\0') << 2;
    QTest::addRow("two documents")
        << QByteArray(R"({"traceEvents":[)" + a + "," + b + "]}\n{\"traceEvents\":[" + c + "]}")
        << QByteArray("{\"traceEvents\":[" + c) << 2;
}

void TestLoader::syntaxErrorKeepsEventsBeforeIt()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, errorAt);
    QFETCH(int, slices);
    LOAD_OR_FAIL(m, text.toStdString());
    QCOMPARE(int(m.slices.size()), slices);
    QVERIFY(!m.truncated);
    QCOMPARE(diag(m, "syntax_error"), 1);
    QCOMPARE(diag(m, "truncated"), 0);
    QCOMPARE(diagOffset(m, "syntax_error"), qint64(text.indexOf(errorAt)));
}

// ---------------------------------------------------------------------------------------------
// Not a trace

void TestLoader::notATraceFailsWithOffset_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("offset"); // -1: any
    QTest::addColumn<QString>("reason"); // a part of the reason, or empty
    QTest::addRow("empty") << QByteArray() << qint64(0) << QStringLiteral("empty file");
    QTest::addRow("whitespace only") << QByteArray(" \n\t \r\n") << qint64(6) << QString();
    QTest::addRow("empty object") << QByteArray("{}") << qint64(0) << QStringLiteral("traceEvents");
    QTest::addRow("empty array") << QByteArray("[]") << qint64(0) << QStringLiteral("no events");
    QTest::addRow("no events") << QByteArray(R"({"traceEvents": []})") << qint64(0)
                               << QStringLiteral("no events");
    QTest::addRow("metadata only") << QByteArray(R"({"schemaVersion": 1, "deviceProperties": []})")
                                   << qint64(0) << QStringLiteral("traceEvents");
    QTest::addRow("number") << QByteArray("42") << qint64(0) << QStringLiteral("not a trace");
    QTest::addRow("string") << QByteArray(R"("str")") << qint64(0) << QStringLiteral("not a trace");
    QTest::addRow("null") << QByteArray("null") << qint64(0) << QStringLiteral("not a trace");
    QTest::addRow("true") << QByteArray("true") << qint64(0) << QStringLiteral("not a trace");
    QTest::addRow("traceEvents is a number")
        << QByteArray(R"({"traceEvents": 5})") << qint64(0) << QStringLiteral("traceEvents");
    QTest::addRow("traceEvents is an object") << QByteArray(R"({"traceEvents": {"ph": "X"}})")
                                              << qint64(0) << QStringLiteral("traceEvents");
    QTest::addRow("binary junk") << QByteArray("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR", 16)
                                 << qint64(0) << QString();
    QTest::addRow("zero bytes") << QByteArray("\x00\x01\x02\x03", 4) << qint64(-1) << QString();
    QTest::addRow("text") << QByteArray("hello world\n") << qint64(0) << QString();
    QTest::addRow("broken literal") << QByteArray("nul") << qint64(-1) << QString();
    QTest::addRow("csv") << QByteArray("name,ts\nop,1\n") << qint64(-1) << QString();
    // Entries, but no complete event: not a trace (exit 2), not a "loaded" trace of nothing.
    QTest::addRow("100 000 [") << QByteArray(100000,
        '[') << qint64(1) << QStringLiteral("the file ends before the first complete trace event");
    // A single value is placed where it was read to: the end of the first (EventHandler).
    QTest::addRow("numbers only") << QByteArray("[1, 2, 3]") << qint64(2)
                                  << QStringLiteral("no complete trace event");
    QTest::addRow("numbers with exponents only")
        << QByteArray("[1e5, 2E-1]") << qint64(4) << QStringLiteral("no complete trace event");
    QTest::addRow("empty arrays as events")
        << QByteArray(R"({"traceEvents": [[], []]})") << qint64(17)
        << QStringLiteral("no complete trace event");
    QTest::addRow("objects without a phase")
        << QByteArray(R"([{}, {"name": "x", "ts": 1}])") << qint64(1)
        << QStringLiteral("no complete trace event");
    QTest::addRow("syntax error after non-events") << QByteArray(
        R"([[], 7, {"ph" 1}])") << qint64(14) << QStringLiteral("before any complete trace event");
}

void TestLoader::notATraceFailsWithOffset()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, offset);
    QFETCH(QString, reason);
    const LoadResult r = test::load(std::string_view(text.constData(), size_t(text.size())));
    QCOMPARE(int(r.status), int(LoadResult::Status::Failed));
    QVERIFY(!r.model);
    const qint64 at = errorOffset(r.error, QStringLiteral("inline.json"));
    QVERIFY2(at >= 0, r.error.c_str());
    QVERIFY2(at <= text.size(), r.error.c_str());
    if (offset >= 0)
        QCOMPARE(at, offset);
    if (!reason.isEmpty())
        QVERIFY2(QString::fromStdString(r.error).contains(reason), r.error.c_str());
    QVERIFY2(r.error.find('\n') == std::string::npos, r.error.c_str()); // one line
}

// ---------------------------------------------------------------------------------------------
// Files

void TestLoader::gzipIsDetectedByMagicNotName()
{
    const std::string text
        = test::traceWith(join({slice("a", 1, "0", "10"), slice("b", 1, "2", "3")}));
    const QByteArray plain = QByteArray::fromStdString(text);
    const QByteArray gz = test::gzip(plain);

    const QString gzNamedJson = test::writeTemp(QStringLiteral("gzip-content.json"), gz);
    LoadResult r = loadTrace(gzNamedJson.toStdString());
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    QVERIFY(r.model->compressed);
    QCOMPARE(joinedNames(*r.model), QByteArray("a,b"));
    QCOMPARE(qint64(r.model->fileSize), qint64(gz.size()));
    QCOMPARE(qint64(r.model->textSize), qint64(plain.size()));
    QCOMPARE(QString::fromStdString(r.model->path), gzNamedJson);
    QVERIFY(!r.model->truncated);
    QVERIFY2(r.model->diagnostics.empty(), r.model->diagnostics.report().c_str());

    const QString plainNamedGz = test::writeTemp(QStringLiteral("plain-content.json.gz"), plain);
    r = loadTrace(plainNamedGz.toStdString());
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    QVERIFY(!r.model->compressed);
    QCOMPARE(joinedNames(*r.model), QByteArray("a,b"));
    QCOMPARE(qint64(r.model->fileSize), qint64(plain.size()));
    QCOMPARE(qint64(r.model->textSize), qint64(plain.size()));
    QVERIFY(r.model->diagnostics.empty());

    const QString gzNamedGz = test::writeTemp(QStringLiteral("trace.pt.trace.json.gz"), gz);
    r = loadTrace(gzNamedGz.toStdString());
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    QVERIFY(r.model->compressed);
    QCOMPARE(int(r.model->slices.size()), 2);
}

void TestLoader::cutGzipLoadsCompleteEvents()
{
    const QByteArray text = QByteArray::fromStdString(manyEvents(3000));
    const QByteArray whole = test::gzip(text);
    const QByteArray cut = test::gzip(text, whole.size() / 2);
    QCOMPARE(cut.size(), whole.size() / 2);
    const QByteArray prefix = gunzipPrefix(cut);
    QVERIFY(prefix.size() > 100 && prefix.size() < text.size());
    QVERIFY(text.startsWith(prefix));
    const int complete = int(prefix.count('}')); // one per event, no nested objects

    const QString path = test::writeTemp(QStringLiteral("cut.json.gz"), cut);
    const LoadResult r = loadTrace(path.toStdString());
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    const TraceModel &m = *r.model;
    QVERIFY(m.compressed);
    QVERIFY(m.truncated);
    QCOMPARE(int(m.slices.size()), complete);
    QVERIFY(complete > 0);
    QCOMPARE(qint64(m.textSize), qint64(prefix.size()));
    QCOMPARE(diag(m, "gzip_cut_off"), 1);
    QCOMPARE(diag(m, "truncated"), 1);
    QCOMPARE(diag(m, "gzip_corrupt"), 0);
    for (SliceId s = 0; s < m.slices.size(); ++s)
        QCOMPARE(bytes(m.sliceName(s)), "op" + QByteArray::number(s));
}

void TestLoader::corruptGzipFails_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("reason"); // part of the message, or empty
    QTest::addRow("magic then junk")
        << QByteArray("\x1f\x8bthis is not deflate data at all") << QStringLiteral("gzip");
    QTest::addRow("header only") << test::gzip(QByteArray::fromStdString(manyEvents(10)), 6)
                                 << QStringLiteral("gzip");
    QByteArray junk;
    for (int i = 0; i < 4096; ++i)
        junk += char((i * 7919 + 13) % 251);
    QTest::addRow("gzip of binary junk") << test::gzip(junk) << QString();
    QTest::addRow("gzip of nothing") << test::gzip(QByteArray()) << QString();
}

void TestLoader::corruptGzipFails()
{
    QFETCH(QByteArray, data);
    QFETCH(QString, reason);
    const QString path = test::writeTemp(QStringLiteral("corrupt.json"), data);
    // A loader that never finishes on such data shows as CTest's timeout.
    const LoadResult r = loadTrace(path.toStdString());
    QCOMPARE(int(r.status), int(LoadResult::Status::Failed));
    QVERIFY(!r.model);
    QVERIFY2(errorOffset(r.error, path) >= 0, r.error.c_str());
    if (!reason.isEmpty())
        QVERIFY2(QString::fromStdString(r.error).contains(reason), r.error.c_str());
}

void TestLoader::concatenatedGzipMembersAreOneText()
{
    const QByteArray text = QByteArray::fromStdString(manyEvents(200));
    const qsizetype mid = text.indexOf("\"name\":\"op100\""); // split inside an event
    const QByteArray gz = test::gzip(text.left(mid)) + test::gzip(text.mid(mid));
    const QString path = test::writeTemp(QStringLiteral("members.json.gz"), gz);
    const LoadResult r = loadTrace(path.toStdString());
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    QCOMPARE(int(r.model->slices.size()), 200);
    QVERIFY(!r.model->truncated);
    QCOMPARE(qint64(r.model->textSize), qint64(text.size()));
    QVERIFY2(r.model->diagnostics.empty(), r.model->diagnostics.report().c_str());
}

void TestLoader::dataAfterGzipStreamIsCounted()
{
    const QByteArray text = QByteArray::fromStdString(manyEvents(50));
    const QString path
        = test::writeTemp(QStringLiteral("trailing.json.gz"), test::gzip(text) + "JUNK AFTER");
    const LoadResult r = loadTrace(path.toStdString());
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    QCOMPARE(int(r.model->slices.size()), 50);
    QVERIFY(!r.model->truncated);
    QCOMPARE(diag(*r.model, "gzip_trailing_garbage"), 1);
}

void TestLoader::readingOnTheParserThreadChangesNothing_data()
{
    QTest::addColumn<QByteArray>("data");
    // About 5 MB of text: five chunks, so that reads cross chunk boundaries.
    const QByteArray plain = QByteArray::fromStdString(manyEvents(65000));
    QTest::addRow("plain") << plain;
    QTest::addRow("plain cut mid-event") << plain.left(plain.size() * 2 / 3);
    QTest::addRow("plain needing repair") << QByteArray::fromStdString(manyEvents(
        65000, ",{\"ph\":\"X\",\"name\":\"tab\there\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}"));
    QTest::addRow("gzip") << test::gzip(plain);
    const QByteArray gz = test::gzip(plain);
    QTest::addRow("gzip cut") << test::gzip(plain, gz.size() / 2);
    const qsizetype mid = plain.indexOf("\"name\":\"op40000\"");
    QTest::addRow("gzip members") << test::gzip(plain.left(mid)) + test::gzip(plain.mid(mid));
    QTest::addRow("gzip then junk") << gz + "JUNK AFTER";
    QTest::addRow("corrupt gzip") << QByteArray("\x1f\x8bthis is not deflate data at all");
    QTest::addRow("not JSON") << QByteArray("hello");
    QTest::addRow("empty") << QByteArray();
}

// A run's ranks read their files on the parser's thread (LoadOptions::readerThread off): every
// kind of file, whole, cut, corrupt or read twice, loads the same as with a reader thread.
void TestLoader::readingOnTheParserThreadChangesNothing()
{
    QFETCH(QByteArray, data);
    const std::string path = test::writeTemp(QStringLiteral("reader.json"), data).toStdString();
    LoadOptions ahead;
    ahead.threads = 1;
    LoadOptions inline_ = ahead;
    inline_.readerThread = false;
    const LoadResult a = loadTrace(path, ahead);
    const LoadResult b = loadTrace(path, inline_);
    QCOMPARE(int(b.status), int(a.status));
    QCOMPARE(QString::fromStdString(b.error), QString::fromStdString(a.error));
    QCOMPARE(bool(b.model), bool(a.model));
    if (!a.model)
        return;
    QVERIFY(a.model->slices.size() > 0);
    const std::string difference
        = test::firstDifference(test::dumpModel(*a.model), test::dumpModel(*b.model));
    QVERIFY2(difference.empty(), difference.c_str());
    const auto &pa = a.model->gzipIndex.points, &pb = b.model->gzipIndex.points;
    QCOMPARE(pb.size(), pa.size());
    QCOMPARE(a.model->compressed, !pa.empty());
    for (size_t i = 0; i < pa.size(); ++i) {
        QCOMPARE(pb[i].compressedOffset, pa[i].compressedOffset);
        QCOMPARE(pb[i].textOffset, pa[i].textOffset);
        QCOMPARE(pb[i].bits, pa[i].bits);
        QVERIFY(pb[i].state == pa[i].state);
    }
}

void TestLoader::unreadablePathsFailFast_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("reason");
    const QString dir = test::tempDir();
    QTest::addRow("missing") << dir + QStringLiteral("/does-not-exist.json")
                             << QStringLiteral("No such file");
    QDir(dir).mkpath(QStringLiteral("a-directory.json"));
    QTest::addRow("directory") << dir + QStringLiteral("/a-directory.json")
                               << QStringLiteral("directory");
    const QString fifo = dir + QStringLiteral("/fifo.json");
    ::mkfifo(QFile::encodeName(fifo).constData(), 0600);
    QTest::addRow("fifo") << fifo << QStringLiteral("regular file");
    QTest::addRow("empty file") << test::writeTemp(QStringLiteral("empty.json"), QByteArray())
                                << QStringLiteral("empty");
    QTest::addRow("empty gz") << test::writeTemp(QStringLiteral("empty.json.gz"), QByteArray())
                              << QStringLiteral("empty");
}

void TestLoader::unreadablePathsFailFast()
{
    QFETCH(QString, path);
    QFETCH(QString, reason);
    // Opening a FIFO or a device for reading could block forever: the loader checks first (a
    // loader that blocks shows as CTest's timeout, not as a verdict on how fast it failed).
    const LoadResult r = loadTrace(path.toStdString());
    QCOMPARE(int(r.status), int(LoadResult::Status::Failed));
    QVERIFY(!r.model);
    QVERIFY2(errorOffset(r.error, path) == 0, r.error.c_str());
    QVERIFY2(QString::fromStdString(r.error).contains(reason), r.error.c_str());
}

void TestLoader::progressIsMonotonicAndEndsAt1000_data()
{
    QTest::addColumn<QByteArray>("data");
    const QByteArray plain = QByteArray::fromStdString(manyEvents(30000));
    QTest::addRow("plain") << plain;
    QTest::addRow("gzip") << test::gzip(plain);
    // A bad string at the very end makes the loader read the text a second time.
    QTest::addRow("plain needing repair") << QByteArray::fromStdString(manyEvents(
        30000, ",{\"ph\":\"X\",\"name\":\"tab\there\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}"));
}

void TestLoader::progressIsMonotonicAndEndsAt1000()
{
    QFETCH(QByteArray, data);
    const QString path = test::writeTemp(QStringLiteral("progress.json"), data);
    std::vector<int> seen;
    LoadOptions options;
    options.progress = [&](int permille) { seen.push_back(permille); };
    const LoadResult r = loadTrace(path.toStdString(), options);
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    QVERIFY(r.model->slices.size() >= 30000);
    QVERIFY(seen.size() >= 2);
    QCOMPARE(seen.back(), 1000);
    for (size_t i = 0; i < seen.size(); ++i) {
        QVERIFY(seen[i] >= 0 && seen[i] <= 1000);
        if (i > 0)
            QVERIFY2(seen[i] >= seen[i - 1],
                qPrintable(
                    QStringLiteral("progress went from %1 to %2").arg(seen[i - 1]).arg(seen[i])));
    }
}

// The first half of the text barely compresses (random names), the second half is one event
// repeated: the compressed bytes are nearly all in the first half. Halfway through the events
// the bar shows about half the parse's share (750), not nearly all of it.
void TestLoader::gzipProgressCountsTextNotCompressedBytes()
{
    constexpr int kEvents = 40000;
    std::string text = "{\"traceEvents\":[";
    uint32_t seed = 12345;
    for (int i = 0; i < kEvents; ++i) {
        std::string name(24, 'a');
        for (char &c : name) {
            seed = seed * 1664525u + 1013904223u;
            c = i < kEvents / 2 ? char('a' + (seed >> 24) % 26) : 'z';
        }
        text += (i ? "," : "") + std::string(R"({"ph":"X","cat":"cpu_op","name":")") + name
            + R"(","pid":1,"tid":1,"ts":1000000,"dur":1})";
    }
    text += "]}";
    const QString path = test::writeTemp(
        QStringLiteral("progress-skewed.json.gz"), test::gzip(QByteArray::fromStdString(text)));
    std::vector<int> seen;
    LoadOptions options;
    options.threads = 1;
    options.progress = [&](int permille) { seen.push_back(permille); };
    const LoadResult r = loadTrace(path.toStdString(), options);
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    QVERIFY(seen.size() >= 8);
    QCOMPARE(seen.back(), 1000);
    // Checkpoints come every so many events: the middle one is about half the text.
    const int middle = seen[(seen.size() - 1) / 2];
    QVERIFY2(middle > 300 && middle < 560, qPrintable(QString::number(middle)));
}

void TestLoader::cancelBeforeLoadingStops_data()
{
    QTest::addColumn<QByteArray>("data");
    const QByteArray plain = QByteArray::fromStdString(manyEvents(200000));
    QTest::addRow("plain") << plain;
    QTest::addRow("gzip") << test::gzip(plain);
}

void TestLoader::cancelBeforeLoadingStops()
{
    QFETCH(QByteArray, data);
    const QString path = test::writeTemp(QStringLiteral("cancel-before.json"), data);
    std::atomic<bool> cancel {true};
    LoadOptions options;
    options.cancel = &cancel;
    int progressCalls = 0;
    options.progress = [&](int) { ++progressCalls; };
    const LoadResult r = loadTrace(path.toStdString(), options);
    QCOMPARE(int(r.status), int(LoadResult::Status::Cancelled));
    QVERIFY(!r.model);
    QCOMPARE(QString::fromStdString(r.error), path + QStringLiteral(": cancelled"));
    // It stopped at the first checkpoint: no progress was reported before the final one
    // (a load that reads on reports dozens of steps for this file, see the test above).
    QVERIFY2(progressCalls <= 1, qPrintable(QString::number(progressCalls)));
}

void TestLoader::cancelWhileLoadingStops()
{
    const QString path = test::writeTemp(
        QStringLiteral("cancel-while.json"), QByteArray::fromStdString(manyEvents(200000)));
    std::atomic<bool> cancel {false};
    int calls = 0;
    LoadOptions options;
    options.cancel = &cancel;
    options.progress = [&](int) {
        if (++calls == 1)
            cancel = true; // the user presses Cancel once loading has started
    };
    const LoadResult r = loadTrace(path.toStdString(), options);
    QCOMPARE(int(r.status), int(LoadResult::Status::Cancelled));
    QVERIFY(!r.model);
    QVERIFY(calls >= 1);

    // The same file loads when nobody cancels.
    cancel = false;
    options.progress = {};
    const LoadResult full = loadTrace(path.toStdString(), options);
    QVERIFY2(full.status == LoadResult::Status::Loaded, full.error.c_str());
    QCOMPARE(int(full.model->slices.size()), 200000);
}

QTEST_GUILESS_MAIN(TestLoader)
#include "tst_loader.moc"
