// SPDX-License-Identifier: MIT
// Several ranks as one run (core/session/run, core/analysis/collectives, rankpairs,
// core/export/runtables): inline traces of 2 and 4 ranks whose expected skews, waits and
// spreads are worked out by hand in the comments, the common clock over epoch and
// baseTimeNanoseconds ranks, failing ranks, and the two shared DLRM ranks.
#include "analysis/health/tracecheck.h"
#include "export/runtables.h"
#include "export/summary.h"
#include "runbuilder.h"
#include "session/run.h"
#include "testutil.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <string>

using namespace ks;
using ks::test::kEpochUs;
using ks::test::RankBuilder;
using ks::test::runOf;

namespace {

constexpr TimeNs us = 1000;

} // namespace

class TestRun : public QObject {
    Q_OBJECT
private slots:
    void twoRanksOnMixedClocks();
    void fourRanksByProcessGroup();
    void differentKernelCountsByOrder();
    void collectivesByIdentitySurviveALostRecord_data();
    void collectivesByIdentitySurviveALostRecord();
    void orderMatchWarnsWhereKernelsDoNotOverlap();
    void runCheckFindsWhatTheRunLacks();
    void aRankReadInPartIsNamed();
    void pairsAcrossRanks();
    void aRankWithoutGpuWorkIsNotTimed();
    void ranksWithoutNumbers();
    void failingRankStillOpensTheOthers();
    void exportsFromTheCommandLine();
    void sharedDlrmRanks();
};

// Rank 0 writes epoch µs; rank 1 is relative to a base 2000 µs earlier. Absolute µs from
// kEpochUs: rank 0's step starts at 0 (the common zero), rank 1's at 10.
// Collective 0: rank 0 at 100 (50 long), rank 1 at 130 (20) → skew 30, rank 1 last,
// rank 0 waits 30. Collective 1: rank 0 at 400 (30), rank 1 at 395 (35) → skew 5, rank 0 last.
void TestRun::twoRanksOnMixedClocks()
{
    RankBuilder r0(0, 2), r1(1, 2, 2000);
    r0.step(1, 0, 1000).comm(100, 50).comm(400, 30);
    r1.step(1, 10, 1000).comm(130, 20).comm(395, 35);
    auto run = runOf({&r1, &r0});
    QVERIFY(run);
    QCOMPARE(run->ranks.size(), size_t(2));
    QCOMPARE(run->ranks[0].rank, 0); // sorted by rank, whatever the order given
    QCOMPARE(run->ranks[1].worldSize, 2);
    QCOMPARE(run->commonZero, kEpochUs * us);
    QCOMPARE(run->ranks[1].runTime(run->sources[1]->traceStart), 10 * us);
    QVERIFY(run->warnings.empty());
    const auto &c = run->collectives.collectives;
    QVERIFY(!run->collectives.byProcessGroup);
    QCOMPARE(c.size(), size_t(2));
    QCOMPARE(c[0].firstStart, 100 * us);
    QCOMPARE(c[0].lastStart, 130 * us);
    QCOMPARE(c[0].skew(), 30 * us);
    QCOMPARE(run->ranks[c[0].lastRankIndex].rank, 1);
    QCOMPARE(c[0].wait(c[0].kernels[0]), 30 * us);
    QCOMPARE(c[0].wait(c[0].kernels[1]), TimeNs(0));
    QCOMPARE(c[0].minDur, 20 * us);
    QCOMPARE(c[0].maxDur, 50 * us);
    QCOMPARE(c[1].skew(), 5 * us);
    QCOMPARE(run->ranks[c[1].lastRankIndex].rank, 0);

    const CellTable table = collectiveTable(run->rankNumbers(), run->collectives);
    // Waits and durations per rank, after the specified columns: collective 0 waits 30 on
    // rank 0 (100 → 130), durations 50 and 20; collective 1 waits 5 on rank 1 (395 → 400).
    QCOMPARE(tableToCsv(table),
        std::string("collective,name,process_group,ranks,first_start_us,last_start_us,skew_us,"
                    "last_rank,min_dur_us,max_dur_us,comms_id,seq,matched_by,wait_us.0,dur_us.0,"
                    "wait_us.1,dur_us.1\n"
                    "0,ncclKernel_AllReduce_RING_LL_Sum_float,,2,100.000,130.000,30.000,1,20.000,"
                    "50.000,,,order,30.000,50.000,0.000,20.000\n"
                    "1,ncclKernel_AllReduce_RING_LL_Sum_float,,2,395.000,400.000,5.000,0,30.000,"
                    "35.000,,,order,0.000,30.000,5.000,35.000\n"));
}

