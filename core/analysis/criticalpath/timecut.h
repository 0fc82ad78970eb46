// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/joinedgraph.h"

#include <functional>
#include <vector>

namespace ks {

/*!
 * Host time cut out of the threads for a what-if ("no time: NAME", "no recompute"): the stretches
 * of the events a test accepts, with every gap inside them, as if their thread ran on without
 * them. Per node of the joined graph, how much earlier it runs: the time cut on its thread from
 * its rank's window start to it; per edge (HTA's, then the step model's), the time cut between
 * its ends where both are on one host thread. GPU work is not cut: it keeps its launch delays.
 */
struct TimeCut {
    std::vector<TimeNs> node;
    std::vector<TimeNs> edge;
};

/*!
 * The cut of the host events \a cut accepts (by rank index and slice) in \a joined, whose ranks'
 * models are \a models and windows start at \a windowStarts (model times).
 */
TimeCut cutTime(const JoinedGraph &joined,
    const std::vector<const TraceModel *> &models,
    const std::vector<TimeNs> &windowStarts,
    const std::function<bool(uint32_t rank, SliceId event)> &cut);

} // namespace ks
