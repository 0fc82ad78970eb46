// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"

#include <string_view>
#include <utility>
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
//! HTA's edge type without its "critical_path_" prefix: "operator", "dependency", "launch_delay",
//! "kernel_kernel_delay", "sync_dependency".
std::string_view pathEdgeKindName(PathEdgeKind kind);

//! 24 bytes, in this order: a thousand ranks' graphs are held at once.
struct PathEdge {
    uint32_t from = 0; //!< node indices
    uint32_t to = 0;
    TimeNs weight = 0; //!< ns; never negative (HTA clamps −1 µs and below to 0)
    //! The event whose time this is, as HTA attributes it (kNoSlice where HTA attributes none).
    SliceId charged = kNoSlice;
    PathEdgeKind kind = PathEdgeKind::Dependency;
};

//! The longest paths to every node of a PathDag.
struct PathDistances {
    std::vector<TimeNs> to; //!< longest path ending at each node
    std::vector<uint32_t> via; //!< the edge it arrives by, ~0u: none
    uint32_t last = 0; //!< the node where the longest path ends
};

/*!
 * The weighted DAG the critical path walks: edges between points in time, incoming edges by node
 * and a topological order. HTA's edges, and the dependencies HTA leaves out (every launch → its GPU
 * event, every GPU event → the next on its stream, a blocking copy ← its GPU copy), which only the
 * step model walks (docs/critical-path.md).
 */
class PathDag {
public:
    explicit PathDag(size_t nodeCount = 0)
        : m_nodeCount(nodeCount)
    {
    }
    //! With these edges, as add() and addStepEdge() would add them one by one.
    PathDag(size_t nodeCount, std::vector<PathEdge> edges, std::vector<PathEdge> stepEdges)
        : m_nodeCount(nodeCount)
        , m_edges(std::move(edges))
        , m_step(std::move(stepEdges))
    {
        m_edges.shrink_to_fit();
        m_step.shrink_to_fit();
    }

    size_t nodeCount() const { return m_nodeCount; }
    const std::vector<PathEdge> &edges() const { return m_edges; }
    //! The dependencies HTA's graph leaves out.
    const std::vector<PathEdge> &stepEdges() const { return m_step; }
    void reserve(size_t edges, size_t stepEdges)
    {
        m_edges.reserve(edges);
        m_step.reserve(stepEdges);
    }
    void add(const PathEdge &e) { m_edges.push_back(e); }
    void addStepEdge(const PathEdge &e) { m_step.push_back(e); }
    //! Orders the nodes and, unless \a walked is false (longest() is never called), indexes the
    //! incoming edges; call once, after the last add.
    void finish(bool walked = true);

    //! False when the edges hold a cycle (HTA#113: stacks out of order); no path then.
    bool acyclic() const { return m_acyclic; }
    //! Whether finish() indexed it (and releaseIndex() did not undo it): it can be walked.
    bool indexed() const { return m_inBegin.size() == m_nodeCount + 1; }
    //! Frees the index of a graph walked only as part of another (JoinedGraph): a thousand
    //! ranks' graphs are held at once. acyclic() stays.
    void releaseIndex();
    //! Frees the edges too, once copied into another graph (JoinedGraph).
    void releaseEdges()
    {
        releaseIndex();
        std::vector<PathEdge>().swap(m_edges);
        std::vector<PathEdge>().swap(m_step);
    }
    //! The nodes in an order every edge (HTA's and the step model's) keeps.
    const std::vector<uint32_t> &order() const { return m_order; }
    //! Longest paths through HTA's edges by \a weights (one per edge); finish()ed walked. Like
    //! networkx's dag_longest_path, which HTA calls: the first best predecessor, end node.
    PathDistances longest(const std::vector<TimeNs> &weights) const;
    //! The edges of the longest path ending at \a d.last, in order (indices as in d.via).
    std::vector<uint32_t> walkBack(const PathDistances &d) const;

private:
    //! Incoming edges by node (CSR).
    void indexIncoming();
    //! A topological order that the step model's edges keep too.
    void orderNodes();

    size_t m_nodeCount = 0;
    std::vector<PathEdge> m_edges;
    std::vector<PathEdge> m_step;
    bool m_acyclic = true;
    std::vector<uint32_t> m_order;
    std::vector<uint32_t> m_incoming; //!< CSR: incoming(n) = [m_inBegin[n], m_inBegin[n+1])
    std::vector<uint32_t> m_inBegin;
};

} // namespace ks