// Four ranks, process group "0" of all four and "1" of ranks 2 and 3 (µs from kEpochUs):
// - "0" #0: r0 100, r1 120, r2 160, r3 110 → last r2, skew 60; waits 60, 40, 0, 50.
// - "0" #1: r0 500, r1 505, r3 530; rank 2 lacks it → 3 ranks, last r3, skew 30, and a warning
//   naming rank 2 (1 kernel) against the others (2).
// - "1" #0: r2 300, r3 290 → 2 ranks, last r2, skew 10; no warning (only its members have it).
// In first-start order: "0"#0 (100), "1"#0 (290), "0"#1 (500).
void TestRun::fourRanksByProcessGroup()
{
    RankBuilder r0(0, 4), r1(1, 4, 100), r2(2, 4), r3(3, 4, 5000);
    r0.step(1, 0, 1000).comm(100, 10, "0").comm(500, 10, "0");
    r1.step(1, 0, 1000).comm(120, 10, "0").comm(505, 10, "0");
    r2.step(1, 0, 1000).comm(160, 10, "0").comm(300, 10, "1");
    r3.step(1, 0, 1000).comm(110, 10, "0").comm(290, 10, "1").comm(530, 10, "0");
    auto run = runOf({&r3, &r1, &r0, &r2});
    QVERIFY(run);
    const CollectiveMatch &m = run->collectives;
    QVERIFY(m.byProcessGroup);
    QCOMPARE(m.collectives.size(), size_t(3));
    const Collective &a = m.collectives[0];
    QCOMPARE(a.processGroup, std::string("0"));
    QCOMPARE(a.name, std::string("allreduce"));
    QCOMPARE(a.kernels.size(), size_t(4));
    QCOMPARE(run->ranks[a.lastRankIndex].rank, 2);
    QCOMPARE(a.skew(), 60 * us);
    const TimeNs waits[] = {60 * us, 40 * us, 0, 50 * us};
    for (const CollectiveKernel &k : a.kernels)
        QCOMPARE(a.wait(k), waits[run->ranks[k.rankIndex].rank]);
    const Collective &b = m.collectives[1];
    QCOMPARE(b.processGroup, std::string("1"));
    QCOMPARE(b.kernels.size(), size_t(2));
    QCOMPARE(run->ranks[b.lastRankIndex].rank, 2);
    QCOMPARE(b.skew(), 10 * us);
    const Collective &c = m.collectives[2];
    QCOMPARE(c.ordinal, 1u);
    QCOMPARE(c.kernels.size(), size_t(3));
    QCOMPARE(run->ranks[c.lastRankIndex].rank, 3);
    QCOMPARE(c.skew(), 30 * us);
    // Rank 2 lacks "0"#1: its wait and duration cells are empty; rank 3 waited 0.
    const CellTable table = collectiveTable(run->rankNumbers(), m);
    QCOMPARE(table.text(2, 17), std::string()); // wait_us.2
    QCOMPARE(table.text(2, 19), std::string("0.000")); // wait_us.3
    QCOMPARE(table.text(2, 13), std::string("30.000")); // wait_us.0: 500 → 530
    QCOMPARE(m.warnings.size(), size_t(2));
    QVERIFY2(m.warnings[0].find("process group \"0\"") != std::string::npos
            && m.warnings[0].find("rank 2: 1") != std::string::npos
            && m.warnings[0].find("rank 3: 2") != std::string::npos,
        m.warnings[0].c_str());
    // These kernels last 10 µs, yet ranks wait up to 60 µs: real NCCL kernels span their wait,
    // so by order "0"#0 and "0"#1 are named as doubtful ("1"#0: a wait of 10, not more).
    QVERIFY2(
        m.warnings[1].find("2 collectives have kernels that do not overlap") != std::string::npos
            && m.warnings[1].find("allreduce #0 (group 0), allreduce #1 (group 0)")
                != std::string::npos,
        m.warnings[1].c_str());
}

