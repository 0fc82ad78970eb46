// SPDX-License-Identifier: MIT
#include "analysis/storedpathgraph.h"

namespace ks {

namespace {

constexpr uint32_t kNone = ~0u;

uint32_t lookUp(const std::unordered_map<SliceId, uint32_t> &map, SliceId key)
{
    const auto it = map.find(key);
    return it == map.end() ? kNone : it->second;
}

} // namespace

StoredPathGraph::StoredPathGraph(std::vector<PathNode> nodes,
    const std::vector<PathEdge> &edges,
    const std::vector<PathEdge> &causalityEdges,
    std::vector<StoredPathEvent> events,
    size_t rowCount)
    : m_events(std::move(events))
    , m_rowCount(rowCount)
{
    m_nodes = std::move(nodes);
    m_dag = PathDag(m_nodes.size());
    for (const PathEdge &e : edges)
        m_dag.add(e);
    for (const PathEdge &e : causalityEdges)
        m_dag.addCausality(e);
    m_dag.finish();
    for (uint32_t n = 0; n < m_nodes.size(); ++n)
        (m_nodes[n].start ? m_startNode : m_endNode)[m_nodes[n].event] = n;
    for (uint32_t i = 0; i < m_events.size(); ++i) {
        m_eventIndex[m_events[i].event] = i;
        if (m_events[i].row >= 0)
            m_eventOfRow.emplace(m_events[i].row, i);
    }
}

uint32_t StoredPathGraph::startNode(SliceId event) const
{
    return lookUp(m_startNode, event);
}

uint32_t StoredPathGraph::endNode(SliceId event) const
{
    return lookUp(m_endNode, event);
}

const StoredPathEvent *StoredPathGraph::find(SliceId event) const
{
    const uint32_t i = lookUp(m_eventIndex, event);
    return i == kNone ? nullptr : &m_events[i];
}

std::string_view StoredPathGraph::eventName(SliceId event) const
{
    const StoredPathEvent *e = find(event);
    return e ? std::string_view(e->name) : std::string_view();
}

PathBound StoredPathGraph::spanBound(SliceId event) const
{
    const StoredPathEvent *e = find(event);
    return e ? e->spanBound : PathBound::Cpu;
}

std::vector<RowSide> StoredPathGraph::rowSides(const std::vector<SliceId> &events) const
{
    std::vector<RowSide> out;
    out.reserve(events.size());
    for (SliceId id : events) {
        const StoredPathEvent *e = find(id);
        out.push_back(e ? RowSide {e->row, e->side} : RowSide {-1, {}});
    }
    return out;
}

std::string_view StoredPathGraph::pairName(int row) const
{
    const auto it = m_eventOfRow.find(row);
    return it == m_eventOfRow.end() ? std::string_view() : m_events[it->second].pairName;
}

} // namespace ks
