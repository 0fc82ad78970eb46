// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"

#include <vector>

namespace ks {

/*!
 * How an edge of the critical-path graph takes time: HTA's CPEdgeType
 * (facebookresearch/HolisticTraceAnalysis f4d0062, hta/analyzers/critical_path_analysis.py:86).
 */
enum class PathEdgeKind : uint8_t {
    Span, //!< inside one op, runtime call or GPU event (critical_path_operator)
    Dependency, //!< nesting, one top-level op after another, the runtime lock: no time
    LaunchDelay, //!< a launch call's start to its GPU event's start, the stream being idle
    KernelKernel, //!< one GPU event's end to the next one's start on the same stream
    Sync, //!< GPU work a sync call or a later GPU event waits for: no time
};

//! The start or the end of an event in the window: a point in time.
struct PathNode {
    SliceId event = kNoSlice;
    TimeNs time = 0;
    bool start = false;
};

struct PathEdge {
    uint32_t from = 0; //!< node indices
    uint32_t to = 0;
    PathEdgeKind kind = PathEdgeKind::Dependency;
    TimeNs weight = 0; //!< ns; never negative (HTA clamps −1 µs and below to 0)
    //! The event whose time this is, as HTA attributes it (kNoSlice where HTA attributes none).
    SliceId charged = kNoSlice;
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
    CriticalGraph(const OpGraph &graph, const PathWindow &window);

    const OpGraph &graph() const { return m_graph; }
    const std::vector<PathNode> &nodes() const { return m_nodes; }
    const std::vector<PathEdge> &edges() const { return m_edges; }
    //! Node indices in an order where every edge goes forward.
    const std::vector<uint32_t> &topologicalOrder() const { return m_order; }
    //! Edge indices into each node, node by node (CSR: incoming(n) = [inBegin[n], inBegin[n+1])).
    const std::vector<uint32_t> &incomingEdges() const { return m_incoming; }
    const std::vector<uint32_t> &incomingBegin() const { return m_inBegin; }
    //! Start and end node of \a event, or ~0u when it is not in the graph.
    uint32_t startNode(SliceId event) const;
    uint32_t endNode(SliceId event) const;
    //! Zero-weight edges from each launch call to its GPU event where none with time exists, so
    //! that a what-if cannot start a GPU event before its launch (HTA's simulation edges).
    const std::vector<PathEdge> &causalityEdges() const { return m_causality; }
    //! False when the edges hold a cycle (HTA#113: stacks out of order); no path then.
    bool acyclic() const { return m_order.size() == m_nodes.size(); }

    // Used by the builders (criticalgraph.cpp, criticalgpu.cpp).
    void addEdge(uint32_t from, uint32_t to, PathEdgeKind kind, SliceId charged, bool zero = false);
    void addCausalityEdge(uint32_t from, uint32_t to);

private:
    void addNodes(const std::vector<SliceId> &events);
    void addRuntimeLockEdges();
    void addCallStackEdges(const std::vector<SliceId> &hostEvents);
    void finish();

    const OpGraph &m_graph;
    std::vector<PathNode> m_nodes;
    std::vector<PathEdge> m_edges;
    std::vector<PathEdge> m_causality;
    std::vector<uint32_t> m_nodeOfSlice; //!< per slice: its start node (end is the paired one)
    std::vector<uint32_t> m_endOfSlice;
    std::vector<uint32_t> m_order;
    std::vector<uint32_t> m_incoming;
    std::vector<uint32_t> m_inBegin;
};

/*!
 * The GPU half of the graph (criticalgpu.cpp): GPU events' spans, launch and kernel-to-kernel
 * edges, and the edges of syncs, over \a gpuEvents (GPU work whose launch is in the window).
 */
void addGpuEdges(CriticalGraph &cg, const std::vector<SliceId> &gpuEvents, const PathWindow &w);

//! A call whose exit waits for the GPU: its time is no one's work (HTA's BLOCKING_SYNC_CALLS).
bool isBlockingSyncCall(std::string_view name);

} // namespace ks