// Without process-group args, by order: rank 1 has a third kernel that rank 0 lacks, and its
// second kernel has another name.
void TestRun::differentKernelCountsByOrder()
{
    RankBuilder r0(0, 2), r1(1, 2);
    r0.step(1, 0, 1000).comm(100, 10).comm(200, 10);
    r1.step(1, 0, 1000).comm(100, 10).comm(200, 10, {}, "ncclKernel_Broadcast").comm(300, 10);
    auto run = runOf({&r0, &r1});
    QVERIFY(run);
    const CollectiveMatch &m = run->collectives;
    QCOMPARE(m.collectives.size(), size_t(3));
    QCOMPARE(m.collectives[2].kernels.size(), size_t(1));
    QCOMPARE(run->ranks[m.collectives[2].kernels[0].rankIndex].rank, 1);
    QCOMPARE(m.warnings.size(), size_t(2));
    QVERIFY(m.warnings[0].find("rank 0: 2, rank 1: 3") != std::string::npos);
    QVERIFY(
        m.warnings[1].find("1 of 3 collectives have different kernel names") != std::string::npos);
    QCOMPARE(run->warnings, m.warnings);
}

// Both ranks run aten::mm (backward 40 µs on rank 0, 70 on rank 1) and aten::relu (10 and 5);
// rank 1 also runs aten::add that rank 0 lacks, rank 0 aten::sub that rank 1 lacks; both end
// with a node whose forward op is not in the trace (backward 6 and 8 µs).
/*
 * Issue #32: NCCL kernels as Kineto writes them since 2026 — `Seq` (kineto#1296) and `Comms Id`
 * (kineto#1286), an unsigned 64-bit hash written as a JSON number (field names and types:
 * pytorch/kineto 032aa9ee, libkineto/include/MetadataFieldCatalog.h, CollectiveMetadataFields).
 * Three ranks run collectives 0, 1, 2 of group "0"; rank 1 lost its record of #1. By identity
 * (Comms Id, else group + Seq), #1 lacks rank 1 only and #2 still has all three; by order, rank
 * 1's #2 would have been taken for #1. The Comms Id is kept exactly as written.
 */
void TestRun::collectivesByIdentitySurviveALostRecord_data()
{
    QTest::addColumn<bool>("withId");
    QTest::newRow("Comms Id") << true;
    QTest::newRow("process group + Seq") << false;
}

void TestRun::collectivesByIdentitySurviveALostRecord()
{
    QFETCH(bool, withId);
    const std::string ids[] = {"18446744073709551557", "9223372036854775809", "42"};
    auto meta = [&](int seq) {
        return R"("Seq":)" + std::to_string(seq)
            + (withId ? R"(,"Comms Id":)" + ids[seq] : std::string());
    };
    const std::string kernel = "ncclKernel_AllReduce_RING_LL_Sum_float";
    RankBuilder r0(0, 3), r1(1, 3), r2(2, 3);
    r0.step(1, 0, 1000).comm(100, 50, "0", kernel, meta(0)).comm(300, 50, "0", kernel, meta(1));
    r0.comm(500, 50, "0", kernel, meta(2));
    r1.step(1, 0, 1000).comm(110, 40, "0", kernel, meta(0)).comm(520, 30, "0", kernel, meta(2));
    r2.step(1, 0, 1000).comm(120, 30, "0", kernel, meta(0)).comm(310, 40, "0", kernel, meta(1));
    r2.comm(530, 20, "0", kernel, meta(2));
    auto run = runOf({&r0, &r1, &r2});
    QVERIFY(run);
    const CollectiveMatch &m = run->collectives;
    QCOMPARE(m.by, withId ? MatchedBy::CommsId : MatchedBy::GroupSeq);
    QCOMPARE(m.collectives.size(), size_t(3));
    const size_t ranks[] = {3, 2, 3};
    const TimeNs skews[] = {20 * us, 10 * us, 30 * us};
    for (size_t i = 0; i < 3; ++i) {
        const Collective &c = m.collectives[i];
        QCOMPARE(c.seq, int64_t(i));
        QCOMPARE(c.commsId, withId ? ids[i] : std::string());
        QCOMPARE(c.kernels.size(), ranks[i]);
        QCOMPARE(c.skew(), skews[i]);
    }
    QCOMPARE(run->ranks[m.collectives[2].lastRankIndex].rank, 2);
    QCOMPARE(m.warnings.size(), size_t(1)); // #1 lacks a rank
    QVERIFY2(m.warnings[0].find("1 of 3 collectives") != std::string::npos, m.warnings[0].c_str());
    const CellTable table = collectiveTable(run->rankNumbers(), m);
    QCOMPARE(table.columnName(10), std::string_view("comms_id"));
    QCOMPARE(table.text(0, 10), withId ? ids[0] : std::string());
    QCOMPARE(table.text(1, 11), std::string("1"));
    QCOMPARE(table.text(2, 12), std::string(withId ? "comms_id" : "group_seq"));
}

