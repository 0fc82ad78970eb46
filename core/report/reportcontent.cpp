// SPDX-License-Identifier: MIT
#include "report/reportcontent.h"

#include "report/criticalpathpart.h"
#include "report/efficiencypart.h"
#include "report/findingspart.h"
#include "report/reportcells.h"
#include "report/traceparts.h"

#include "analysis/health/dataloss.h"
#include "analysis/pairs/toppairs.h"
#include "analysis/time/gputime.h"
#include "base/numbertext.h"
#include "base/unitstext.h"
#include "export/difftable.h"
#include "export/moduletable.h"
#include "export/pairtable.h"
#include "export/runtables.h"
#include "export/steptable.h"
#include "export/summary.h"

#include <algorithm>
#include <numeric>

namespace ks {

namespace {

//! The values of \a key in a metadata value written as JSON text (`"key": "v"`, or Python's
//! `'key': v`), in order: enough for the report's names and numbers, without a parser.
std::vector<std::string> textFields(const std::string &json, const std::string &key)
{
    std::vector<std::string> out;
    for (size_t at = 0; (at = json.find(key, at)) != std::string::npos; at += key.size()) {
        const size_t end = at + key.size();
        if (at == 0 || end >= json.size() || (json[at - 1] != '"' && json[at - 1] != '\'')
            || json[end] != json[at - 1])
            continue; // part of a longer name, or not a key
        size_t i = json.find_first_not_of(" \t", end + 1);
        if (i == std::string::npos || json[i] != ':')
            continue;
        i = json.find_first_not_of(" \t\"'", i + 1);
        const size_t stop = json.find_first_of("\"',}]", i);
        if (i != std::string::npos && stop != std::string::npos && stop > i)
            out.push_back(json.substr(i, stop - i));
    }
    return out;
}

ReportPart tracePart(const LoadedTrace &trace)
{
    const TraceModel &m = *trace.model;
    const OpGraph &g = *trace.graph;
    ReportPart part;
    part.id = "trace";
    part.title = "The trace";
    part.text = "What was loaded, and what the loader had to skip or repair.";
    ReportTable info;
    info.caption = "The file and what it holds.";
    info.table.addColumn("field", Cell::Text, "Field");
    info.table.addColumn("value", Cell::Text, "Value");
    auto row = [&](std::string field, std::string value) {
        info.table.addRow();
        info.table.add(std::move(field));
        info.table.add(std::move(value));
    };
    row("File", m.path);
    row("Size",
        bytesText(double(m.fileSize)) + " (" + std::to_string(m.fileSize) + " bytes"
            + (m.compressed ? ", gzip)" : ")"));
    row("Events", std::to_string(m.eventCount));
    row("Steps", std::to_string(g.steps().size()));
    row("Op pairs (rows)", std::to_string(g.rows().size()));
    row("GPU events", std::to_string(g.stats().gpuEvents));
    for (const auto &[key, value] : m.metadata) {
        if (key.find("version") != std::string::npos && value.size() < 40)
            row(key, value);
    }
    if (const auto it = m.metadata.find("deviceProperties"); it != m.metadata.end()) {
        // "8 × NVIDIA A100": each name once, with how many devices have it, in order.
        std::vector<std::pair<std::string, int>> names;
        for (const std::string &n : textFields(it->second, "name")) {
            auto same = std::find_if(
                names.begin(), names.end(), [&](const auto &e) { return e.first == n; });
            if (same == names.end())
                names.emplace_back(n, 1);
            else
                ++same->second;
        }
        std::string joined;
        for (const auto &[name, count] : names)
            joined += (joined.empty() ? "" : "; ")
                + (count > 1 ? std::to_string(count) + " × " : std::string()) + name;
        if (!joined.empty())
            row("Devices", joined);
    }
    if (const auto it = m.metadata.find("distributedInfo"); it != m.metadata.end()) {
        const auto backend = textFields(it->second, "backend");
        const auto rank = textFields(it->second, "rank");
        const auto world = textFields(it->second, "world_size");
        if (!rank.empty() && !world.empty())
            row("Distributed",
                "rank " + rank[0] + " of " + world[0]
                    + (backend.empty() ? std::string() : " (" + backend[0] + ")"));
    }
    const Diagnostics all = allDiagnostics(m, g, trace.memory());
    std::string diagnostics;
    for (const auto &[name, n] : all.counts())
        diagnostics
            += (diagnostics.empty() ? "" : "; ") + std::string(name) + " × " + std::to_string(n);
    row("Load diagnostics", diagnostics.empty() ? "none" : diagnostics);
    if (const std::string lost = dataLoss(g); !lost.empty())
        row("Read in part", lost);
    part.tables.push_back(std::move(info));
    return part;
}

//! A chart's series: each part with its legend name.
void setSeries(ReportChart &chart, std::initializer_list<WorkPart> parts)
{
    for (WorkPart part : parts) {
        std::string name(workPartName(part));
        std::replace(name.begin(), name.end(), '_', ' ');
        chart.series.push_back(part == WorkPart::Recomputed ? "own re-run" : name);
        chart.parts.push_back(part);
    }
}

/*!
 * The rows of --export-steps for a person: times as ms since \a origin, durations as the export
 * writes them, only the categories in \a parts (the chart's series; idle is a column already).
 */
CellTable reportStepTable(
    const std::vector<StepBreakdown> &steps, const std::vector<WorkPart> &parts, TimeNs origin)
{
    const CellTable all = stepTable(steps);
    CellTable t;
    t.addColumn("step", Cell::Integer, "Step");
    t.addColumn("cpu_start", Cell::Number, "CPU start");
    t.addColumn("cpu_dur_us", Cell::Number, "CPU (µs)");
    t.addColumn("gpu_start", Cell::Number, "GPU start");
    t.addColumn("gpu_end", Cell::Number, "GPU end");
    t.addColumn("busy_us", Cell::Number, "busy (µs)");
    t.addColumn("idle_us", Cell::Number, "idle (µs)");
    std::vector<size_t> columns;
    for (WorkPart p : parts) {
        if (p == WorkPart::Idle)
            continue;
        const std::string name(workPartName(p));
        std::string title = name + " (µs)";
        std::replace(title.begin(), title.end(), '_', ' '); // headers wrap between words
        t.addColumn(name + "_us", Cell::Number, title);
        columns.push_back(7 + size_t(p)); // after the seven leading columns of --export-steps
    }
    for (size_t r = 0; r < steps.size(); ++r) {
        const StepBreakdown &s = steps[r];
        t.addRow();
        t.add(all.text(r, 0));
        t.add(msSinceStart(s.cpuStart, origin));
        t.add(all.text(r, 2));
        t.add(s.events ? msSinceStart(s.gpuStart, origin) : std::string());
        t.add(s.events ? msSinceStart(s.gpuEnd, origin) : std::string());
        t.add(all.text(r, 5));
        t.add(all.text(r, 6));
        for (size_t c : columns)
            t.add(all.text(r, c));
    }
    return t;
}

void addGpuTime(const LoadedTrace &trace, ReportContent &out)
{
    const std::vector<StepBreakdown> steps = stepBreakdown(*trace.graph);
    if (std::none_of(
            steps.begin(), steps.end(), [](const StepBreakdown &s) { return s.events > 0; }))
        return;
    ReportPart part;
    part.id = "gpu-time";
    part.title = "Where the GPU time went";
    part.text = "Per ProfilerStep, the GPU work launched inside it, from its first to its last "
                "GPU event: busy time split by what ran (computation by who launched it; "
                "communication and memcpy where no computation hides them), and idle (as "
                "--export-steps has them).";
    ReportChart chart;
    chart.caption = "GPU time per step, µs.";
    chart.unit = "µs";
    std::vector<WorkPart> parts;
    for (size_t k = 0; k < kStepCategories; ++k) {
        if (std::any_of(steps.begin(), steps.end(),
                [&](const StepBreakdown &s) { return s.part(WorkPart(k)) > 0; }))
            parts.push_back(WorkPart(k));
    }
    parts.push_back(WorkPart::Idle);
    for (WorkPart p : parts)
        setSeries(chart, {p});
    if (steps.size() > kChartBars)
        chart.caption += " The first " + std::to_string(kChartBars) + " of "
            + std::to_string(steps.size()) + " steps; the table has them all.";
    for (const StepBreakdown &s : steps) {
        if (chart.labels.size() == kChartBars)
            break;
        chart.labels.push_back("ProfilerStep#" + std::to_string(s.step));
        std::vector<double> values;
        values.reserve(parts.size());
        for (WorkPart p : parts)
            values.push_back(double(p == WorkPart::Idle ? s.idle() : s.part(p)) / 1e3);
        chart.values.push_back(std::move(values));
    }
    part.charts.push_back(std::move(chart));
    part.tables.push_back(
        {"The same, with each step's CPU window and GPU span (ms since the trace's "
         "start, as on the timeline); durations in µs as --export-steps has them.",
            reportStepTable(steps, parts, trace.model->minTime)});
    out.parts.push_back(std::move(part));
}

//! The pairs whose backward costs most times their forward, if any costs more than it.
void addBackwardHeavy(const OpGraph &g, const PairTable &pairs, ReportContent &out)
{
    TimeNs largest = 0;
    for (const PairRow &row : g.rows())
        largest = std::max(largest, row.forwardGpu.time);
    // Among pairs with a noticeable forward, those whose backward is dearer than it.
    const auto ratio = [&](size_t r) {
        const PairRow &row = g.rows()[r];
        if (row.forwardGpu.time <= 0 || row.forwardGpu.time * 100 < largest
            || row.backwardGpu.time <= row.forwardGpu.time)
            return 0.0;
        return double(row.backwardGpu.time) / double(row.forwardGpu.time);
    };
    const std::vector<size_t> heavy = topRows(g.rows().size(), 10, ratio);
    if (heavy.empty())
        return;
    ReportPart part;
    part.id = "backward-heavy";
    part.title = "Backward dearer than forward";
    part.text = "The pairs whose backward GPU time is the largest multiple of their forward GPU "
                "time, among those whose forward takes at least 1 % of the dearest forward, with "
                "the module that called them.";
    const ReportTable selected {{},
        select(pairs, heavy,
            {PairTable::FwdName, PairTable::Module, PairTable::FwdTs, PairTable::BwdNames,
                PairTable::FwdGpuUs, PairTable::BwdGpuUs},
            g.model().minTime)};
    ReportTable t;
    t.caption = "bwd / fwd is backward GPU time over forward GPU time.";
    for (const ColumnSpec &c : selected.table.columns())
        t.table.addColumn(c.name, c.cell, c.title);
    t.table.addColumn("bwd_over_fwd", Cell::Number, "bwd / fwd");
    for (size_t i = 0; i < heavy.size(); ++i) {
        t.table.addRow();
        for (size_t c = 0; c < selected.table.columnCount(); ++c)
            t.table.add(selected.table.text(i, c));
        char text[32];
        std::snprintf(text, sizeof text, "%.2f", ratio(heavy[i]));
        t.table.add(text);
    }
    part.tables.push_back(std::move(t));
    out.parts.push_back(std::move(part));
}

//! The pair rows by their cost (forward + backward + own re-run), dearest first.
std::vector<size_t> topPairs(const OpGraph &g, size_t limit)
{
    const std::vector<uint32_t> rows = topPairRows(g, limit);
    return {rows.begin(), rows.end()};
}

//! A trace without GPU events: the pairs by the CPU time of their forward op and backward nodes.
void addPairsByCpu(const OpGraph &g, const PairTable &pairs, ReportContent &out)
{
    const auto forwardDur = [&](size_t r) {
        const SliceId forward = g.rows()[r].forward;
        return forward == kNoSlice ? TimeNs(0) : g.model().slices.dur[forward];
    };
    const std::vector<size_t> top = topRows(g.rows().size(), kTopRows,
        [&](size_t r) { return double(forwardDur(r) + g.rows()[r].backwardDur); });
    if (top.empty())
        return;
    ReportPart part;
    part.id = "top-pairs";
    part.title = "The op pairs that cost most";
    const std::string lost = truncationLoss(g);
    part.text = (lost.empty() ? "This trace has no GPU events (CPU only)"
                              : "The file is cut off and " + lost.substr(0, lost.find(':')))
        + ": each forward op with the backward nodes it created, by the CPU time of both (fwd_dur "
          "+ bwd_dur of --export-pairs).";
    ReportChart chart;
    chart.caption = "CPU time of the top op pairs, µs.";
    chart.unit = "µs";
    setSeries(chart, {WorkPart::Forward, WorkPart::Backward});
    for (size_t r : top) {
        chart.labels.push_back(pairs.text(r, PairTable::FwdName));
        chart.values.push_back(
            {double(forwardDur(r)) / 1e3, double(g.rows()[r].backwardDur) / 1e3});
    }
    part.charts.push_back(std::move(chart));
    part.tables.push_back({"The same pairs, with their rows of --export-pairs.",
        select(pairs, top,
            {PairTable::FwdName, PairTable::FwdTs, PairTable::BwdNames, PairTable::Step,
                PairTable::Module, PairTable::FwdDur, PairTable::BwdDur},
            g.model().minTime)});
    out.parts.push_back(std::move(part));
}

void addPairs(const LoadedTrace &trace, const PairTable &pairs, ReportContent &out)
{
    const OpGraph &g = *trace.graph;
    if (g.stats().gpuEvents == 0) {
        addPairsByCpu(g, pairs, out);
        return;
    }
    const std::vector<size_t> top = topPairs(g, kTopRows);
    if (top.empty())
        return;
    const bool recomputed = std::any_of(
        top.begin(), top.end(), [&](size_t r) { return g.rows()[r].recomputedGpu.time > 0; });
    ReportPart part;
    part.id = "top-pairs";
    part.title = "The op pairs that cost most";
    part.text = "Each forward op with the backward nodes it created, by the GPU time both "
                "launched";
    part.text += recomputed ? " and what re-running the forward op during backward cost "
                              "(activation checkpointing)"
                            : "";
    part.text += " (as --export-pairs has them).";
    ReportChart chart;
    chart.caption = "GPU time of the top op pairs, µs.";
    chart.unit = "µs";
    if (recomputed)
        setSeries(chart, {WorkPart::Forward, WorkPart::Backward, WorkPart::Recomputed});
    else
        setSeries(chart, {WorkPart::Forward, WorkPart::Backward});
    for (size_t r : top) {
        std::string label = pairs.text(r, PairTable::FwdName);
        const std::string module = pairs.text(r, PairTable::Module);
        if (!module.empty())
            label += " · " + module.substr(module.find_last_of('/') + 1); // npos + 1 is 0
        // Instances of one op in one module tell apart as in the window's chart: step, row.
        if (const int64_t step = g.rows()[r].step; step != kNoValue)
            label.append(" · step ").append(std::to_string(step));
        label.append(" · #").append(std::to_string(r));
        chart.labels.push_back(std::move(label));
        const PairCost cost = pairCost(g.rows()[r]);
        chart.values.push_back({double(cost.forward) / 1e3, double(cost.backward) / 1e3});
        if (recomputed)
            chart.values.back().push_back(double(cost.recomputed) / 1e3);
    }
    std::vector<size_t> columns = {PairTable::FwdName, PairTable::FwdTs, PairTable::BwdNames,
        PairTable::Step, PairTable::Module, PairTable::FwdGpuUs, PairTable::BwdGpuUs};
    if (recomputed)
        columns.push_back(PairTable::RecomputedGpuUs);
    ReportTable table;
    table.caption = "The same pairs, with their rows of --export-pairs.";
    table.table = select(pairs, top, columns, g.model().minTime);
    part.charts.push_back(std::move(chart));
    part.tables.push_back(std::move(table));
    out.parts.push_back(std::move(part));
    addBackwardHeavy(g, pairs, out);
}

void addModules(const LoadedTrace &trace, ReportContent &out)
{
    const ModuleTable modules(
        trace.modules(), ModuleTable::Rows::WholeTrace, trace.pairMemory(), trace.efficiency());
    const std::vector<size_t> top = topRows(modules.rowCount(), 10, [&](size_t r) {
        if (modules.rowNode(r) == 0)
            return 0.0; // the root: the whole trace
        return modules.number(r, ModuleTable::FwdGpuUs) + modules.number(r, ModuleTable::BwdGpuUs);
    });
    if (top.empty())
        return;
    ReportPart part;
    part.id = "modules";
    part.title = "Modules";
    part.text = "The entries of the module tree with the most forward + backward GPU time, child "
                "modules included (as --export-modules has them).";
    std::vector<size_t> columns = {ModuleTable::Module, ModuleTable::Calls, ModuleTable::FwdGpuUs,
        ModuleTable::BwdGpuUs, ModuleTable::BwdOtherGpuUs};
    if (trace.model->memory.size() > 0)
        columns.push_back(ModuleTable::HeldBytes);
    ReportTable table;
    table.caption
        = "Source: " + std::string(ModuleTree::sourceDescription(trace.modules().source()));
    table.table = select(modules, top, columns);
    part.tables.push_back(std::move(table));
    out.parts.push_back(std::move(part));
}

//! Activation checkpointing's trade-off: what re-running forward work during backward cost.
void addCheckpointing(const LoadedTrace &trace, const PairTable &pairs, ReportContent &out)
{
    const OpGraph &g = *trace.graph;
    const LinkStats &s = g.stats();
    if (s.recomputeGpuTime <= 0)
        return;
    const TimeNs computation = trace.gpuTime().computation;
    char share[32];
    std::snprintf(share, sizeof share, "%.1f %%",
        computation > 0 ? 100.0 * double(s.recomputeGpuTime) / double(computation) : 0.0);
    ReportPart part;
    part.id = "checkpointing";
    part.title = "Activation checkpointing";
    part.text = "Backward re-ran " + std::to_string(s.recomputedOps) + " forward ops, "
        + durationText(double(s.recomputeGpuTime))
        + " of GPU time (recompute_gpu_us of --summary): " + share
        + " of the trace's computation (computation_us), paid to free their activations "
          "between forward and backward. Each re-run is charged to the op that is re-run "
          "(recomputed_gpu_us), never to the backward node that triggered it.";
    const ModuleTable modules(
        trace.modules(), ModuleTable::Rows::WholeTrace, trace.pairMemory(), trace.efficiency());
    const std::vector<size_t> byModule = topRows(modules.rowCount(), 10, [&](size_t r) {
        return modules.rowNode(r) == 0 ? 0.0 : modules.number(r, ModuleTable::RecomputeGpuUs);
    });
    if (!byModule.empty())
        part.tables.push_back({"The modules whose forward work was re-run, child modules included "
                               "(--export-modules).",
            select(modules, byModule,
                {ModuleTable::Module, ModuleTable::Calls, ModuleTable::FwdGpuUs,
                    ModuleTable::RecomputeGpuUs})});
    const std::vector<size_t> rerun = topRows(g.rows().size(), kTopRows,
        [&](size_t r) { return double(g.rows()[r].recomputedGpu.time); });
    if (!rerun.empty())
        part.tables.push_back({"The pairs re-run, by what the re-run cost (--export-pairs): "
                               "recomputed_gpu_us against the forward's own fwd_gpu_us.",
            select(pairs, rerun,
                {PairTable::FwdName, PairTable::Module, PairTable::Step, PairTable::FwdGpuUs,
                    PairTable::RecomputedGpuUs},
                g.model().minTime)});
    out.parts.push_back(std::move(part));
}

//! What fills the peak device at its peak, by category (the Memory tab's "peak" bar).
void addPeakComposition(const LoadedTrace &trace, ReportPart &part)
{
    const std::vector<PeakComposition> &peaks = trace.memoryPeaks();
    const auto device = trace.liveMemory().peakDevice();
    if (peaks.empty() || !device || peaks.front().event < 0)
        return;
    const PeakComposition &peak = peaks.front();
    int64_t total = 0;
    for (int64_t bytes : peak.bytes)
        total += bytes;
    ReportTable table;
    table.caption = "What fills " + memoryDeviceName(device->first, device->second)
        + " at its peak (" + bytesText(double(total)) + ", "
        + durationText(double(trace.model->memory.time[size_t(peak.event)] - trace.model->minTime))
        + " into the trace): the blocks alive then by category, what was allocated before the "
        + "trace (before_trace) and what the allocator's total holds beyond them "
        + "(unexplained), as --export-live --at peak lists them.";
    table.table.addColumn("category", Cell::Text, "Category");
    table.table.addColumn("bytes", Cell::Bytes, "Alive at the peak");
    table.table.addColumn("share", Cell::Number, "Share (%)");
    for (size_t c = 0; c < peak.bytes.size(); ++c) {
        if (peak.bytes[c] == 0)
            continue;
        table.table.addRow();
        table.table.add(std::string(liveCategoryName(LiveCategory(c))));
        table.table.add(bytesText(double(peak.bytes[c])));
        char share[32];
        std::snprintf(share, sizeof share, "%.1f", 100.0 * double(peak.bytes[c]) / double(total));
        table.table.add(share);
    }
    part.tables.push_back(std::move(table));
}

void addMemory(const LoadedTrace &trace, const PairTable &pairs, ReportContent &out)
{
    const MemoryIndex &memory = trace.memory();
    if (memory.memoryEvents() == 0)
        return;
    ReportPart part;
    part.id = "memory";
    part.title = "Memory";
    part.text = "The allocator's peaks per device (profile_memory=True), what fills the largest "
                "at its peak, and the op pairs whose forward op keeps the most bytes allocated "
                "for the backward pass it feeds: their saved activations, what activation "
                "checkpointing would free.";
    ReportTable devices;
    devices.caption = "Peaks are the largest Total Allocated / Total Reserved the trace reports.";
    devices.table.addColumn("device", Cell::Text, "Device");
    devices.table.addColumn("allocations", Cell::Integer, "Allocations");
    devices.table.addColumn("peak_allocated_bytes", Cell::Bytes, "Peak allocated");
    devices.table.addColumn("peak_reserved_bytes", Cell::Bytes, "Peak reserved");
    for (const MemoryDevice &d : memory.devices()) {
        devices.table.addRow();
        devices.table.add(memoryDeviceName(d.deviceType, d.deviceId));
        devices.table.add(std::to_string(d.allocations));
        devices.table.add(d.peakAllocated == kNoValue ? "" : bytesText(double(d.peakAllocated)));
        devices.table.add(d.peakReserved == kNoValue ? "" : bytesText(double(d.peakReserved)));
    }
    part.tables.push_back(std::move(devices));
    addPeakComposition(trace, part);
    const std::vector<PairMemory> &rows = trace.pairMemory();
    const std::vector<size_t> held
        = topRows(rows.size(), kTopRows, [&](size_t r) { return rows[r].held; });
    if (!held.empty()) {
        ReportTable table;
        table.caption = "The pairs holding the most memory for their backward.";
        table.table = select(pairs, held,
            {PairTable::FwdName, PairTable::FwdTs, PairTable::Module, PairTable::FwdAllocBytes,
                PairTable::HeldBytes, PairTable::BwdAllocBytes},
            trace.model->minTime);
        part.tables.push_back(std::move(table));
    }
    out.parts.push_back(std::move(part));
}

//! Index into \a g's steps of ProfilerStep#\a number, -1 if none.
int stepIndexOf(const OpGraph &g, int64_t number)
{
    for (size_t i = 0; i < g.steps().size(); ++i) {
        if (g.steps()[i].number == number)
            return int(i);
    }
    return -1;
}

} // namespace

void chooseTimeline(const LoadedTrace &trace,
    const std::string &prefix,
    const ReportFocus &focus,
    ReportContent &out)
{
    const OpGraph &g = *trace.graph;
    if (g.steps().empty() || g.rows().empty())
        return;
    const bool chosenRow = focus.row >= 0 && size_t(focus.row) < g.rows().size()
        && stepIndexOf(g, g.rows()[size_t(focus.row)].step) >= 0;
    int step
        = chosenRow ? stepIndexOf(g, g.rows()[size_t(focus.row)].step) : stepIndexOf(g, focus.step);
    const bool onScreen = step >= 0;
    if (!onScreen) {
        std::vector<size_t> order(g.steps().size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return g.steps()[a].end - g.steps()[a].start < g.steps()[b].end - g.steps()[b].start;
        });
        step = int(order[order.size() / 2]);
    }
    const int64_t number = g.steps()[size_t(step)].number;
    if (chosenRow) {
        out.timelineRow = focus.row;
    } else {
        for (size_t r : topPairs(g, g.rows().size())) {
            if (g.rows()[r].step == number) {
                out.timelineRow = int(r);
                break;
            }
        }
    }
    if (out.timelineRow < 0)
        return;
    out.timelineStep = step;
    ReportPart part;
    part.id = "timeline";
    part.title = prefix + "One step on the timeline";
    part.text = chosenRow ? "The step and the op pair selected in the window."
        : onScreen        ? "The step chosen in the window, with its dearest op pair selected."
                   : "The step of median length as the timeline shows it, with its dearest op "
                     "pair selected.";
    const std::string name(
        trace.model->sliceName(g.representativeSlice(g.rows()[size_t(out.timelineRow)])));
    out.timelineCaption = "ProfilerStep#" + std::to_string(number) + " with " + name
        + " selected: arrows join it to its backward nodes and each to the GPU work it launched.";
    part.timeline = true;
    out.parts.push_back(std::move(part));
}

void addTraceParts(const LoadedTrace &trace, const std::string &prefix, ReportContent &out)
{
    const size_t first = out.parts.size();
    addFindings(trace, out);
    out.parts.push_back(tracePart(trace));
    addGpuTime(trace, out);
    const std::shared_ptr<const PairTable> pairs = trace.pairTable();
    addPairs(trace, *pairs, out);
    addCheckpointing(trace, *pairs, out);
    addModules(trace, out);
    addEfficiency(trace, *pairs, out);
    addCriticalPath(trace.criticalPath(), false, out);
    addMemory(trace, *pairs, out);
    for (size_t i = first; i < out.parts.size(); ++i)
        out.parts[i].title = prefix + out.parts[i].title;
}

std::string fileName(const std::string &path)
{
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

ReportContent traceReport(const LoadedTrace &trace, const ReportFocus &focus)
{
    ReportContent out;
    out.title = "Kinetoscope report: " + fileName(trace.model->path);
    out.subtitle = trace.model->path;
    addTraceParts(trace, {}, out);
    chooseTimeline(trace, {}, focus, out);
    return out;
}

} // namespace ks
