// SPDX-License-Identifier: MIT
#include "session/traceexports.h"

#include "base/unitstext.h"
#include "export/allocationtable.h"
#include "export/apisummarytable.h"
#include "export/efficiencytable.h"
#include "export/kernelsummarytable.h"
#include "export/livetable.h"
#include "export/moduletable.h"
#include "export/opsummarytable.h"
#include "export/pairtable.h"
#include "export/steptable.h"
#include "export/table.h"

#include <cmath>
#include <set>

namespace ks {

namespace {

//! The peaks each device is held against, or how to add an unknown one.
void notePeaks(const OpEfficiency &efficiency, const std::string &file, TraceExportOutcome &out)
{
    if (efficiency.devices().empty())
        out.notes.push_back(
            file + ": no deviceProperties: roofline columns left empty (the GPU is unknown)");
    std::set<std::string> said; // eight GPUs of one kind: one line
    for (const OpEfficiency::Device &d : efficiency.devices()) {
        if (!said.insert(d.trace.name).second)
            continue;
        const std::string device = "device " + std::to_string(d.trace.id) + " " + d.trace.name;
        out.notes.push_back(d.peaks ? device + ": peaks from " + d.peaks->source
                                    : device
                    + " is not in the peak table: roofline columns left empty; add it with --peaks "
                      "FILE.json (TraceLens gpu_arch layout, docs/efficiency.md)");
    }
}

//! Writes the blocks alive as \a options asks, or says why there are none to tell.
void writeLive(const LoadedTrace &trace,
    const TraceExportOptions &options,
    const std::string &out,
    TraceExportOutcome &outcome)
{
    const std::string &file = trace.model->path;
    const LiveMemory live(trace.memory());
    if (!live.known()) {
        outcome.traceLacks = true;
        outcome.error = file
            + ": its [memory] events have no Addr (PyTorch 1.9): no free can be matched, so what "
              "is alive cannot be told";
        return;
    }
    if (options.atUs) {
        exportTable(LiveTable(live, live.at(TimeNs(std::llround(*options.atUs * 1000)))), out,
            outcome.error);
        return;
    }
    const auto device = live.peakDevice();
    if (!device) {
        outcome.traceLacks = true;
        outcome.error = file + ": no Total Allocated in its [memory] events: no peak";
        return;
    }
    // Just after the event that reached the peak: others in its µs may follow it.
    const int64_t e = live.peakEvent(*device, trace.model->minTime, trace.model->maxTime);
    outcome.notes.push_back("peak of " + memoryDeviceName(device->first, device->second) + " at "
        + microsText(trace.model->memory.time[size_t(e)]) + " us");
    exportTable(LiveTable(live, live.afterEvent(e)), out, outcome.error);
}

//! Writes \a table to \a out, its error in \a outcome.
void write(const Table &table, const std::string &out, TraceExportOutcome &outcome)
{
    exportTable(table, out, outcome.error);
}

} // namespace

TraceExportOutcome writeTraceExport(TraceExportKind kind,
    const LoadedTrace &trace,
    const std::string &out,
    const TraceExportOptions &options)
{
    TraceExportOutcome outcome;
    const OpGraph &graph = *trace.graph;
    const std::string &file = trace.model->path;
    switch (kind) {
    case TraceExportKind::Pairs:
        write(PairTable(graph), out, outcome);
        break;
    case TraceExportKind::Kernels:
        write(KernelTable(graph), out, outcome);
        break;
    case TraceExportKind::Modules:
        // Where the hierarchy came from: modules, annotations or bare op names.
        outcome.notes.emplace_back(ModuleTree::sourceDescription(trace.modules().source()));
        write(ModuleTable(trace.modules(),
                  options.perStep ? ModuleTable::Rows::EachStep : ModuleTable::Rows::WholeTrace,
                  trace.pairMemory(), trace.efficiency()),
            out, outcome);
        break;
    case TraceExportKind::Memory: {
        const MemoryIndex memory(graph);
        if (memory.allocations().empty())
            outcome.notes.push_back(
                file + ": no [memory] allocations (record with profile_memory=True)");
        write(AllocationTable(memory), out, outcome);
        break;
    }
    case TraceExportKind::Steps:
        if (graph.steps().empty())
            outcome.notes.push_back(
                file + ": no ProfilerStep#N ranges (torch.profiler records one per prof.step())");
        write(stepTable(stepBreakdown(graph)), out, outcome);
        break;
    case TraceExportKind::KernelSummary:
        write(kernelSummaryTable(kernelSummary(graph), *trace.model), out, outcome);
        break;
    case TraceExportKind::Live:
        writeLive(trace, options, out, outcome);
        break;
    case TraceExportKind::Efficiency:
        if (trace.efficiency().instances().empty())
            outcome.notes.push_back(
                file + ": no modelled op with recorded shapes (profile with record_shapes=True)");
        notePeaks(trace.efficiency(), file, outcome);
        write(EfficiencyTable(graph, trace.efficiency()), out, outcome);
        break;
    case TraceExportKind::ApiSummary:
        write(apiSummaryTable(apiSummary(graph), *trace.model), out, outcome);
        break;
    case TraceExportKind::OpSummary:
        write(opSummaryTable(opSummary(graph, options.byInputDims), *trace.model), out, outcome);
        break;
    }
    return outcome;
}

} // namespace ks