/*
 * Order-based matching (no Seq, no Comms Id) on two ranks whose second kernels do not overlap:
 * rank 0 ran it at 300 for 20 µs, rank 1 at 900 — rank 0 would have waited 600 µs for a kernel
 * of 20: not one collective, and the warning names it.
 */
void TestRun::orderMatchWarnsWhereKernelsDoNotOverlap()
{
    RankBuilder r0(0, 2), r1(1, 2);
    r0.step(1, 0, 1000).comm(100, 50, "0").comm(300, 20, "0");
    r1.step(1, 0, 1000).comm(110, 40, "0").comm(900, 20, "0");
    auto run = runOf({&r0, &r1});
    QVERIFY(run);
    const CollectiveMatch &m = run->collectives;
    QCOMPARE(m.by, MatchedBy::Order);
    QCOMPARE(m.warnings.size(), size_t(1));
    QVERIFY2(
        m.warnings[0].find("1 collectives have kernels that do not overlap") != std::string::npos
            && m.warnings[0].find("allreduce #1 (group 0)") != std::string::npos,
        m.warnings[0].c_str());
    QCOMPARE(collectiveTable(run->rankNumbers(), m).text(0, 12), std::string("order"));
}

/*
 * `--check` on a run: three ranks of a world of 4 (rank 3 missing); in group "0" ranks 0 and 1 ran
 * two collectives, rank 2 one; rank 2's events (100 000 µs on) overlap neither rank's (0–1000).
 */
void TestRun::runCheckFindsWhatTheRunLacks()
{
    RankBuilder r0(0, 4), r1(1, 4), r2(2, 4);
    r0.step(1, 0, 1000).comm(100, 50, "0").comm(300, 20, "0");
    r1.step(1, 0, 1000).comm(110, 40, "0").comm(310, 20, "0");
    r2.step(1, 100000, 1000).comm(100100, 40, "0");
    auto run = runOf({&r0, &r1, &r2});
    QVERIFY(run);
    QStringList got;
    for (const Finding &f : run->findings)
        got << QString::fromStdString(std::string(info(f.check).name) + " "
            + std::to_string(f.count) + " " + std::to_string(f.rankIndex) + " " + f.example);
    QCOMPARE(got,
        QStringList({QStringLiteral("missing_ranks 1 -1 rank 3 of world_size 4 not in the run"),
            QStringLiteral("collective_counts_differ 1 2 process group '0': rank 2 ran 1, rank 0 "
                           "ran 2"),
            QStringLiteral("clocks_do_not_overlap 1 2 rank 2 (%1)")
                .arg(QString::fromStdString(run->ranks[2].file))}));
}

/*
 * Rank 2's trace is cut inside its first communication kernel: it keeps its step and one launch
 * (2 events, the kernel skipped), so no GPU event and no collective survived. The run names it
 * twice — what its load lost, and that every collective lacks it — and the check counts it as a
 * member of group "0" with 0 kernels, where the others ran 2.
 */
