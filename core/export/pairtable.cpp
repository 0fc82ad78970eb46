// SPDX-License-Identifier: MIT
#include "export/pairtable.h"

#include "export/efficiencytable.h"

#include "link/opnames.h"

#include "base/jsonwrite.h"
#include "base/numbertext.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace ks {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr ColumnSpec kPairColumns[] = {
    {"fwd_name", Cell::Text, "Forward op"},
    {"fwd_pid", Cell::Id, "Forward pid"},
    {"fwd_tid", Cell::Id, "Forward tid"},
    {"fwd_ts", Cell::Timestamp, "Forward start"},
    {"fwd_dur", Cell::Number, "Forward dur (µs)"},
    {"input_dims", Cell::Json, "Input dims"},
    {"sequence_numbers", Cell::NumberList, "Sequence numbers"},
    {"link", Cell::Text, "Link"},
    {"bwd_names", Cell::Text, "Backward nodes"},
    {"bwd_pid", Cell::Id, "Backward pid"},
    {"bwd_tid", Cell::Id, "Backward tid"},
    {"bwd_ts", Cell::Timestamp, "Backward start"},
    {"bwd_dur", Cell::Number, "Backward dur, evaluate_function (µs)"},
    {"fwd_gpu_events", Cell::Integer, "Forward GPU events"},
    {"fwd_gpu_us", Cell::Number, "Forward GPU (µs)"},
    {"bwd_gpu_events", Cell::Integer, "Backward GPU events"},
    {"bwd_gpu_us", Cell::Number, "Backward GPU (µs)"},
    {"step", Cell::Integer, "Step"},
    {"module", Cell::Text, "Module"},
    // Two kinds of recompute, named apart: what the row's backward re-ran of other rows' forward
    // work, and what re-running the row's own forward op cost.
    {"recompute_gpu_events", Cell::Integer, "Re-run in its backward: GPU events"},
    {"recompute_gpu_us", Cell::Number, "Re-run in its backward: GPU (µs)"},
    {"recomputed_gpu_us", Cell::Number, "Its forward re-run: GPU (µs)"},
    {"fwd_alloc_bytes", Cell::Bytes, "Forward allocated"},
    {"held_bytes", Cell::Bytes, "Held for backward"},
    {"bwd_alloc_bytes", Cell::Bytes, "Backward allocated"},
    {"held_until", Cell::Text, "Held until"},
    {"fwd_tflops", Cell::Number, "Forward TFLOP/s"},
    {"bwd_tflops", Cell::Number, "Backward TFLOP/s"},
    {"fwd_pct_roofline", Cell::Number, "Forward % of roofline"},
    {"bwd_pct_roofline", Cell::Number, "Backward % of roofline"},
    {"bound", Cell::Text, "Bound"},
    {"critical_us", Cell::Number, "On critical path (µs)"},
};
static_assert(std::size(kPairColumns) == PairTable::ColumnCount);

//! Which bound holds the larger part of a pair's roofline time, both sides together.
std::string boundText(const PairEfficiency &e)
{
    const double compute = e.forward.computeUs + e.backward.computeUs;
    const double memory = e.forward.memoryUs + e.backward.memoryUs;
    if (compute + memory <= 0)
        return {};
    return compute >= memory ? "compute" : "memory";
}

constexpr ColumnSpec kKernelColumns[] = {
    {"name", Cell::Text, "GPU event"},
    {"kind", Cell::Text, "Kind"},
    {"device", Cell::NumberId, "Device"},
    {"stream", Cell::NumberId, "Stream"},
    {"ts", Cell::Timestamp, "Start"},
    {"dur", Cell::Number, "Duration (µs)"},
    {"correlation", Cell::Integer, "Correlation"},
    {"launch_name", Cell::Text, "Launch"},
    {"launch_ts", Cell::Timestamp, "Launch start"},
    {"op_name", Cell::Text, "Launching op"},
    {"op_ts", Cell::Timestamp, "Op start"},
    {"side", Cell::Text, "Side"},
    {"pair_fwd_name", Cell::Text, "Pair (forward op)"},
    {"pair_fwd_ts", Cell::Timestamp, "Pair start"},
    {"step", Cell::Integer, "Step"},
    {"communication", Cell::Integer, "Communication"},
    {"graph_id", Cell::Integer, "Graph"},
    {"graph_node_id", Cell::Integer, "Graph node"},
};
static_assert(std::size(kKernelColumns) == KernelTable::ColumnCount);

} // namespace

