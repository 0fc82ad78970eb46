// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/ranks/runranks.h"

#include <string>
#include <string_view>
#include <vector>

namespace ks {

//! A communication (NCCL/RCCL) kernel of one trace.
struct CommKernel {
    SliceId slice;
    TimeNs start;
    const GpuInfo *info; //!< null when the kernel has no GPU args
};

//! The communication kernels of \a graph's trace in start order: what collectives are made of.
std::vector<CommKernel> communicationKernels(const OpGraph &graph);

/*!
 * A communication kernel as the matching reads it: from a trace (commRecords()) or from a rank's
 * database (`collective_kernels`). Empty strings: not recorded.
 */
struct CommRecord {
    SliceId slice = kNoSlice; //!< in its trace's model (a database keeps it: `event`)
    TimeNs start = 0; //!< ns on its file's clock
    TimeNs dur = 0;
    std::string name; //!< the kernel's
    std::string collective; //!< `Collective name`
    std::string processGroup; //!< `Process Group Name`
    std::string commsId; //!< `Comms Id` as written
    int64_t seq = kNoValue; //!< `Seq`
};
//! The communication kernels of \a graph's trace as records, in start order.
std::vector<CommRecord> commRecords(const OpGraph &graph);

//! One rank's communication kernels and where its clock sits on the run's.
struct RankComms {
    int rank = 0; //!< its rank number
    TimeNs clockOffset = 0; //!< RankTrace::clockOffset
    std::vector<CommRecord> kernels; //!< in start order
};

//! One rank's kernel of a matched collective.
struct CollectiveKernel {
    uint32_t rankIndex = 0; //!< index into the ranks matched
    SliceId kernel = kNoSlice; //!< in that rank's model
    TimeNs start = 0; //!< run clock (ns from the common zero)
    TimeNs dur = 0;
};

//! How the kernels of a collective were found on the ranks (`matched_by` of the export).
enum class MatchedBy : uint8_t {
    CommsId, //!< the same `Comms Id` (kineto#1286, 2026)
    GroupSeq, //!< the same `Process Group Name` and `Seq` (kineto#1296)
    Order, //!< the k-th kernel (of a process group when every kernel names one)
};
//! "comms_id", "group_seq", "order".
std::string_view matchedByName(MatchedBy by);

//! A collective as every rank ran it: one communication kernel per rank that has it.
struct Collective {
    std::string name; //!< `Collective name` ("allreduce"), else the kernel name
    std::string processGroup; //!< `Process Group Name`, empty when not recorded
    uint32_t ordinal = 0; //!< position within its process group (or among all, by order)
    std::string commsId; //!< `Comms Id` as written, empty when the kernels carry none
    int64_t seq = kNoValue; //!< `Seq`, kNoValue when the kernels carry none
    MatchedBy matchedBy = MatchedBy::Order;
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
 * - When every communication kernel of every rank carries a `Comms Id` (a hash of process
 *   group, sequence number, P2P flag and ranks; Kineto since 2026), a collective is the set of
 *   kernels with one `Comms Id`;
 * - else when every one names its process group and carries `Seq`, the kernels with one
 *   (group, Seq);
 * - else (older traces) by order: when every kernel names its process group, the k-th kernel of
 *   group G on each rank is collective (G, k); otherwise the k-th communication kernel of each
 *   rank is collective k. Kernels are taken in start order on each rank.
 * By identity, a rank that lost a record misses that one collective only; by order, it shifts
 * every later match, so order-based matching warns, naming the collectives, where a rank's wait
 * for the last arriver exceeds its own kernel's duration (the kernels did not overlap: they
 * cannot be one collective) or where kernel names differ across ranks. Where ranks hold
 * different numbers of kernels (of a group), a warning names the ranks and their counts.
 * Collectives are listed by their first start on the run clock.
 */
struct CollectiveMatch {
    MatchedBy by = MatchedBy::Order;
    bool byProcessGroup = false; //!< by order within process groups
    std::vector<Collective> collectives;
    std::vector<std::string> warnings;
};

//! The same over kernels however they were read (a run from databases), by rank index.
CollectiveMatch matchCollectives(const std::vector<RankComms> &ranks);

} // namespace ks