void TestRun::aRankReadInPartIsNamed()
{
    RankBuilder r0(0, 3), r1(1, 3), r2(2, 3);
    for (RankBuilder *r : {&r0, &r1, &r2})
        r->step(1, 0, 1000).comm(100, 50, "0").comm(300, 20, "0");
    const std::string whole = r2.json();
    const std::string cut = whole.substr(0, whole.find(R"("cat":"kernel")"));
    std::vector<std::shared_ptr<const LoadedTrace>> traces {
        test::link(r0.json()), test::link(r1.json()), test::link(cut)};
    QVERIFY(traces[0] && traces[1] && traces[2]);
    const auto run = assembleRun(std::move(traces), {});
    const std::string file = run->ranks[2].file;
    const std::string lost = "rank 2 (" + file + "): data lost: byte " + std::to_string(cut.size())
        + ": the file ends in the middle of the JSON; 2 events kept, 1 incomplete one skipped; no "
          "GPU event survived: its GPU work is missing";
    const std::string silent = "rank 2 (" + file
        + ") ran no communication kernel where rank 0 ran 2: every collective lacks it";
    QStringList warnings;
    for (const std::string &w : run->warnings)
        warnings << QString::fromStdString(w);
    QVERIFY2(warnings.contains(QString::fromStdString(lost)),
        qPrintable(warnings.join(QLatin1Char('\n'))));
    QVERIFY2(warnings.contains(QString::fromStdString(silent)),
        qPrintable(warnings.join(QLatin1Char('\n'))));
    QStringList got;
    for (const Finding &f : run->findings)
        got << QString::fromStdString(std::string(info(f.check).name) + " " + f.example);
    QCOMPARE(got,
        QStringList({QStringLiteral(
            "collective_counts_differ process group '0': rank 2 ran 0, rank 0 ran 2")}));
    // Its GPU figures are unknown, not 0: the rank table leaves its ten GPU cells empty.
    const CellTable ranks = rankTable(run->summaries());
    for (size_t column = 4; column < 14; ++column) {
        QCOMPARE(ranks.text(2, column), std::string());
        QVERIFY(!ranks.text(0, column).empty());
    }
}

void TestRun::pairsAcrossRanks()
{
    RankBuilder r0(0, 2), r1(1, 2);
    r0.step(1, 0, 5000)
        .pair("aten::mm", "MmBackward0", 1, 100, 12, 40)
        .pair("aten::relu", "ReluBackward0", 2, 1000, 3, 10)
        .pair("aten::sub", "SubBackward0", 4, 3000, 2, 2)
        .lonelyNode("MulBackward0", 9, 4000, 6);
    r1.step(1, 0, 5000)
        .pair("aten::mm", "MmBackward0", 1, 100, 14, 70)
        .pair("aten::relu", "ReluBackward0", 2, 1000, 3, 5)
        .pair("aten::add", "AddBackward0", 3, 2000, 1, 1)
        .lonelyNode("MulBackward0", 9, 4000, 8);
    auto run = runOf({&r0, &r1});
    QVERIFY(run);
    const RankPairs &p = run->pairs;
    QCOMPARE(p.pairs.size(), size_t(4));
    // mm, relu and the lonely node are on both ranks; sub only on rank 0.
    QCOMPARE(p.matchedOnAnother(), size_t(3));
    QCOMPARE(p.matchedOnEvery(2), size_t(3));
    QCOMPARE(p.pairs[0].ranksPresent, 2u);
    QCOMPARE(p.pairs[0].backwardGpu[1], 70 * us);
    QCOMPARE(p.pairs[0].backwardSpread, 30 * us);
    QCOMPARE(p.pairs[0].slowestRankIndex, 1u);
    QCOMPARE(p.pairs[1].backwardSpread, 5 * us);
    QCOMPARE(p.pairs[1].slowestRankIndex, 0u);
    QCOMPARE(p.unmatchedRows[1], uint64_t(1));
    QCOMPARE(tableToCsv(rankPairTable(run->rankNumbers(), run->firstPairRows, p)),
        std::string("fwd_name,input_dims,step,module,fwd_gpu_us.0,bwd_gpu_us.0,fwd_gpu_us.1,"
                    "bwd_gpu_us.1,bwd_spread_us,slowest_rank,fwd_tflops.0,bwd_tflops.0,"
                    "fwd_tflops.1,bwd_tflops.1\n" // no shapes: no rates (tst_opefficiency)
                    "aten::mm,,1,,12.000,40.000,14.000,70.000,30.000,1,,,,\n"
                    "aten::relu,,1,,3.000,10.000,3.000,5.000,5.000,0,,,,\n"
                    "aten::sub,,1,,2.000,2.000,,,,,,,,\n"
                    ",,1,,,6.000,,8.000,2.000,1,,,,\n"));

    // The rank table: forward and backward GPU time summed over each rank's pairs.
    const CellTable ranks = rankTable(run->summaries());
    QCOMPARE(ranks.rowCount(), size_t(2));
    auto cell = [&](size_t row, std::string_view column) {
        for (size_t c = 0; c < ranks.columnCount(); ++c) {
            if (ranks.columnName(c) == column)
                return ranks.text(row, c);
        }
        return std::string("?");
    };
    QCOMPARE(cell(0, "fwd_gpu_us"), std::string("17.000"));
    QCOMPARE(cell(0, "bwd_gpu_us"), std::string("58.000"));
    QCOMPARE(cell(1, "bwd_gpu_us"), std::string("84.000"));
    QCOMPARE(cell(1, "pairs"), std::string("3"));
    QCOMPARE(cell(1, "steps"), std::string("1"));
    QCOMPARE(cell(1, "peak_allocated_bytes"), std::string()); // no [memory] events: empty
    // Rank 1's GPU runs [110,124) [1010,1013) [2010,2011) forward and [310,380) [1210,1215)
    // [2210,2211) [4010,4018) backward: 102 µs busy over 4018 − 110.
    QCOMPARE(cell(1, "computation_us"), std::string("102.000"));
    QCOMPARE(cell(1, "total_us"), std::string("3908.000"));
}

