// SPDX-License-Identifier: MIT
#include "analysis/timeline/graphlanes.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ks {

namespace {

bool onlyReplays(const TraceModel &m, const Lane &lane)
{
    if (!lane.device || lane.sliceEnd == lane.sliceBegin || lane.instantEnd > lane.instantBegin)
        return false;
    for (SliceId s = lane.sliceBegin; s < lane.sliceEnd; ++s) {
        const GpuInfo *gpu = m.gpu(s);
        if (!gpu || gpu->graphId == kNoValue)
            return false;
    }
    return true;
}

} // namespace

GraphLanes::GraphLanes(const TraceModel &m)
    : m_model(m)
{
    // (device pid, graph id) → its events on compacted streams; the first stream hosts it.
    std::map<std::pair<int64_t, int64_t>, std::vector<SliceId>> eventsOf;
    for (LaneId l = 0; l < m.lanes.size(); ++l) {
        const Lane &lane = m.lanes[l];
        if (!onlyReplays(m, lane))
            continue;
        m_placesOfLane[l].resize(lane.sliceEnd - lane.sliceBegin);
        for (SliceId s = lane.sliceBegin; s < lane.sliceEnd; ++s)
            eventsOf[{lane.pid, m.gpu(s)->graphId}].push_back(s);
    }
    const SliceTable &t = m.slices;
    std::vector<std::pair<Graph, std::vector<SliceId>>> found;
    for (auto &[key, events] : eventsOf) {
        Graph g;
        g.graphId = key.second;
        for (SliceId s : events)
            g.streams.push_back(t.lane[s]);
        std::sort(g.streams.begin(), g.streams.end());
        g.streams.erase(std::unique(g.streams.begin(), g.streams.end()), g.streams.end());
        g.host = g.streams.front();
        found.emplace_back(std::move(g), std::move(events));
    }
    std::stable_sort(found.begin(), found.end(),
        [](const auto &a, const auto &b) { return a.first.host < b.first.host; });
    for (auto &entry : found)
        pack(entry.first, entry.second);
}

void GraphLanes::pack(Graph g, std::vector<SliceId> &events)
{
    const SliceTable &t = m_model.slices;
    std::sort(events.begin(), events.end(), [&](SliceId a, SliceId b) {
        return std::tuple(t.start[a], t.lane[a], a) < std::tuple(t.start[b], t.lane[b], b);
    });
    std::vector<std::vector<SliceId>> &rows = m_rowsOfHost[g.host];
    g.firstRow = uint32_t(rows.size());
    // First fit in start order: each row stays sorted and free of overlaps.
    std::vector<TimeNs> rowEnd;
    for (SliceId s : events) {
        size_t r = 0;
        while (r < rowEnd.size() && rowEnd[r] > t.start[s])
            ++r;
        if (r == rowEnd.size()) {
            rowEnd.push_back(0);
            rows.emplace_back();
        }
        rowEnd[r] = t.end(s);
        rows[g.firstRow + r].push_back(s);
        const LaneId l = t.lane[s];
        m_placesOfLane[l][s - m_model.lanes[l].sliceBegin]
            = Place {uint32_t(m_graphs.size()), uint32_t(g.firstRow + r)};
    }
    g.rowCount = uint32_t(rowEnd.size());
    m_graphs.push_back(std::move(g));
}

std::span<const GraphLanes::Graph> GraphLanes::hostedBy(LaneId lane) const
{
    auto first = std::lower_bound(m_graphs.begin(), m_graphs.end(), lane,
        [](const Graph &g, LaneId l) { return g.host < l; });
    auto last = std::find_if(first, m_graphs.end(), [&](const Graph &g) { return g.host != lane; });
    return {first, last};
}

uint32_t GraphLanes::rowCount(LaneId host) const
{
    const auto it = m_rowsOfHost.find(host);
    return it == m_rowsOfHost.end() ? 0 : uint32_t(it->second.size());
}

std::span<const SliceId> GraphLanes::row(LaneId host, uint32_t row) const
{
    const auto it = m_rowsOfHost.find(host);
    if (it == m_rowsOfHost.end() || row >= it->second.size())
        return {};
    return it->second[row];
}

GraphLanes::Place GraphLanes::placeOf(SliceId s) const
{
    const LaneId l = m_model.slices.lane[s];
    return m_placesOfLane.at(l)[s - m_model.lanes[l].sliceBegin];
}

} // namespace ks
