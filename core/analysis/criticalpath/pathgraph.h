// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/pathdag.h"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace ks {

//! What bounds a stretch of the path: HTA's BoundType, in its names (pathBoundName()).
enum class PathBound : uint8_t {
    Cpu, //!< cpu_bound
    GpuCompute, //!< gpu_compute_bound (kernels, memcpys, memsets)
    GpuCommunication, //!< gpu_communication_bound (NCCL/RCCL kernels)
    KernelKernel, //!< gpu_kernel_kernel_overhead (gaps between GPU events on a stream)
    Launch, //!< gpu_kernel_launch_overhead (launch to start on an idle stream)
    DataLoading, //!< data_loading (HTA only with user patterns; never by default)
    // The step model's classes for time no recorded work fills (docs/critical-path.md).
    Idle, //!< idle: the thread or stream waits on nothing in the trace
    LateStart, //!< late_start: the rank began the step after the earliest rank
    SyncWait, //!< sync_wait: a blocking call waiting for the GPU
    None, //!< edges that take no time
};
constexpr size_t kPathBounds = 9;
std::string_view pathBoundName(PathBound bound);

//! Longer gaps between two GPU events on a stream are not a kernel-to-kernel delay (HTA:
//! KERNEL_KERNEL_DELAY_THRESHOLD_US, critical_path_analysis.py:45); the step model calls longer
//! waits of GPU work idle.
constexpr TimeNs kKernelKernelThreshold = 1'500'000;

/*!
 * Which path is asked for (`--critical-path-model`): HTA's longest path by weight, where idle time
 * weighs nothing, or the step model, whose path accounts for every microsecond of the step.
 */
enum class PathModel : uint8_t { Step, Hta };
std::string_view pathModelName(PathModel model);

//! The start or the end of an event in the window: a point in time (16 bytes, in this order).
struct PathNode {
    SliceId event = kNoSlice;
    bool start = false;
    TimeNs time = 0;
};

//! A pair row (-1: none) and a side (forward, backward, …, communication): whose work it is.
using RowSide = std::pair<int, std::string_view>;

/*!
 * One rank's critical-path graph as the path across ranks reads it: the nodes and edges, and what
 * each event they name is in the user's terms. Built from a trace (CriticalGraph) or read back
 * from a rank's database (StoredPathGraph); the path is the same from either.
 */
class PathGraph {
public:
    virtual ~PathGraph() = default;

    const std::vector<PathNode> &nodes() const { return m_nodes; }
    //! The edges between the nodes, HTA's weights on them.
    const PathDag &dag() const { return m_dag; }
    //! Frees the edges of a graph walked only joined to others (a run from databases): a
    //! thousand ranks' graphs are held at once. Its nodes and events stay.
    void releaseEdges() { m_dag.releaseEdges(); }
    //! Start and end node of \a event, or ~0u when it is not in the graph.
    virtual uint32_t startNode(SliceId event) const = 0;
    virtual uint32_t endNode(SliceId event) const = 0;

    virtual std::string_view eventName(SliceId event) const = 0;
    //! What bounds the time of a span edge charged to \a event (never None).
    virtual PathBound spanBound(SliceId event) const = 0;
    //! The pair row and side of each of \a events (a GPU event: of its launch), in order.
    virtual std::vector<RowSide> rowSides(const std::vector<SliceId> &events) const = 0;
    //! How many pair rows the rank has (`--export-pairs`' rows), and a row's forward op name.
    virtual size_t rowCount() const = 0;
    virtual std::string_view pairName(int row) const = 0;

protected:
    std::vector<PathNode> m_nodes;
    PathDag m_dag;
};

} // namespace ks
