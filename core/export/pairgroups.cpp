// SPDX-License-Identifier: MIT
#include "export/pairgroups.h"

#include "base/jsonwrite.h"

#include <cmath>
#include <unordered_map>

namespace ks {

PairGroupTable::PairGroupTable(const OpGraph &graph)
    : m_pairs(graph)
{
    groupRows();
}

PairGroupTable::PairGroupTable(
    const OpGraph &graph, std::vector<PairMemory> memory, std::vector<PairEfficiency> efficiency)
    : m_pairs(graph, std::move(memory), std::move(efficiency), {})
{
    groupRows();
}

void PairGroupTable::groupRows()
{
    const OpGraph &graph = m_pairs.graph();
    const TraceModel &m = graph.model();
    const SliceTable &t = m.slices;
    std::unordered_map<std::string, uint32_t> byKey;
    m_groupOfRow.resize(graph.rows().size());
    for (uint32_t r = 0; r < graph.rows().size(); ++r) {
        const PairRow &row = graph.rows()[r];
        std::string key;
        if (row.forward != kNoSlice) {
            key = std::string(m.sliceName(row.forward)) + '\x1f'
                + std::string(m.str(t.inputDims[row.forward]));
        } else {
            key = '\x1e';
            key += m_pairs.text(r, PairTable::BwdNames);
        }
        auto [it, inserted] = byKey.try_emplace(key, uint32_t(m_groups.size()));
        if (inserted)
            m_groups.emplace_back();
        Group &g = m_groups[it->second];
        m_groupOfRow[r] = it->second;
        g.rows.push_back(r);
        g.paired = row.forward != kNoSlice;
        auto add = [](TimeNs(&acc)[2], TimeNs v) {
            acc[0] += v;
            acc[1] = std::max(acc[1], v);
        };
        if (g.paired) {
            add(g.fwdDur, t.dur[row.forward]);
            add(g.fwdGpu, row.forwardGpu.time);
            g.fwdGpuEvents += row.forwardGpu.count;
            add(g.recomputedGpu, row.recomputedGpu.time);
        }
        add(g.recomputeGpu, row.recomputeGpu.time);
        add(g.bwdDur, row.backwardDur);
        add(g.bwdGpu, row.backwardGpu.time);
        g.bwdGpuEvents += row.backwardGpu.count;
        g.anyFlow = g.anyFlow || row.link == LinkMethod::Flow;
        g.anySequence = g.anySequence || row.link == LinkMethod::Sequence;
    }
}

namespace {

constexpr ColumnSpec kGroupColumns[] = {
    {"fwd_name", Cell::Text, "Forward op"},
    {"input_dims", Cell::Json, "Input dims"},
    {"count", Cell::Integer, "Count"},
    {"link", Cell::Text, "Link"},
    {"bwd_names", Cell::Text, "Backward nodes"},
    {"fwd_dur_total", Cell::Number, "Forward dur total (µs)"},
    {"fwd_dur_mean", Cell::Number, "Forward dur mean (µs)"},
    {"fwd_dur_max", Cell::Number, "Forward dur max (µs)"},
    {"bwd_dur_total", Cell::Number, "Backward dur total (µs)"},
    {"bwd_dur_mean", Cell::Number, "Backward dur mean (µs)"},
    {"bwd_dur_max", Cell::Number, "Backward dur max (µs)"},
    {"fwd_gpu_us_total", Cell::Number, "Forward GPU total (µs)"},
    {"fwd_gpu_us_mean", Cell::Number, "Forward GPU mean (µs)"},
    {"fwd_gpu_us_max", Cell::Number, "Forward GPU max (µs)"},
    {"bwd_gpu_us_total", Cell::Number, "Backward GPU total (µs)"},
    {"bwd_gpu_us_mean", Cell::Number, "Backward GPU mean (µs)"},
    {"bwd_gpu_us_max", Cell::Number, "Backward GPU max (µs)"},
    {"fwd_gpu_events", Cell::Integer, "Forward GPU events"},
    {"bwd_gpu_events", Cell::Integer, "Backward GPU events"},
    {"recompute_gpu_us_total", Cell::Number, "Re-run in its backward: GPU total (µs)"},
    {"recomputed_gpu_us_total", Cell::Number, "Its forward re-run: GPU total (µs)"},
};
static_assert(std::size(kGroupColumns) == PairGroupTable::ColumnCount);

} // namespace

std::span<const ColumnSpec> PairGroupTable::columns() const
{
    return kGroupColumns;
}

TimeNs PairGroupTable::value(const Group &g, size_t column) const
{
    const auto n = TimeNs(g.rows.size());
    switch (column) {
    case FwdDurTotal:
        return g.fwdDur[0];
    case FwdDurMean:
        return g.fwdDur[0] / n;
    case FwdDurMax:
        return g.fwdDur[1];
    case BwdDurTotal:
        return g.bwdDur[0];
    case BwdDurMean:
        return g.bwdDur[0] / n;
    case BwdDurMax:
        return g.bwdDur[1];
    case FwdGpuUsTotal:
        return g.fwdGpu[0];
    case FwdGpuUsMean:
        return g.fwdGpu[0] / n;
    case FwdGpuUsMax:
        return g.fwdGpu[1];
    case BwdGpuUsTotal:
        return g.bwdGpu[0];
    case BwdGpuUsMean:
        return g.bwdGpu[0] / n;
    case BwdGpuUsMax:
        return g.bwdGpu[1];
    case RecomputeGpuUsTotal:
        return g.recomputeGpu[0];
    case RecomputedGpuUsTotal:
        return g.recomputedGpu[0];
    default:
        return 0;
    }
}

std::string PairGroupTable::text(size_t row, size_t column) const
{
    const Group &g = m_groups[row];
    const uint32_t first = g.rows.front();
    switch (column) {
    case FwdName:
        return m_pairs.text(first, PairTable::FwdName);
    case InputDims:
        return m_pairs.text(first, PairTable::InputDims);
    case Count:
        return std::to_string(g.rows.size());
    case Link:
        return !g.paired    ? "none"
            : g.anySequence ? (g.anyFlow ? "flow+sequence" : "sequence")
                            : "flow";
    case BwdNames:
        return m_pairs.text(first, PairTable::BwdNames);
    case FwdGpuEvents:
        return g.paired ? std::to_string(g.fwdGpuEvents) : std::string();
    case BwdGpuEvents:
        return std::to_string(g.bwdGpuEvents);
    default:
        if (!g.paired && column >= FwdDurTotal && column <= FwdDurMax)
            return {};
        if (!g.paired
            && ((column >= FwdGpuUsTotal && column <= FwdGpuUsMax)
                || column == RecomputedGpuUsTotal))
            return {};
        return microsText(value(g, column));
    }
}

double PairGroupTable::number(size_t row, size_t column) const
{
    const Group &g = m_groups[row];
    if (column == Count)
        return double(g.rows.size());
    if (!isNumeric(column) || text(row, column).empty())
        return std::nan("");
    if (column == FwdGpuEvents)
        return double(g.fwdGpuEvents);
    if (column == BwdGpuEvents)
        return double(g.bwdGpuEvents);
    return double(value(g, column));
}

} // namespace ks