/*
 * Rank 2 runs rank 1's pairs, its GPU events written last and the file cut at the first: its
 * pairs match, but its GPU work is missing. Across ranks its GPU cells are empty, not 0, and the
 * spread and slowest rank compare ranks 0 and 1 alone (as pairsAcrossRanks: mm 30 µs, rank 1);
 * with rank 1 left out too, no pair has two ranks timed to compare.
 */
void TestRun::aRankWithoutGpuWorkIsNotTimed()
{
    RankBuilder r0(0, 3), r1(1, 3), r2(2, 3);
    r0.step(1, 0, 5000).pair("aten::mm", "MmBackward0", 1, 100, 12, 40);
    for (RankBuilder *r : {&r1, &r2})
        r->step(1, 0, 5000).pair("aten::mm", "MmBackward0", 1, 100, 14, 70);
    const std::string cut = r2.jsonCutBeforeGpu();
    const auto run = test::runOfTexts({r0.json(), r1.json(), cut});
    QVERIFY(run);
    QVERIFY(run->sources[2]->summary.gpuUnknown);
    const RankPair &mm = run->pairs.pairs[0];
    QCOMPARE(mm.ranksPresent, 3u);
    QCOMPARE(mm.ranksTimed, 2u);
    QCOMPARE(tableToCsv(rankPairTable(run->rankNumbers(), run->firstPairRows, run->pairs)),
        std::string("fwd_name,input_dims,step,module,fwd_gpu_us.0,bwd_gpu_us.0,fwd_gpu_us.1,"
                    "bwd_gpu_us.1,fwd_gpu_us.2,bwd_gpu_us.2,bwd_spread_us,slowest_rank,"
                    "fwd_tflops.0,bwd_tflops.0,fwd_tflops.1,bwd_tflops.1,fwd_tflops.2,"
                    "bwd_tflops.2\n"
                    "aten::mm,,1,,12.000,40.000,14.000,70.000,,,30.000,1,,,,,,\n"));
    const auto alone = test::runOfTexts({r0.json(), cut});
    QVERIFY(alone);
    QCOMPARE(tableToCsv(rankPairTable(alone->rankNumbers(), alone->firstPairRows, alone->pairs)),
        std::string("fwd_name,input_dims,step,module,fwd_gpu_us.0,bwd_gpu_us.0,fwd_gpu_us.2,"
                    "bwd_gpu_us.2,bwd_spread_us,slowest_rank,fwd_tflops.0,bwd_tflops.0,"
                    "fwd_tflops.2,bwd_tflops.2\n"
                    "aten::mm,,1,,12.000,40.000,,,,,,,,\n"));
}

