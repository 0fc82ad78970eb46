// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"

#include <vector>

namespace ks {

class CriticalPathAnalysis;

//! A stretch of the path on one event's row, in its rank's model times.
struct ChainStep {
    SliceId event = kNoSlice;
    TimeNs start = 0;
    TimeNs end = 0;
    //! The path comes to it straight from the rank's previous step (not from another rank).
    bool fromPrevious = false;
};

//! Where the path passes from one rank to the next: at a collective, from its last arriver.
struct RankHop {
    uint32_t fromRank = 0; //!< rank indices
    SliceId from = kNoSlice; //!< the event the path leaves (the last arriver's kernel)
    TimeNs fromTime = 0; //!< in its rank's model times
    uint32_t toRank = 0;
    SliceId to = kNoSlice; //!< the event it enters
    TimeNs toTime = 0; //!< in the to rank's model times
};

/*!
 * The path as it is drawn (HTA's overlaid trace draws its edges as flows): per rank, the
 * stretches of its events on the path in path order, a segment's neighbours on one event merged;
 * and the hops between ranks. A launch delay is drawn on its GPU event's row, in the wait before
 * it.
 */
struct PathChain {
    std::vector<std::vector<ChainStep>> steps; //!< by rank index
    std::vector<RankHop> hops;
};

PathChain pathChain(const CriticalPathAnalysis &analysis);

} // namespace ks