std::string writtenTs(const TraceModel &model, SliceId s)
{
    std::string out;
    appendMicros(out, model.slices.start[s], model.slices.tsDecimals(s));
    return out;
}

PairTable::PairTable(const OpGraph &graph)
    : PairTable(graph,
        graph.model().memory.size() > 0 ? pairMemory(MemoryIndex(graph))
                                        : std::vector<PairMemory> {},
        OpEfficiency(graph, PeakTable::current()).pairs(),
        CriticalPathAnalysis(graph).path().ranks[0].rowTime)
{
}

PairTable::PairTable(const OpGraph &graph,
    std::vector<PairMemory> memory,
    std::vector<PairEfficiency> efficiency,
    std::vector<TimeNs> critical)
    : m_graph(graph)
    , m_memory(std::move(memory))
    , m_efficiency(std::move(efficiency))
    , m_critical(std::move(critical))
{
    // "AddmmBackward0;TBackward0": a few distinct combinations over all rows, joined once.
    std::unordered_map<std::string, uint32_t> combos;
    m_bwdNames.reserve(graph.rows().size());
    std::string joined;
    for (const PairRow &row : graph.rows()) {
        joined.clear();
        graph.appendNodeNames(row, joined);
        auto [it, inserted] = combos.try_emplace(joined, uint32_t(m_bwdCombos.size()));
        if (inserted)
            m_bwdCombos.push_back(joined);
        m_bwdNames.push_back(it->second);
    }
}

int64_t PairTable::memoryCell(size_t row, size_t column) const
{
    const PairMemory &p = m_memory[row];
    return column == FwdAllocBytes ? p.forwardAllocated
        : column == HeldBytes      ? p.held
                                   : p.backwardAllocated;
}

std::span<const ColumnSpec> PairTable::columns() const
{
    return kPairColumns;
}

bool PairTable::gpuUnknown(size_t column) const
{
    switch (column) {
    case FwdGpuEvents:
    case FwdGpuUs:
    case BwdGpuEvents:
    case BwdGpuUs:
    case RecomputeGpuEvents:
    case RecomputeGpuUs:
    case RecomputedGpuUs:
        return m_graph.stats().gpuCutOff;
    default:
        return false;
    }
}

std::string PairTable::text(size_t r, size_t column) const
{
    if (gpuUnknown(column))
        return {};
    const PairRow &row = m_graph.rows()[r];
    const TraceModel &m = m_graph.model();
    const SliceTable &t = m.slices;
    const bool hasForward = row.forward != kNoSlice;
    const SliceId f = row.forward;
    const SliceId b = m_graph.firstNode(row);
    switch (column) {
    case FwdName:
        return hasForward ? std::string(m.sliceName(f)) : std::string();
    case FwdPid:
        return hasForward ? std::string(m.str(m.lanes[t.lane[f]].pidText)) : std::string();
    case FwdTid:
        return hasForward ? std::string(m.str(m.lanes[t.lane[f]].tidText)) : std::string();
    case FwdTs:
        return hasForward ? writtenTs(m, f) : std::string();
    case FwdDur:
        return hasForward ? microsText(t.dur[f]) : std::string();
    case InputDims:
        return hasForward ? std::string(m.str(t.inputDims[f])) : std::string();
    case SequenceNumbers: {
        std::vector<int64_t> numbers;
        for (uint32_t i : m_graph.nodesOf(row))
            numbers.push_back(t.sequence[m_graph.nodes()[i].node]);
        std::sort(numbers.begin(), numbers.end());
        std::string out;
        for (size_t k = 0; k < numbers.size(); ++k) {
            if (k)
                out += ';';
            out += std::to_string(numbers[k]);
        }
        return out;
    }
    case Link:
        return std::string(linkMethodName(row.link));
    case BwdNames:
        return m_bwdCombos[m_bwdNames[r]];
    case BwdPid:
        return std::string(m.str(m.lanes[t.lane[b]].pidText));
    case BwdTid:
        return std::string(m.str(m.lanes[t.lane[b]].tidText));
    case BwdTs:
        return writtenTs(m, b);
    case BwdDur:
        return microsText(row.backwardDur);
    case FwdGpuEvents:
        return hasForward ? std::to_string(row.forwardGpu.count) : std::string();
    case FwdGpuUs:
        return hasForward ? microsText(row.forwardGpu.time) : std::string();
    case BwdGpuEvents:
        return std::to_string(row.backwardGpu.count);
    case BwdGpuUs:
        return microsText(row.backwardGpu.time);
    case Step:
        return row.step == kNoValue ? std::string() : std::to_string(row.step);
    case Module:
        return row.module == kNoSlice ? std::string() : std::string(m.sliceName(row.module));
    case RecomputeGpuEvents:
        return std::to_string(row.recomputeGpu.count);
    case RecomputeGpuUs:
        return microsText(row.recomputeGpu.time);
    case RecomputedGpuUs:
        return hasForward ? microsText(row.recomputedGpu.time) : std::string();
    case FwdAllocBytes:
    case HeldBytes:
    case BwdAllocBytes: {
        const bool known = !m_memory.empty() && (hasForward || column == BwdAllocBytes)
            && memoryCell(r, column) != kNoValue;
        return known ? std::to_string(memoryCell(r, column)) : std::string();
    }
    case HeldUntil:
        return m_memory.empty() ? std::string() : heldUntilText(m, m_memory[r].heldUntil);
    case Bound:
        return boundText(m_efficiency[r]);
    case CriticalUs:
        return m_critical.empty() ? std::string() : microsText(m_critical[r]);
    case FwdTflops:
    case BwdTflops:
    case FwdPctRoofline:
    case BwdPctRoofline: {
        const double v = number(r, column);
        return std::isnan(v) ? std::string() : shortestText(v);
    }
    }
    return {};
}