void TestRun::ranksWithoutNumbers()
{
    const std::string plain
        = test::traceWith(R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1})");
    std::vector<std::shared_ptr<const LoadedTrace>> traces {test::link(plain), test::link(plain)};
    QVERIFY(traces[0] && traces[1]);
    auto run = assembleRun(traces, {});
    QCOMPARE(run->ranks[0].rank, 0);
    QCOMPARE(run->ranks[1].rank, 1);
    QCOMPARE(run->warnings.size(), size_t(1));
    QVERIFY(run->warnings[0].find("numbered by file order") != std::string::npos);
}

void TestRun::failingRankStillOpensTheOthers()
{
    RankBuilder r0(0, 3), r2(2, 3);
    r0.step(1, 0, 1000).comm(100, 10);
    r2.step(1, 0, 1000).comm(120, 10);
    QDir dir(test::tempDir());
    QVERIFY(dir.mkpath(QStringLiteral("run")));
    const QString folder = dir.filePath(QStringLiteral("run"));
    test::writeTemp(
        QStringLiteral("run/rank0.pt.trace.json"), QByteArray::fromStdString(r0.json()));
    test::writeTemp(QStringLiteral("run/rank1.pt.trace.json"), QByteArrayLiteral("not a trace"));
    test::writeTemp(
        QStringLiteral("run/rank2.pt.trace.json"), QByteArray::fromStdString(r2.json()));
    test::writeTemp(QStringLiteral("run/notes.txt"), QByteArrayLiteral("ignored"));
    std::vector<std::string> files;
    std::string error;
    QVERIFY(runFiles({folder.toStdString()}, files, error));
    QCOMPARE(files.size(), size_t(3));
    auto run = openRun(files, {2, {}, nullptr}, error);
    QVERIFY2(run, error.c_str());
    QCOMPARE(run->ranks.size(), size_t(2));
    QCOMPARE(run->ranks[1].rank, 2);
    QCOMPARE(run->failures.size(), size_t(1));
    QVERIFY(run->failures[0].file.ends_with("rank1.pt.trace.json"));
    QVERIFY2(run->failures[0].error.find("rank1.pt.trace.json: byte ") == 0
            || run->failures[0].error.find("rank1.pt.trace.json") != std::string::npos,
        run->failures[0].error.c_str());
    QCOMPARE(run->collectives.collectives.size(), size_t(1));
    QCOMPARE(run->collectives.collectives[0].skew(), 20 * us);
    // Two of the job's three ranks: said, and the skew said to cover them only.
    QVERIFY(run->partial());
    QCOMPARE(run->rankCountText(), std::string("2 of 3 ranks (world_size 3)"));
    QVERIFY(std::any_of(run->warnings.begin(), run->warnings.end(), [](const std::string &w) {
        return w.find("only 2 of 3 ranks (world_size 3): collective skew") == 0;
    }));
    QVERIFY(run->unrelated.empty());

    QVERIFY(!runFiles({folder.toStdString() + "/missing"}, files, error));
    QVERIFY(error.find("no such file or folder") != std::string::npos);
}

void TestRun::exportsFromTheCommandLine()
{
    RankBuilder r0(0, 2), r1(1, 2, 300);
    r0.step(1, 0, 1000).comm(100, 10, "0");
    r1.step(1, 0, 1000).comm(140, 10, "0");
    const QString a
        = test::writeTemp(QStringLiteral("cli0.json"), QByteArray::fromStdString(r0.json()));
    const QString b
        = test::writeTemp(QStringLiteral("cli1.json"), QByteArray::fromStdString(r1.json()));
    const QString bad = test::writeTemp(QStringLiteral("cli2.json"), QByteArrayLiteral("[[["));
    const QString out = test::tempDir() + QStringLiteral("/collectives.json");
    test::ProcessResult r
        = test::run(test::appPath(), {QStringLiteral("--export-collectives"), out, a, b});
    QCOMPARE(r.exitCode, 0);
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonArray rows = QJsonDocument::fromJson(f.readAll()).array();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].toObject().value(QStringLiteral("skew_us")).toDouble(), 40.0);
    QCOMPARE(rows[0].toObject().value(QStringLiteral("last_rank")).toInteger(), 1);
    QCOMPARE(
        rows[0].toObject().value(QStringLiteral("process_group")).toString(), QStringLiteral("0"));

    // A rank that fails: reported by file, the others written, exit code 2.
    r = test::run(
        test::appPath(), {QStringLiteral("--export-ranks"), QStringLiteral("-"), a, bad, b});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("cli2.json"), r.err.constData());
    QCOMPARE(r.out.count('\n'), 3); // header + two ranks
    r = test::run(test::appPath(), {QStringLiteral("--export-rank-pairs"), QStringLiteral("-")});
    QCOMPARE(r.exitCode, 1);

    // One rank of two: written, and stderr says the run is partial.
    r = test::run(test::appPath(), {QStringLiteral("--export-ranks"), QStringLiteral("-"), a});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.contains("only 1 of 2 ranks (world_size 2)"), r.err.constData());

    // A trace of another job, an hour later: not silently one run.
    RankBuilder other(1, 2);
    other.step(1, 3'600'000'000, 1000).comm(3'600'000'100, 10, "0");
    const QString later
        = test::writeTemp(QStringLiteral("cli3.json"), QByteArray::fromStdString(other.json()));
    r = test::run(
        test::appPath(), {QStringLiteral("--export-ranks"), QStringLiteral("-"), a, later});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("do not overlap in time") && r.err.contains("cli0.json")
            && r.err.contains("cli3.json"),
        r.err.constData());
    QVERIFY(r.out.isEmpty());
}

