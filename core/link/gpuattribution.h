// SPDX-License-Identifier: MIT
#pragma once

#include "link/linktypes.h"

#include <span>
#include <vector>

namespace ks {

/*!
 * GPU work → the runtime call that launched it → the host op around that call (docs/linking.md,
 * steps 4 and 5), with the GPU events of any host subtree one binary search away.
 */
class GpuAttribution {
public:
    struct Stats {
        uint64_t gpuEvents = 0;
        uint64_t withLaunch = 0;
        uint64_t attributed = 0; //!< launching host op found
        uint64_t communication = 0;
    };

    explicit GpuAttribution(const TraceModel &model);

    const Stats &stats() const { return m_stats; }
    //! All GPU work events (kernels, memcpys, memsets), in slice order.
    const std::vector<SliceId> &gpuEvents() const { return m_gpuEvents; }
    const std::vector<SliceId> &launches() const { return m_launch; }
    //! Index of \a gpuEvent in gpuEvents(), or -1.
    int indexOf(SliceId gpuEvent) const;
    SliceId launchOf(SliceId gpuEvent) const;
    SliceId launchingOp(SliceId gpuEvent) const;
    //! GPU events launched from inside \a slice's subtree (its own launches included).
    std::span<const SliceId> eventsUnder(SliceId slice) const;
    GpuTotals totalsUnder(SliceId slice) const;

private:
    const TraceModel &m_model;
    Stats m_stats;
    std::vector<SliceId> m_gpuEvents;
    std::vector<SliceId> m_launch; //!< parallel to m_gpuEvents
    std::vector<SliceId> m_launchingOp; //!< parallel to m_gpuEvents
    // GPU events sorted by launch slice, with prefix sums, for subtree queries.
    std::vector<SliceId> m_launchSorted;
    std::vector<SliceId> m_gpuByLaunch;
    std::vector<TimeNs> m_prefixTime;
};

} // namespace ks
