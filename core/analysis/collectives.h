// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/runranks.h"

#include <string>
#include <vector>

namespace ks {

//! One rank's kernel of a matched collective.
struct CollectiveKernel {
    uint32_t rankIndex = 0; //!< index into the RankTraces matched
    SliceId kernel = kNoSlice; //!< in that rank's model
    TimeNs start = 0; //!< run clock (ns from the common zero)
    TimeNs dur = 0;
};

//! A collective as every rank ran it: one communication kernel per rank that has it.
struct Collective {
    std::string name; //!< `Collective name` ("allreduce"), else the kernel name
    std::string processGroup; //!< `Process Group Name`, empty when not recorded
    uint32_t ordinal = 0; //!< position within its process group (or among all, by order)
    std::vector<CollectiveKernel> kernels; //!< by rank index
    TimeNs firstStart = 0;
    TimeNs lastStart = 0; //!< the start of the last arriver: everyone else waits for it
    uint32_t lastRankIndex = 0; //!< rank index of the last arriver (the lowest on a tie)
    TimeNs minDur = 0;
    TimeNs maxDur = 0;

    TimeNs skew() const { return lastStart - firstStart; }
    //! How long \a k's rank waited for the last arriver.
    TimeNs wait(const CollectiveKernel &k) const { return lastStart - k.start; }
};

/*!
 * The communication kernels (NCCL/RCCL) of every rank, matched into collectives.
 *
 * - When every communication kernel of every rank names its process group (`Process Group
 *   Name`, PyTorch 2.x), the k-th kernel of group G on each rank is collective (G, k).
 * - Otherwise (older traces have only the kernel name), the k-th communication kernel of each
 *   rank is collective k.
 * Kernels are taken in start order on each rank. Where ranks hold different numbers of kernels
 * (of a group), the later collectives lack the ranks that ran out: a warning names the ranks
 * and their counts. A warning also counts positions whose kernel names differ across ranks, a
 * sign that the order-based matching is off (a rank that skipped or added a collective).
 * Collectives are listed by their first start on the run clock.
 */
struct CollectiveMatch {
    bool byProcessGroup = false;
    std::vector<Collective> collectives;
    std::vector<std::string> warnings;
};

CollectiveMatch matchCollectives(const RankTraces &ranks);

} // namespace ks
