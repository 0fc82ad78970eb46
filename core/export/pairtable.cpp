// SPDX-License-Identifier: MIT
#include "export/pairtable.h"

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

//! A pid/tid as a JSON value: a number when the file wrote an integer, else a string.
void appendIdJson(std::string &out, std::string_view written)
{
    int64_t v;
    if (!written.empty() && parseInteger(written, v) && written.find('.') == std::string_view::npos
        && written.front() != ' ')
        out += std::to_string(v);
    else
        appendJsonString(out, written);
}

} // namespace

std::string writtenTs(const TraceModel &model, SliceId s)
{
    std::string out;
    appendMicros(out, model.slices.start[s], model.slices.tsDecimals(s));
    return out;
}

std::string microsText(TimeNs ns)
{
    std::string out;
    appendMicros(out, ns, 3);
    return out;
}

PairTable::PairTable(const OpGraph &graph)
    : m_graph(graph)
{
    // "AddmmBackward0;TBackward0": a few distinct combinations over all rows, joined once.
    const TraceModel &m = graph.model();
    std::unordered_map<std::string, uint32_t> combos;
    m_bwdNames.reserve(graph.rows().size());
    std::string joined;
    for (const PairRow &row : graph.rows()) {
        joined.clear();
        for (uint32_t i : graph.nodesOf(row)) {
            if (!joined.empty())
                joined += ';';
            joined += m.sliceName(graph.nodes()[i].node);
        }
        auto [it, inserted] = combos.try_emplace(joined, uint32_t(m_bwdCombos.size()));
        if (inserted)
            m_bwdCombos.push_back(joined);
        m_bwdNames.push_back(it->second);
    }
}

std::string_view PairTable::columnName(size_t column) const
{
    static constexpr std::string_view kNames[] = {"fwd_name", "fwd_pid", "fwd_tid", "fwd_ts",
        "fwd_dur", "input_dims", "sequence_numbers", "link", "bwd_names", "bwd_pid", "bwd_tid",
        "bwd_ts", "bwd_dur", "fwd_gpu_events", "fwd_gpu_us", "bwd_gpu_events", "bwd_gpu_us", "step",
        "module", "recompute_gpu_events", "recompute_gpu_us", "recomputed_gpu_us"};
    return kNames[column];
}

bool PairTable::isNumeric(size_t column) const
{
    switch (column) {
    case FwdTs:
    case FwdDur:
    case BwdTs:
    case BwdDur:
    case FwdGpuEvents:
    case FwdGpuUs:
    case BwdGpuEvents:
    case BwdGpuUs:
    case Step:
    case RecomputeGpuEvents:
    case RecomputeGpuUs:
    case RecomputedGpuUs:
        return true;
    default:
        return false;
    }
}

SliceId PairTable::firstNode(const PairRow &row) const
{
    return m_graph.nodes()[m_graph.nodesOf(row).front()].node;
}

std::string PairTable::text(size_t r, size_t column) const
{
    const PairRow &row = m_graph.rows()[r];
    const TraceModel &m = m_graph.model();
    const SliceTable &t = m.slices;
    const bool hasForward = row.forward != kNoSlice;
    const SliceId f = row.forward;
    const SliceId b = firstNode(row);
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
        const Lane &lane = m.lanes[t.lane[firstNode(row)]];
        out = m.str(column == BwdPid ? lane.pidText : lane.tidText);
        return true;
    }
    default:
        return false;
    }
}

bool PairTable::sortsByNumber(size_t column) const
{
    return isNumeric(column) || column == SequenceNumbers;
}

double PairTable::number(size_t r, size_t column) const
{
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
        return double(t.start[firstNode(row)]);
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
    default:
        return kNaN;
    }
}

void PairTable::appendJson(std::string &out, size_t r, size_t column) const
{
    const PairRow &row = m_graph.rows()[r];
    const TraceModel &m = m_graph.model();
    const std::string cell = text(r, column);
    switch (column) {
    case FwdPid:
    case FwdTid:
    case BwdPid:
    case BwdTid:
        if (cell.empty())
            out += "null";
        else
            appendIdJson(out, cell);
        return;
    case InputDims:
        // Already compact JSON captured from the file.
        out += cell.empty() ? std::string("null") : cell;
        return;
    case SequenceNumbers:
        out += '[';
        for (char c : cell)
            out += c == ';' ? ',' : c;
        out += ']';
        return;
    case BwdNames: {
        out += '[';
        bool first = true;
        for (uint32_t i : m_graph.nodesOf(row)) {
            if (!first)
                out += ',';
            first = false;
            appendJsonString(out, m.sliceName(m_graph.nodes()[i].node));
        }
        out += ']';
        return;
    }
    default:
        break;
    }
    if (cell.empty())
        out += "null";
    else if (isNumeric(column))
        out += cell;
    else
        appendJsonString(out, cell);
}

KernelTable::KernelTable(const OpGraph &graph)
    : m_graph(graph)
{
}

std::string_view KernelTable::columnName(size_t column) const
{
    static constexpr std::string_view kNames[] = {"name", "kind", "device", "stream", "ts", "dur",
        "correlation", "launch_name", "launch_ts", "op_name", "op_ts", "side", "pair_fwd_name",
        "pair_fwd_ts", "step", "communication"};
    return kNames[column];
}

bool KernelTable::isNumeric(size_t column) const
{
    switch (column) {
    case Device:
    case Stream:
    case Ts:
    case Dur:
    case Correlation:
    case LaunchTs:
    case OpTs:
    case PairFwdTs:
    case Step:
    case Communication:
        return true;
    default:
        return false;
    }
}

std::string KernelTable::text(size_t r, size_t column) const
{
    const TraceModel &m = m_graph.model();
    const SliceTable &t = m.slices;
    const SliceId g = m_graph.gpuEvents()[r];
    const SliceId launch = m_graph.launchOf(g);
    const SliceId op = m_graph.launchingOp(g);
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
        return launch == kNoSlice ? std::string() : writtenTs(m, launch);
    case OpName:
        return op == kNoSlice ? std::string() : std::string(m.sliceName(op));
    case OpTs:
        return op == kNoSlice ? std::string() : writtenTs(m, op);
    case Side:
        return std::string(gpuSideName(gpuSideOf(m_graph, g)));
    case PairFwdName: {
        const SliceId f = pairForward();
        return f == kNoSlice ? std::string() : std::string(m.sliceName(f));
    }
    case PairFwdTs: {
        const SliceId f = pairForward();
        return f == kNoSlice ? std::string() : writtenTs(m, f);
    }
    case Step: {
        const int64_t step = m_graph.stepAt(t.start[launch == kNoSlice ? g : launch]);
        return launch == kNoSlice || step == kNoValue ? std::string() : std::to_string(step);
    }
    case Communication:
        return isCommunication(m.sliceName(g)) ? "1" : "0";
    }
    return {};
}

double KernelTable::number(size_t r, size_t column) const
{
    const std::string cell = text(r, column);
    double v;
    return !cell.empty() && parseDouble(cell, v) ? v : kNaN;
}

void KernelTable::appendJson(std::string &out, size_t r, size_t column) const
{
    const std::string cell = text(r, column);
    if (cell.empty())
        out += "null";
    else if (isNumeric(column) && column != Device && column != Stream)
        out += cell;
    else if (column == Device || column == Stream)
        appendIdJson(out, cell);
    else
        appendJsonString(out, cell);
}

} // namespace ks