bool PairTable::textView(size_t r, size_t column, std::string_view &out) const
{
    const PairRow &row = m_graph.rows()[r];
    const TraceModel &m = m_graph.model();
    const SliceTable &t = m.slices;
    const SliceId f = row.forward;
    switch (column) {
    case FwdName:
        out = f == kNoSlice ? std::string_view() : m.sliceName(f);
        return true;
    case FwdPid:
    case FwdTid:
        out = f == kNoSlice
            ? std::string_view()
            : m.str(column == FwdPid ? m.lanes[t.lane[f]].pidText : m.lanes[t.lane[f]].tidText);
        return true;
    case InputDims:
        out = f == kNoSlice ? std::string_view() : m.str(t.inputDims[f]);
        return true;
    case Link:
        out = linkMethodName(row.link);
        return true;
    case Module:
        out = row.module == kNoSlice ? std::string_view() : m.sliceName(row.module);
        return true;
    case BwdNames:
        out = m_bwdCombos[m_bwdNames[r]];
        return true;
    case BwdPid:
    case BwdTid: {
        const Lane &lane = m.lanes[t.lane[m_graph.firstNode(row)]];
        out = m.str(column == BwdPid ? lane.pidText : lane.tidText);
        return true;
    }
    default:
        return false;
    }
}

double PairTable::number(size_t r, size_t column) const
{
    if (gpuUnknown(column))
        return kNaN;
    const PairRow &row = m_graph.rows()[r];
    const SliceTable &t = m_graph.model().slices;
    const bool hasForward = row.forward != kNoSlice;
    switch (column) {
    case SequenceNumbers: {
        // Sorted by the smallest number: the order in which autograd created the nodes.
        int64_t lowest = std::numeric_limits<int64_t>::max();
        for (uint32_t i : m_graph.nodesOf(row))
            lowest = std::min(lowest, t.sequence[m_graph.nodes()[i].node]);
        return double(lowest);
    }
    case FwdTs:
        return hasForward ? double(t.start[row.forward]) : kNaN;
    case FwdDur:
        return hasForward ? double(t.dur[row.forward]) : kNaN;
    case BwdTs:
        return double(t.start[m_graph.firstNode(row)]);
    case BwdDur:
        return double(row.backwardDur);
    case FwdGpuEvents:
        return hasForward ? double(row.forwardGpu.count) : kNaN;
    case FwdGpuUs:
        return hasForward ? double(row.forwardGpu.time) : kNaN;
    case BwdGpuEvents:
        return double(row.backwardGpu.count);
    case BwdGpuUs:
        return double(row.backwardGpu.time);
    case Step:
        return row.step == kNoValue ? kNaN : double(row.step);
    case RecomputeGpuEvents:
        return double(row.recomputeGpu.count);
    case RecomputeGpuUs:
        return double(row.recomputeGpu.time);
    case RecomputedGpuUs:
        return hasForward ? double(row.recomputedGpu.time) : kNaN;
    case FwdAllocBytes:
    case HeldBytes:
    case BwdAllocBytes:
        return m_memory.empty() || (!hasForward && column != BwdAllocBytes)
                || memoryCell(r, column) == kNoValue
            ? kNaN
            : double(memoryCell(r, column));
    case FwdTflops:
        return m_efficiency[r].forward.tflopsPerS().value_or(kNaN);
    case BwdTflops:
        return m_efficiency[r].backward.tflopsPerS().value_or(kNaN);
    case FwdPctRoofline:
        return m_efficiency[r].forward.pctRoofline().value_or(kNaN);
    case BwdPctRoofline:
        return m_efficiency[r].backward.pctRoofline().value_or(kNaN);
    case CriticalUs:
        return m_critical.empty() ? kNaN : double(m_critical[r]);
    default:
        return kNaN;
    }
}

