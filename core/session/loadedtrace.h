// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opefficiency.h"
#include "analysis/findings/findings.h"
#include "analysis/health/tracecheck.h"
#include "analysis/memory/livememory.h"
#include "analysis/modules/moduletree.h"
#include "analysis/time/gputime.h"
#include "analysis/timeline/curvetracks.h"
#include "analysis/timeline/timelineindex.h"
#include "export/pairgroups.h"
#include "export/pairtable.h"
#include "link/opgraph.h"
#include "load/tracereader.h"

#include <memory>
#include <mutex>

namespace ks {

//! How a window shows a trace: what must be ready before its first frame.
enum class WindowUse {
    Tab, //!< a trace's own tab: its timeline and the pair, group and kernel tables
    Timeline, //!< a timeline among others (a run's rank, a comparison's side)
};

/*!
 * A trace as the application uses it: the frozen model and its linked op graph, built
 * together and shared read-only between the views (and threads). Always held by a shared_ptr
 * (openTrace() makes it so): the tables it hands out keep it alive.
 */
struct LoadedTrace : std::enable_shared_from_this<LoadedTrace> {
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
    //! What is alive when, and the peaks' composition (peaks()), worked out on first use.
    const LiveMemory &liveMemory() const;
    const std::vector<PeakComposition> &memoryPeaks() const;
    //! pairMemory() of memory(), built once (empty when the trace has no memory events).
    const std::vector<PairMemory> &pairMemory() const;
    //! FLOPs, bytes, rates and roofline of every modelled op and pair, against peaks (built on
    //! first use, any thread).
    const OpEfficiency &efficiency() const;
    //! The peak table this trace is held against: PeakTable::current() when it was opened.
    std::shared_ptr<const PeakTable> peaks = PeakTable::current();
    //! The first step's critical path (the whole trace's without steps), found on first use.
    const CriticalPathAnalysis &criticalPath() const;
    //! What `--check` finds (checkTrace() with every diagnostic), worked out on first use.
    const std::vector<Finding> &findings() const;
    //! What to fix first in criticalPath()'s step (findStepFindings), worked out on first use.
    const std::vector<StepFinding> &stepFindings() const;
    //! The timeline's memory and counter curves, built on first use like timelineIndex().
    const TraceCurves &curves() const;
    /*!
     * The pair table (with pairMemory()'s columns), built on first use (any thread). Like the
     * two below, it keeps this trace alive: a worker filtering it never outlives its graph.
     */
    std::shared_ptr<const PairTable> pairTable() const;
    //! The pair table by op + input dims, built on first use (any thread).
    std::shared_ptr<const PairGroupTable> pairGroups() const;
    //! One row per GPU event, built on first use (any thread).
    std::shared_ptr<const KernelTable> kernelTable() const;
    /*!
     * Builds everything a window's first frame of this trace needs, so that the UI thread only
     * draws: the drawing index and the curves; for a timeline among others (\a use) the op
     * efficiency (its details panel), for a tab the health findings (its banner) and the memory
     * peaks. A tab works out its tables, the critical path and the efficiency after its first
     * frame, in the background (issue #59). The window's loaders call it on their threads; it
     * throws std::bad_alloc when memory runs out (readyForWindow() turns that into a failure).
     */
    void prepareForWindow(WindowUse use) const;

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
    mutable std::once_flag m_liveBuilt;
    mutable std::unique_ptr<LiveMemory> m_live;
    mutable std::vector<PeakComposition> m_peaks;
    mutable std::vector<PairMemory> m_pairMemory;
    mutable std::once_flag m_efficiencyBuilt;
    mutable std::unique_ptr<OpEfficiency> m_efficiency;
    mutable std::once_flag m_criticalPathFound;
    mutable std::unique_ptr<CriticalPathAnalysis> m_criticalPath;
    mutable std::once_flag m_findingsMade;
    mutable std::vector<Finding> m_findings;
    mutable std::once_flag m_stepFindingsMade;
    mutable std::vector<StepFinding> m_stepFindings;
    mutable std::once_flag m_curvesBuilt;
    mutable std::unique_ptr<TraceCurves> m_curves;
    void buildTables() const;
    mutable std::once_flag m_tablesBuilt;
    mutable std::unique_ptr<const PairTable> m_pairTable;
    mutable std::unique_ptr<const PairGroupTable> m_pairGroups;
    mutable std::unique_ptr<const KernelTable> m_kernelTable;
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
 * Calls LoadedTrace::prepareForWindow(\a use) on \a opened's trace, if any: out of memory gives
 * "FILE: byte N: not enough memory to display this trace" instead of the trace.
 */
OpenResult readyForWindow(OpenResult opened, WindowUse use);

//! Loads and links \a path (everything headless commands need).
OpenResult openTrace(const std::string &path, const LoadOptions &options = {});
//! The same for text in memory (see loadTraceText()).
OpenResult openTraceText(
    std::string_view text, const std::string &name, bool builderThread = false);

} // namespace ks
