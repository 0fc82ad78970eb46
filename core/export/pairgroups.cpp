// SPDX-License-Identifier: MIT
#include "export/pairgroups.h"

#include "base/jsonwrite.h"

#include <cmath>
#include <unordered_map>

namespace ks {

PairGroupTable::PairGroupTable(const OpGraph &graph)
    : m_graph(graph)
    , m_pairs(graph)
{
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

std::string_view PairGroupTable::columnName(size_t column) const
{
    static constexpr std::string_view kNames[] = {"fwd_name", "input_dims", "count", "link",
        "bwd_names", "fwd_dur_total", "fwd_dur_mean", "fwd_dur_max", "bwd_dur_total",
        "bwd_dur_mean", "bwd_dur_max", "fwd_gpu_us_total", "fwd_gpu_us_mean", "fwd_gpu_us_max",
        "bwd_gpu_us_total", "bwd_gpu_us_mean", "bwd_gpu_us_max", "fwd_gpu_events", "bwd_gpu_events",
        "recompute_gpu_us_total", "recomputed_gpu_us_total"};
    return kNames[column];
}

bool PairGroupTable::isNumeric(size_t column) const
{
    return column >= Count && column != Link && column != BwdNames;
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

void PairGroupTable::appendJson(std::string &out, size_t row, size_t column) const
{
    const std::string cell = text(row, column);
    if (cell.empty())
        out += "null";
    else if (column == InputDims || isNumeric(column))
        out += cell;
    else
        appendJsonString(out, cell);
}

} // namespace ks
