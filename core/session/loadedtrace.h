// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/curvetracks.h"
#include "analysis/gputime.h"
#include "analysis/memoryindex.h"
#include "analysis/moduletree.h"
#include "analysis/timelineindex.h"
#include "link/opgraph.h"
#include "load/tracereader.h"

#include <memory>
#include <mutex>

namespace ks {

/*!
 * A trace as the application uses it: the frozen model and its linked op graph, built
 * together and shared read-only between the views (and threads).
 */
struct LoadedTrace {
    std::unique_ptr<TraceModel> model;
    std::unique_ptr<OpGraph> graph;
    double seconds = 0; //!< load + link wall time

    /*!
     * Where the time goes, by nn.Module (or scope). Built on first use, from any thread (others
     * wait for it): the first frame does not need it, so the window builds it in the background.
     */
    const ModuleTree &modules() const;
    //! gpuTimeBreakdown() of the graph, worked out on first use (any thread).
    const GpuTimeBreakdown &gpuTime() const;
    /*!
     * What the timeline draws from. Built on first use, from any thread (others wait): the
     * window's loader builds it on its thread, headless exports never need it.
     */
    const TimelineIndex &timelineIndex() const;
    //! The memory events tied to the op graph, built on first use (any thread) for all views.
    const MemoryIndex &memory() const;
    //! pairMemory() of memory(), built once (empty when the trace has no memory events).
    const std::vector<PairMemory> &pairMemory() const;
    //! The timeline's memory and counter curves, built on first use like timelineIndex().
    const TraceCurves &curves() const;

private:
    mutable std::once_flag m_modulesBuilt;
    mutable std::unique_ptr<ModuleTree> m_modules;
    mutable std::once_flag m_gpuTimeWorkedOut;
    mutable GpuTimeBreakdown m_gpuTime;
    mutable std::once_flag m_indexBuilt;
    mutable std::unique_ptr<TimelineIndex> m_index;
    mutable std::once_flag m_memoryBuilt;
    mutable std::unique_ptr<MemoryIndex> m_memory;
    mutable std::once_flag m_pairMemoryBuilt;
    mutable std::vector<PairMemory> m_pairMemory;
    mutable std::once_flag m_curvesBuilt;
    mutable std::unique_ptr<TraceCurves> m_curves;
};

struct OpenResult {
    LoadResult::Status status = LoadResult::Status::Failed;
    std::shared_ptr<const LoadedTrace> trace;
    std::string error;
};

/*!
 * A load that failed after its model was read, for want of memory to \a task it: "FILE: byte N:
 * not enough memory to TASK this trace".
 */
OpenResult outOfMemoryAfterLoad(const TraceModel &model, std::string_view task);

//! Loads and links \a path (everything before the first frame).
OpenResult openTrace(const std::string &path, const LoadOptions &options = {});
//! The same for text in memory (see loadTraceText()).
OpenResult openTraceText(
    std::string_view text, const std::string &name, bool builderThread = false);

} // namespace ks
