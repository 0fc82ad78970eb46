// SPDX-License-Identifier: MIT
#include "session/loadedtrace.h"

#include "export/summary.h"

#include <chrono>
#include <new>

namespace ks {

namespace {
OpenResult link(LoadResult loaded, std::chrono::steady_clock::time_point started)
{
    OpenResult out;
    out.status = loaded.status;
    out.error = std::move(loaded.error);
    if (loaded.status != LoadResult::Status::Loaded)
        return out;
    auto trace = std::make_shared<LoadedTrace>();
    trace->model = std::move(loaded.model);
    try {
        trace->graph = OpGraph::build(*trace->model);
    } catch (const std::bad_alloc &) {
        // The model fit, its links did not: a clean failure, not std::terminate.
        return outOfMemoryAfterLoad(*trace->model, "link");
    }
    trace->seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    out.trace = std::move(trace);
    return out;
}
} // namespace

OpenResult outOfMemoryAfterLoad(const TraceModel &model, std::string_view task)
{
    OpenResult out;
    out.error = model.path + ": byte " + std::to_string(model.textSize) + ": not enough memory to "
        + std::string(task) + " this trace";
    return out;
}

const ModuleTree &LoadedTrace::modules() const
{
    std::call_once(m_modulesBuilt, [this] { m_modules = ModuleTree::build(*graph); });
    return *m_modules;
}

const GpuTimeBreakdown &LoadedTrace::gpuTime() const
{
    std::call_once(m_gpuTimeWorkedOut, [this] { m_gpuTime = gpuTimeBreakdown(*graph); });
    return m_gpuTime;
}

const TimelineIndex &LoadedTrace::timelineIndex() const
{
    std::call_once(
        m_indexBuilt, [this] { m_index = std::make_unique<TimelineIndex>(*model, *graph); });
    return *m_index;
}

const MemoryIndex &LoadedTrace::memory() const
{
    std::call_once(m_memoryBuilt, [this] { m_memory = std::make_unique<MemoryIndex>(*graph); });
    return *m_memory;
}

const std::vector<Finding> &LoadedTrace::findings() const
{
    std::call_once(m_findingsMade,
        [this] { m_findings = checkTrace(*graph, allDiagnostics(*model, *graph, memory())); });
    return m_findings;
}

const LiveMemory &LoadedTrace::liveMemory() const
{
    std::call_once(m_liveBuilt, [this] {
        m_live = std::make_unique<LiveMemory>(memory());
        m_peaks = m_live->peaks();
    });
    return *m_live;
}

const std::vector<PeakComposition> &LoadedTrace::memoryPeaks() const
{
    (void)liveMemory();
    return m_peaks;
}

const OpEfficiency &LoadedTrace::efficiency() const
{
    std::call_once(m_efficiencyBuilt,
        [this] { m_efficiency = std::make_unique<OpEfficiency>(*graph, peaks); });
    return *m_efficiency;
}

const std::vector<PairMemory> &LoadedTrace::pairMemory() const
{
    std::call_once(m_pairMemoryBuilt, [this] {
        if (model->memory.size() > 0)
            m_pairMemory = ks::pairMemory(memory());
    });
    return m_pairMemory;
}

const TraceCurves &LoadedTrace::curves() const
{
    std::call_once(
        m_curvesBuilt, [this] { m_curves = std::make_unique<TraceCurves>(traceCurves(*graph)); });
    return *m_curves;
}

const CriticalPathAnalysis &LoadedTrace::criticalPath() const
{
    std::call_once(m_criticalPathFound,
        [this] { m_criticalPath = std::make_unique<CriticalPathAnalysis>(*graph); });
    return *m_criticalPath;
}

const std::vector<StepFinding> &LoadedTrace::stepFindings() const
{
    std::call_once(m_stepFindingsMade, [this] {
        m_stepFindings = findStepFindings(criticalPath(), {&efficiency(), &memory()});
    });
    return m_stepFindings;
}

OpenResult linkTrace(LoadResult loaded)
{
    return link(std::move(loaded), std::chrono::steady_clock::now());
}

std::shared_ptr<const PairTable> LoadedTrace::pairTable() const
{
    std::call_once(m_tablesBuilt, [this] { buildTables(); });
    return {shared_from_this(), m_pairTable.get()}; // owned by this trace
}

std::shared_ptr<const PairGroupTable> LoadedTrace::pairGroups() const
{
    std::call_once(m_tablesBuilt, [this] { buildTables(); });
    return {shared_from_this(), m_pairGroups.get()};
}

std::shared_ptr<const KernelTable> LoadedTrace::kernelTable() const
{
    std::call_once(m_tablesBuilt, [this] { buildTables(); });
    return {shared_from_this(), m_kernelTable.get()};
}

void LoadedTrace::buildTables() const
{
    auto pairs = std::make_unique<const PairTable>(
        *graph, pairMemory(), efficiency().pairs(), criticalPath().path().ranks[0].rowTime);
    auto groups
        = std::make_unique<const PairGroupTable>(*graph, pairMemory(), efficiency().pairs());
    m_kernelTable = std::make_unique<const KernelTable>(*graph);
    m_pairTable = std::move(pairs);
    m_pairGroups = std::move(groups);
}

void LoadedTrace::prepareForWindow(WindowUse use) const
{
    (void)timelineIndex();
    (void)curves();
    if (use == WindowUse::Timeline)
        (void)efficiency(); // the details panel's (a trace's tab works it out after its frame)
    if (use == WindowUse::Tab) {
        (void)findings(); // the banner's
        if (model->memory.size() > 0)
            (void)memoryPeaks(); // the Memory tab's bars
    }
}

OpenResult readyForWindow(OpenResult opened, WindowUse use)
{
    if (!opened.trace)
        return opened;
    try {
        opened.trace->prepareForWindow(use);
    } catch (const std::bad_alloc &) {
        return outOfMemoryAfterLoad(*opened.trace->model, "display");
    }
    return opened;
}

OpenResult openTrace(const std::string &path, const LoadOptions &options)
{
    const auto started = std::chrono::steady_clock::now();
    return link(loadTrace(path, options), started);
}

OpenResult openTraceText(std::string_view text, const std::string &name, bool builderThread)
{
    const auto started = std::chrono::steady_clock::now();
    return link(loadTraceText(text, name, builderThread), started);
}

} // namespace ks
