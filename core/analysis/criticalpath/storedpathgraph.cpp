// SPDX-License-Identifier: MIT
#include "analysis/criticalpath/storedpathgraph.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace ks {

namespace {

constexpr uint32_t kNone = ~0u;

} // namespace

StoredPathGraph::StoredPathGraph(std::vector<PathNode> nodes,
    std::vector<PathEdge> edges,
    std::vector<PathEdge> stepEdges,
    const std::vector<StoredPathEvent> &events,
    size_t rowCount)
    : m_rowCount(rowCount)
{
    m_nodes = std::move(nodes);
    m_nodes.shrink_to_fit();
    m_dag = PathDag(m_nodes.size(), std::move(edges), std::move(stepEdges));
    m_dag.finish(false); // it is walked joined: only whether it is acyclic is kept
    m_dag.releaseIndex();
    indexNodes();
    keepEvents(events);
}

void StoredPathGraph::indexNodes()
{
    for (uint32_t n = 0; n < m_nodes.size(); ++n)
        (m_nodes[n].start ? m_startNode : m_endNode).emplace_back(m_nodes[n].event, n);
    const auto byKey = [](const auto &a, const auto &b) { return a.first < b.first; };
    for (auto *index : {&m_startNode, &m_endNode}) {
        std::stable_sort(index->begin(), index->end(), byKey);
        index->shrink_to_fit();
    }
}

void StoredPathGraph::keepEvents(const std::vector<StoredPathEvent> &events)
{
    std::map<std::string_view, uint32_t> known; // into events, which outlive it
    const auto textOf = [&](const std::string &text) {
        const auto [it, added] = known.emplace(text, uint32_t(m_texts.size()));
        if (added)
            m_texts.push_back(text);
        return it->second;
    };
    std::vector<uint32_t> byId(events.size()); // as written, they are in this order
    std::iota(byId.begin(), byId.end(), 0);
    std::stable_sort(byId.begin(), byId.end(),
        [&](uint32_t a, uint32_t b) { return events[a].event < events[b].event; });
    m_events.reserve(events.size());
    for (uint32_t i : byId) {
        const StoredPathEvent &e = events[i];
        m_events.push_back({e.event, textOf(e.name), e.row, textOf(e.side), e.spanBound});
        if (e.row >= 0)
            m_pairName.emplace_back(e.row, textOf(e.pairName));
    }
    m_texts.shrink_to_fit();
    std::stable_sort(m_pairName.begin(), m_pairName.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    m_pairName.shrink_to_fit();
}

//! The value of \a key's first entry, kNone if none.
template<typename Key> uint32_t StoredPathGraph::lookUp(const SortedIndex<Key> &index, Key key)
{
    const auto it = std::lower_bound(
        index.begin(), index.end(), key, [](const auto &entry, Key k) { return entry.first < k; });
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

const StoredPathGraph::Event *StoredPathGraph::find(SliceId event) const
{
    const auto it = std::lower_bound(m_events.begin(), m_events.end(), event,
        [](const Event &e, SliceId id) { return e.event < id; });
    return it == m_events.end() || it->event != event ? nullptr : &*it;
}

std::string_view StoredPathGraph::eventName(SliceId event) const
{
    const Event *e = find(event);
    return e ? std::string_view(m_texts[e->name]) : std::string_view();
}

PathBound StoredPathGraph::spanBound(SliceId event) const
{
    const Event *e = find(event);
    return e ? e->spanBound : PathBound::Cpu;
}

std::vector<RowSide> StoredPathGraph::rowSides(const std::vector<SliceId> &events) const
{
    std::vector<RowSide> out;
    out.reserve(events.size());
    for (SliceId id : events) {
        const Event *e = find(id);
        out.push_back(e ? RowSide {e->row, m_texts[e->side]} : RowSide {-1, {}});
    }
    return out;
}

std::string_view StoredPathGraph::pairName(int row) const
{
    const uint32_t i = lookUp<int32_t>(m_pairName, row);
    return i == kNone ? std::string_view() : std::string_view(m_texts[i]);
}

} // namespace ks
