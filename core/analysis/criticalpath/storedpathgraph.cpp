// SPDX-License-Identifier: MIT
#include "analysis/criticalpath/storedpathgraph.h"

#include <algorithm>

namespace ks {

namespace {

constexpr uint32_t kNone = ~0u;

} // namespace

StoredPathGraph::StoredPathGraph(std::vector<PathNode> nodes,
    const std::vector<PathEdge> &edges,
    const std::vector<PathEdge> &stepEdges,
    std::vector<StoredPathEvent> events,
    size_t rowCount)
    : m_events(std::move(events))
    , m_rowCount(rowCount)
{
    m_nodes = std::move(nodes);
    m_dag = PathDag(m_nodes.size());
    for (const PathEdge &e : edges)
        m_dag.add(e);
    for (const PathEdge &e : stepEdges)
        m_dag.addStepEdge(e);
    m_dag.finish();
    for (uint32_t n = 0; n < m_nodes.size(); ++n)
        (m_nodes[n].start ? m_startNode : m_endNode).emplace_back(m_nodes[n].event, n);
    const auto byId
        = [](const StoredPathEvent &a, const StoredPathEvent &b) { return a.event < b.event; };
    if (!std::is_sorted(m_events.begin(), m_events.end(), byId)) // as written, they are
        std::stable_sort(m_events.begin(), m_events.end(), byId);
    for (uint32_t i = 0; i < m_events.size(); ++i)
        if (m_events[i].row >= 0)
            m_eventOfRow.emplace_back(m_events[i].row, i);
    for (SortedIndex *index : {&m_startNode, &m_endNode, &m_eventOfRow})
        std::stable_sort(index->begin(), index->end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
}

//! The value of \a key's first entry, kNone if none.
uint32_t StoredPathGraph::lookUp(const SortedIndex &index, int64_t key)
{
    const auto it = std::lower_bound(index.begin(), index.end(), key,
        [](const auto &entry, int64_t k) { return entry.first < k; });
    return it == index.end() || it->first != key ? kNone : it->second;
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
    const auto it = std::lower_bound(m_events.begin(), m_events.end(), event,
        [](const StoredPathEvent &e, SliceId id) { return e.event < id; });
    return it == m_events.end() || it->event != event ? nullptr : &*it;
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
    const uint32_t i = lookUp(m_eventOfRow, row);
    return i == kNone ? std::string_view() : m_events[i].pairName;
}

} // namespace ks
