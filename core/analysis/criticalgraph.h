// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/pathdag.h"
#include "link/opgraph.h"

#include <functional>
#include <string_view>
#include <vector>

namespace ks {

//! Whether an event's name is one of a kind (the user's data-loading events).
using NameTest = std::function<bool(std::string_view name)>;

//! The start or the end of an event in the window: a point in time.
struct PathNode {
    SliceId event = kNoSlice;
    TimeNs time = 0;
    bool start = false;
};

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
class CriticalGraph {
public:
    /*!
     * \a dataLoading: host events whose names it accepts are data loading (HTA's
     * data_load_events): nodes whatever their category, their own time `data_loading`.
     */
    CriticalGraph(const OpGraph &graph, const PathWindow &window, const NameTest &dataLoading = {});

    const OpGraph &graph() const { return m_graph; }
    const std::vector<PathNode> &nodes() const { return m_nodes; }
    //! The edges between the nodes, HTA's weights on them.
    const PathDag &dag() const { return m_dag; }
    //! Whether \a event is one of the data-loading events.
    bool isDataLoading(SliceId event) const;
    //! Start and end node of \a event, or ~0u when it is not in the graph.
    uint32_t startNode(SliceId event) const;
    uint32_t endNode(SliceId event) const;

    // Used by the builders (criticalgraph.cpp, criticalgpu.cpp).
    void addEdge(uint32_t from, uint32_t to, PathEdgeKind kind, SliceId charged, bool zero = false);
    void addCausalityEdge(uint32_t from, uint32_t to);

private:
    void addNodes(const std::vector<SliceId> &events);
    void addRuntimeLockEdges();
    void addCallStackEdges(const std::vector<SliceId> &hostEvents);

    const OpGraph &m_graph;
    std::vector<PathNode> m_nodes;
    PathDag m_dag;
    std::vector<uint32_t> m_nodeOfSlice; //!< per slice: its start node
    std::vector<uint32_t> m_endOfSlice;
    std::vector<SliceId> m_dataLoading; //!< sorted
};

/*!
 * The GPU half of the graph (criticalgpu.cpp): GPU events' spans, launch and kernel-to-kernel
 * edges, and the edges of syncs, over \a gpuEvents (GPU work whose launch is in the window).
 */
void addGpuEdges(CriticalGraph &cg, const std::vector<SliceId> &gpuEvents, const PathWindow &w);

//! A call whose exit waits for the GPU: its time is no one's work (HTA's BLOCKING_SYNC_CALLS).
bool isBlockingSyncCall(std::string_view name);

} // namespace ks
