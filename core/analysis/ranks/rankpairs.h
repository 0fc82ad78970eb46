// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opefficiency.h"
#include "analysis/modules/moduletree.h"
#include "analysis/ranks/runranks.h"
#include "base/stringpool.h"

#include <atomic>
#include <string>
#include <vector>

namespace ks {

/*!
 * One rank's pair rows as a run matches them and its table shows them, in time order
 * (OpGraph::rows()): read from the rank's graph (rankPairRows()) or from its database.
 */
struct RankPairRows {
    std::vector<int64_t> step; //!< ProfilerStep number, kNoValue outside any step
    std::vector<StringId> key; //!< pairKeys()' structural key, in the run's pool of keys
    std::vector<StringId> opKey; //!< its op key, in the same pool
    std::vector<uint8_t> hasForward; //!< its forward op is in the trace
    std::vector<TimeNs> forwardGpu; //!< PairRow::forwardGpu.time, ns
    std::vector<TimeNs> backwardGpu; //!< PairRow::backwardGpu.time, ns
    std::vector<double> forwardTflops; //!< its pair roll-up's TFLOP/s, NaN where none
    std::vector<double> backwardTflops;
    //! The rank's GPU work is missing (RankSummary::gpuUnknown): its GPU times are unknown, not 0.
    bool gpuUnknown = false;

    size_t size() const { return step.size(); }
};

/*!
 * \a rows, keyed in \a from, keyed in \a to instead: ranks keyed side by side, each in a pool of
 * its own, are keyed in the run's one pool this way.
 */
void rekeyPairRows(RankPairRows &rows, const StringPool &from, StringPool &to);

/*!
 * The pair rows of \a modules' graph, keyed in \a keys; \a efficiency gives their rates (null:
 * none).
 */
RankPairRows rankPairRows(
    const ModuleTree &modules, const OpEfficiency *efficiency, StringPool &keys);

//! One op pair as every rank ran it.
struct RankPair {
    //! The pair row on each rank (index into RankTraces), -1 where that rank has no match.
    std::vector<int64_t> rows;
    //! GPU time of the forward op / backward nodes on each rank (PairRow::forwardGpu.time,
    //! backwardGpu.time), ns; 0 where the rank has no match.
    std::vector<TimeNs> forwardGpu;
    std::vector<TimeNs> backwardGpu;
    uint32_t ranksPresent = 0;
    //! Ranks present whose GPU times are known (RankPairRows::gpuUnknown): those compared.
    uint32_t ranksTimed = 0;
    TimeNs backwardSpread = 0; //!< max − min of backwardGpu over the ranks timed
    uint32_t slowestRankIndex = 0; //!< the timed rank with the largest backward GPU time
                                   //!< (the lowest on a tie)
};

/*!
 * The op pairs of every rank matched structurally, as the two-trace comparison matches them
 * (TraceDiff, step by position: step-relative order, module path, forward name, input dims,
 * backward node names): each rank is compared with the first rank, and a row of the first rank
 * is the same pair as the rows matched with it (DiffStatus::Matched only). There is one
 * RankPair per pair row of the first rank, in its order; rows of the other ranks that match
 * no row of the first rank are counted in unmatchedRows.
 */
struct RankPairs {
    std::vector<RankPair> pairs;
    std::vector<uint64_t> unmatchedRows; //!< per rank index
    std::vector<RankPairRows> ranks; //!< what was matched, per rank index
    //! Pairs of the first rank that some other rank has (what "matched across ranks" counts).
    size_t matchedOnAnother() const;
    //! Pairs of the first rank that every rank has.
    size_t matchedOnEvery(size_t ranks) const;
};

/*!
 * Matches ranks' rows already read (keyed in one pool), by rank index. \a threads: comparisons
 * run at once (each rank is compared with the first independently). Once \a cancel is set,
 * ranks not yet compared are left unmatched.
 */
RankPairs matchRankPairs(std::vector<RankPairRows> ranks,
    unsigned threads = 1,
    const std::atomic<bool> *cancel = nullptr);

} // namespace ks
