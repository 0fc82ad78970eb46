// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/pathgraph.h"
#include "link/opgraph.h"

#include <functional>
#include <string_view>
#include <vector>

namespace ks {

//! Whether an event's name is one of a kind (the user's data-loading events).
using NameTest = std::function<bool(std::string_view name)>;

//! Which events the graph holds: HTA's clip of one annotation instance.
struct PathWindow {
    TimeNs start = 0;
    TimeNs end = 0;
    //! Events starting at or after it are left out (HTA's last-step cut); no cut by default.
    TimeNs cutoff = std::numeric_limits<TimeNs>::max();

    //! A host event (or a sync event off the streams) is in the window: it starts in it, before
    //! the cut, and lasts (HTA keeps events with dur > 0 only).
    bool holds(const SliceTable &s, SliceId id) const
    {
        return s.dur[id] > 0 && s.start[id] >= start && s.start[id] <= end && s.start[id] < cutoff;
    }
};

/*!
 * HTA's lightweight critical-path graph of one trace over a window (docs/critical-path.md): one
 * node at the start and one at the end of every host op, runtime call and GPU event in it; edges
 * for their durations, their nesting, top-level ops in order on each thread (the backward thread
 * merged into the forward one), the runtime lock shared by launch calls, launch delays when the
 * stream is idle, kernel-to-kernel gaps under 1.5 ms, and syncs (context, stream, event, stream
 * wait event). Built once, then only read.
 */
class CriticalGraph : public PathGraph {
public:
    /*!
     * \a dataLoading: host events whose names it accepts are data loading (HTA's
     * data_load_events): nodes whatever their category, their own time `data_loading`.
     * \a assumeStreamOrder: each GPU event also waits for the GPU work launched before it on
     * another stream of its device, where that ended before it began (`--assume-stream-order`).
     */
    CriticalGraph(const OpGraph &graph,
        const PathWindow &window,
        const NameTest &dataLoading = {},
        bool assumeStreamOrder = false);

    const OpGraph &graph() const { return m_graph; }
    //! Whether \a event is one of the data-loading events.
    bool isDataLoading(SliceId event) const;
    uint32_t startNode(SliceId event) const override;
    uint32_t endNode(SliceId event) const override;
    std::string_view eventName(SliceId event) const override;
    PathBound spanBound(SliceId event) const override;
    std::vector<RowSide> rowSides(const std::vector<SliceId> &events) const override;
    size_t rowCount() const override;
    std::string_view pairName(int row) const override;

    // Used by the builders (criticalgraph.cpp, criticalgpu.cpp).
    void addEdge(uint32_t from, uint32_t to, PathEdgeKind kind, SliceId charged, bool zero = false);
    //! A dependency HTA leaves out, walked by the step model only (PathDag::stepEdges()).
    void addStepEdge(uint32_t from, uint32_t to, PathEdgeKind kind, SliceId charged);

private:
    void addNodes(const std::vector<SliceId> &events);
    void addRuntimeLockEdges();
    void addCallStackEdges(const std::vector<SliceId> &hostEvents);

    const OpGraph &m_graph;
    std::vector<uint32_t> m_nodeOfSlice; //!< per slice: its start node
    std::vector<uint32_t> m_endOfSlice;
    std::vector<SliceId> m_dataLoading; //!< sorted
};

/*!
 * The GPU half of the graph (criticalgpu.cpp): GPU events' spans, launch and kernel-to-kernel
 * edges, and the edges of syncs, over \a gpuEvents (GPU work whose launch is in the window);
 * with \a assumeStreamOrder, edges across a device's streams in launch order.
 */
void addGpuEdges(CriticalGraph &cg,
    const std::vector<SliceId> &gpuEvents,
    const PathWindow &w,
    bool assumeStreamOrder);

//! A call whose exit waits for the GPU: its time is no one's work (HTA's BLOCKING_SYNC_CALLS).
bool isBlockingSyncCall(std::string_view name);

} // namespace ks