void TestRun::sharedDlrmRanks()
{
    const QString dir = test::sharedTracesDir();
    if (dir.isEmpty())
        QSKIP("../shared/traces is absent (a user's clone has none): the DLRM ranks not checked");
    const std::vector<std::string> files
        = {QDir(dir)
                .filePath(QStringLiteral("param_dlrm_worker1_step_12.1694128201556.pt.trace.json"))
                .toStdString(),
            QDir(dir)
                .filePath(QStringLiteral("param_dlrm_worker0_step_12.1694128201545.pt.trace.json"))
                .toStdString()};
    std::string error;
    auto run = openRun(files, {}, error);
    QVERIFY2(run, error.c_str());
    QCOMPARE(run->ranks.size(), size_t(2));
    QCOMPARE(run->ranks[0].rank, 0);
    QCOMPARE(run->ranks[0].worldSize, 8);
    // Two of the job's eight ranks: the one warning says so.
    QCOMPARE(run->warnings,
        std::vector<std::string> {"only 2 of 8 ranks (world_size 8): collective skew and last "
                                  "arrivers cover these ranks only"});
    QVERIFY(run->unrelated.empty());
    // 8 NCCL kernels on each rank (their --summary's communication_gpu_events): 8 collectives,
    // every one on both ranks.
    QCOMPARE(run->collectives.collectives.size(), size_t(8));
    for (const Collective &c : run->collectives.collectives)
        QCOMPARE(c.kernels.size(), size_t(2));
    // The first SendRecv: rank 1 at epoch 1694128201424306, rank 0 at …429795 (by hand from
    // the files): skew 5489 µs, rank 0 last.
    QCOMPARE(run->collectives.collectives[0].skew(), 5489 * us);
    QCOMPARE(run->ranks[run->collectives.collectives[0].lastRankIndex].rank, 0);
    // Per rank, the run's figures are the single trace's.
    const CellTable ranks = rankTable(run->summaries());
    for (size_t i = 0; i < run->ranks.size(); ++i) {
        const OpenResult single = openTrace(run->ranks[i].file);
        QVERIFY(single.trace);
        const QJsonObject summary = QJsonDocument::fromJson(
            QByteArray::fromStdString(summaryJson(*single.trace->model, *single.trace->graph, 0)))
                                        .object();
        QCOMPARE(
            ranks.text(i, 3), std::to_string(summary.value(QStringLiteral("steps")).toInteger()));
        QCOMPARE(ranks.text(i, 14),
            std::to_string(summary.value(QStringLiteral("fwd_bwd_pairs")).toInteger()));
        const QJsonObject gpu = summary.value(QStringLiteral("gpu_time")).toObject();
        QCOMPARE(ranks.text(i, 4).c_str(),
            qPrintable(
                QString::number(gpu.value(QStringLiteral("computation_us")).toDouble(), 'f', 3)));
        QCOMPARE(ranks.text(i, 9).c_str(),
            qPrintable(QString::number(gpu.value(QStringLiteral("total_us")).toDouble(), 'f', 3)));
    }
}

QTEST_GUILESS_MAIN(TestRun)
#include "tst_run.moc"