void PairTable::appendJson(std::string &out, size_t r, size_t column) const
{
    if (column != BwdNames)
        return Table::appendJson(out, r, column);
    // One string per node: a name may hold the ';' that joins them in CSV.
    const TraceModel &m = m_graph.model();
    out += '[';
    bool first = true;
    for (uint32_t i : m_graph.nodesOf(m_graph.rows()[r])) {
        if (!first)
            out += ',';
        first = false;
        appendJsonString(out, m.sliceName(m_graph.nodes()[i].node));
    }
    out += ']';
}

KernelTable::KernelTable(const OpGraph &graph)
    : m_graph(graph)
{
}

std::span<const ColumnSpec> KernelTable::columns() const
{
    return kKernelColumns;
}

SliceId KernelTable::timedSlice(size_t r, size_t column) const
{
    const SliceId g = m_graph.gpuEvents()[r];
    switch (column) {
    case Ts:
        return g;
    case LaunchTs:
        return m_graph.launchOf(g);
    case OpTs:
        return m_graph.ranUnder(g).slice;
    case PairFwdTs: {
        const int row = m_graph.rowOf(g);
        return row < 0 ? kNoSlice : m_graph.rows()[size_t(row)].forward;
    }
    default:
        return kNoSlice;
    }
}

double KernelTable::number(size_t r, size_t column) const
{
    if (columns()[column].cell != Cell::Timestamp)
        return Table::number(r, column);
    const SliceId s = timedSlice(r, column);
    return s == kNoSlice ? std::numeric_limits<double>::quiet_NaN()
                         : double(m_graph.model().slices.start[s]);
}

std::string KernelTable::text(size_t r, size_t column) const
{
    const TraceModel &m = m_graph.model();
    const SliceTable &t = m.slices;
    const SliceId g = m_graph.gpuEvents()[r];
    const SliceId launch = m_graph.launchOf(g);
    const OpGraph::RanUnder ranUnder = m_graph.ranUnder(g);
    const GpuInfo *info = m.gpu(g);
    auto pairForward = [&]() -> SliceId {
        const int row = m_graph.rowOf(g);
        return row < 0 ? kNoSlice : m_graph.rows()[size_t(row)].forward;
    };
    switch (column) {
    case Name:
        return std::string(m.sliceName(g));
    case Kind:
        return std::string(kindName(t.kind[g]));
    case Device:
        return info && info->device >= 0 ? std::to_string(info->device)
                                         : std::string(m.str(m.lanes[t.lane[g]].pidText));
    case Stream:
        return info && info->stream >= 0 ? std::to_string(info->stream)
                                         : std::string(m.str(m.lanes[t.lane[g]].tidText));
    case Ts:
        return writtenTs(m, g);
    case Dur:
        return microsText(t.dur[g]);
    case Correlation:
        return t.correlation[g] == kNoValue ? std::string() : std::to_string(t.correlation[g]);
    case LaunchName:
        return launch == kNoSlice ? std::string() : std::string(m.sliceName(launch));
    case LaunchTs:
    case OpTs:
    case PairFwdTs: {
        const SliceId s = timedSlice(r, column);
        return s == kNoSlice ? std::string() : writtenTs(m, s);
    }
    case OpName:
        return std::string(
            ranUnder.slice == kNoSlice ? ranUnder.annotation : m.sliceName(ranUnder.slice));
    case Side:
        return std::string(gpuSideName(gpuSideOf(m_graph, g)));
    case PairFwdName: {
        const SliceId f = pairForward();
        return f == kNoSlice ? std::string() : std::string(m.sliceName(f));
    }
    case Step: {
        const int64_t step = m_graph.stepAt(t.start[launch == kNoSlice ? g : launch]);
        return launch == kNoSlice || step == kNoValue ? std::string() : std::to_string(step);
    }
    case Communication:
        return isCommunication(m.sliceName(g)) ? "1" : "0";
    case GraphId:
        return info && info->graphId != kNoValue ? std::to_string(info->graphId) : std::string();
    case GraphNodeId:
        return info && info->graphNodeId != kNoValue ? std::to_string(info->graphNodeId)
                                                     : std::string();
    }
    return {};
}

} // namespace ks
