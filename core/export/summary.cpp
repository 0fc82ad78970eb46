// SPDX-License-Identifier: MIT
#include "export/summary.h"

#include "analysis/memory/memoryindex.h"
#include "analysis/time/gputime.h"
#include "base/jsonwrite.h"
#include "base/numbertext.h"
#include "export/criticalpathjson.h"
#include "export/findingsjson.h"
#include "export/steptable.h"

#include <cstdio>

namespace ks {

TraceCounts countTrace(const TraceModel &model, const OpGraph &graph)
{
    TraceCounts c;
    for (SliceId s = 0; s < model.slices.size(); ++s) {
        if (model.slices.kind[s] == EventKind::CpuOp)
            ++c.cpuOps;
    }
    c.gpuEvents = graph.gpuEvents().size();
    c.steps = graph.steps().size();
    return c;
}

Diagnostics allDiagnostics(const TraceModel &model, const OpGraph &graph)
{
    return allDiagnostics(model, graph, MemoryIndex(graph));
}

Diagnostics allDiagnostics(const TraceModel &model, const OpGraph &graph, const MemoryIndex &memory)
{
    Diagnostics all;
    all.merge(model.diagnostics);
    all.merge(graph.diagnostics());
    all.merge(memory.diagnostics());
    return all;
}

std::string summaryJson(const TraceModel &model,
    const OpGraph &graph,
    double loadSeconds,
    const PathQuery &path,
    const std::optional<WhatIfChange> &whatIf)
{
    const TraceCounts counts = countTrace(model, graph);
    const LinkStats &s = graph.stats();
    std::string out = "{\n";
    auto key = [&](std::string_view name) {
        if (out.size() > 2)
            out += ",\n";
        out += "  ";
        appendJsonString(out, name);
        out += ": ";
    };
    auto number = [&](std::string_view name, uint64_t v) {
        key(name);
        out += std::to_string(v);
    };
    auto boolean = [&](std::string_view name, bool v) {
        key(name);
        out += v ? "true" : "false";
    };
    key("file");
    appendJsonString(out, model.path);
    boolean("compressed", model.compressed);
    number("events", model.eventCount);
    number("cpu_ops", counts.cpuOps);
    number("gpu_events", counts.gpuEvents);
    number("flows", model.flowKeysWithBothEnds);
    number("fwd_bwd_pairs", s.pairs());
    number("pairs_from_flows", s.pairsFromFlows);
    number("pairs_from_sequence", s.pairsFromSequence);
    number("unpaired_backward", s.unpairedBackward);
    number("gpu_events_attributed", s.gpuEventsAttributed);
    number("steps", counts.steps);
    boolean("truncated", model.truncated);
    key("diagnostics");
    out += '{';
    bool first = true;
    const MemoryIndex memory(graph);
    for (const auto &[name, n] : allDiagnostics(model, graph, memory).counts()) {
        out += first ? "" : ", ";
        first = false;
        appendJsonString(out, name);
        out += ": " + std::to_string(n);
    }
    out += '}';
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", loadSeconds);
    key("load_seconds");
    out += seconds;
    key("recompute_gpu_us");
    appendMicros(out, s.recomputeGpuTime, 3);
    key("gpu_time");
    out += '{';
    first = true;
    for (const auto &[name, ns] : gpuTimeFields(gpuTimeBreakdown(graph))) {
        out += first ? "" : ", ";
        first = false;
        appendJsonString(out, name);
        out += ": ";
        appendMicros(out, ns, 3);
    }
    out += '}';
    key("step_breakdown");
    std::string steps = tableToJson(stepTable(stepBreakdown(graph)));
    steps.pop_back(); // its closing newline
    out += steps;
    key("critical_path");
    const CriticalPathAnalysis analysis(graph, path);
    appendCriticalPathJson(out, graph, analysis, whatIf);
    key("findings");
    const OpEfficiency efficiency(graph, PeakTable::current());
    appendFindingsJson(out, analysis, findStepFindings(analysis, {&efficiency, &memory}));
    number("memory_events", memory.memoryEvents());
    key("memory_devices");
    out += '[';
    first = true;
    for (const MemoryDevice &d : memory.devices()) {
        out += first ? "{" : ", {";
        first = false;
        auto field = [&](std::string_view name, int64_t v, bool last = false) {
            appendJsonString(out, name);
            out += ": ";
            out += v == kNoValue ? std::string("null") : std::to_string(v);
            out += last ? "}" : ", ";
        };
        field("device_type", d.deviceType);
        field("device_id", d.deviceId);
        field("allocations", int64_t(d.allocations));
        field("peak_allocated_bytes", d.peakAllocated);
        field("peak_reserved_bytes", d.peakReserved, true);
    }
    out += ']';
    // Beyond cli.md's required keys:
    number("backward_nodes", s.backwardNodes);
    number("pair_rows", graph.rows().size());
    number("recompute_rows", s.recomputeRows);
    number("recomputed_ops", s.recomputedOps);
    boolean("double_backward", s.doubleBackward);
    boolean("has_sequence_numbers", s.hasSequenceNumbers);
    number("gpu_events_with_launch", s.gpuEventsWithLaunch);
    number("communication_gpu_events", s.communicationGpuEvents);
    number("flow_pairs_checked_by_sequence", s.flowPairsCheckedBySequence);
    number("flow_pairs_agreeing_with_sequence", s.flowPairsAgreeingWithSequence);
    number("lanes", model.lanes.size());
    number("file_bytes", model.fileSize);
    number("text_bytes", model.textSize);
    out += "\n}\n";
    return out;
}

} // namespace ks
