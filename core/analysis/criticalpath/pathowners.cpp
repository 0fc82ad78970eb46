// SPDX-License-Identifier: MIT
#include "analysis/criticalpath/pathowners.h"

#include "link/gpuside.h"
#include "link/opnames.h"

namespace ks {

RowSides::RowSides(const OpGraph &graph)
    : m_graph(graph)
    , m_rowSides(graph.model().slices, OpGraph::RowSide {})
    , m_tops(graph.model().slices, kNoSlice)
{
    for (uint32_t r = 0; r < graph.rows().size(); ++r)
        if (graph.rows()[r].forward != kNoSlice)
            m_forwardRow.emplace(graph.rows()[r].forward, OpGraph::RowSide {int(r), true});
}

std::pair<int, std::string_view> RowSides::of(SliceId event)
{
    const TraceModel &m = m_graph.model();
    const bool gpu = isGpuWork(m.slices.kind[event]);
    if (gpu && isCommunication(m.sliceName(event)))
        return {rowSide(m_graph.launchOf(event)).row, "communication"};
    const SliceId host = gpu ? m_graph.launchOf(event) : event;
    if (host == kNoSlice)
        return {-1, gpuSideName(GpuSide::Unattributed)};
    const OpGraph::RowSide rs = rowSide(host);
    // sideOfHostWork()'s first two rules; the rest (unpaired work) walks up itself.
    if (m_graph.recomputationOf(host) >= 0)
        return {rs.row, gpuSideName(GpuSide::Recompute)};
    if (rs.row >= 0)
        return {rs.row, gpuSideName(rs.forward ? GpuSide::Forward : GpuSide::Backward)};
    // Unpaired work: the side of its outermost slice, so that a walk up is done once per chain
    // (a path down 100 000 nested ops would otherwise walk each level for each op).
    const SliceId top = m_tops.of(host, [&](SliceId a) {
        return m.slices.parent[a] == kNoSlice ? std::optional(a) : std::nullopt;
    });
    const auto known = m_topSide.try_emplace(top, GpuSide::Other);
    if (known.second)
        known.first->second = sideOfHostWork(m_graph, top);
    return {-1, gpuSideName(known.first->second)};
}

//! rowSideOf() of a host slice: the innermost forward op or backward node around decides.
OpGraph::RowSide RowSides::rowSide(SliceId slice)
{
    return m_rowSides.of(slice, [&](SliceId a) -> std::optional<OpGraph::RowSide> {
        if (const auto f = m_forwardRow.find(a); f != m_forwardRow.end())
            return f->second;
        if (const int n = m_graph.nodeOf(a); n >= 0)
            return OpGraph::RowSide {int(m_graph.nodes()[size_t(n)].row), false};
        return std::nullopt;
    });
}

} // namespace ks
