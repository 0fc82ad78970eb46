// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/curvetracks.h"
#include "analysis/gputime.h"
#include "analysis/memoryindex.h"
#include "analysis/moduletree.h"
#include "analysis/timelineindex.h"
#include "export/pairgroups.h"
#include "export/pairtable.h"
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
    //! The pair table (with pairMemory()'s columns), built on first use (any thread).
    std::shared_ptr<const PairTable> pairTable() const;
    //! The pair table by op + input dims, built on first use (any thread).
    std::shared_ptr<const PairGroupTable> pairGroups() const;
    //! One row per GPU event, built on first use (any thread).
    std::shared_ptr<const KernelTable> kernelTable() const;
    /*!
     * Builds everything a window's first frame of this trace needs — the drawing index, the
     * curves, the pair memory and the pair, group and kernel tables — so that the UI thread only
     * draws. The window's trace and run loaders call it on their threads; it throws
     * std::bad_alloc when memory runs out (readyForWindow() turns that into a failure).
     */
    void prepareForWindow() const;

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
    void buildTables() const;
    mutable std::once_flag m_tablesBuilt;
    mutable std::shared_ptr<const PairTable> m_pairTable;
    mutable std::shared_ptr<const PairGroupTable> m_pairGroups;
    mutable std::shared_ptr<const KernelTable> m_kernelTable;
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

/*!
 * Links a trace \a loaded (on the calling thread): the graph of every op, its pairs and its GPU
 * work. Out of memory gives the failure of outOfMemoryAfterLoad(), never an exception.
 */
OpenResult linkTrace(LoadResult loaded);
/*!
 * Calls LoadedTrace::prepareForWindow() on \a opened's trace, if any: out of memory gives "FILE:
 * byte N: not enough memory to display this trace" instead of the trace.
 */
OpenResult readyForWindow(OpenResult opened);

//! Loads and links \a path (everything headless commands need).
OpenResult openTrace(const std::string &path, const LoadOptions &options = {});
//! The same for text in memory (see loadTraceText()).
OpenResult openTraceText(
    std::string_view text, const std::string &name, bool builderThread = false);

} // namespace ks
