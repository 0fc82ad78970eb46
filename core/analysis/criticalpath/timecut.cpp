// SPDX-License-Identifier: MIT
#include "analysis/criticalpath/timecut.h"

#include <algorithm>
#include <map>

namespace ks {

namespace {

//! One thread's cut stretches: disjoint, by start, with the time cut before each.
struct ThreadCut {
    std::vector<TimeNs> start, end, before;

    //! The time cut before \a t.
    TimeNs until(TimeNs t) const
    {
        const auto i = size_t(std::upper_bound(start.begin(), start.end(), t) - start.begin());
        return i == 0 ? 0 : before[i - 1] + std::min(t, end[i - 1]) - start[i - 1];
    }
};

//! \a m's host lanes' stretches \a accepts, merged (a stretch inside another adds nothing).
std::map<LaneId, ThreadCut> threadCuts(
    const TraceModel &m, const std::function<bool(SliceId)> &accepts)
{
    std::map<LaneId, ThreadCut> out;
    for (LaneId lane = 0; lane < m.lanes.size(); ++lane) {
        if (m.lanes[lane].device)
            continue;
        ThreadCut c;
        for (SliceId s = m.lanes[lane].sliceBegin; s < m.lanes[lane].sliceEnd; ++s) {
            if (!accepts(s))
                continue;
            if (!c.end.empty() && m.slices.start[s] <= c.end.back()) {
                c.end.back() = std::max(c.end.back(), m.slices.end(s));
                continue;
            }
            c.before.push_back(c.end.empty() ? 0 : c.before.back() + c.end.back() - c.start.back());
            c.start.push_back(m.slices.start[s]);
            c.end.push_back(m.slices.end(s));
        }
        if (!c.start.empty())
            out.emplace(lane, std::move(c));
    }
    return out;
}

} // namespace

TimeCut cutTime(const JoinedGraph &joined,
    const std::vector<const TraceModel *> &models,
    const std::vector<TimeNs> &windowStarts,
    const std::function<bool(uint32_t rank, SliceId event)> &cut)
{
    const PathDag &dag = joined.dag();
    TimeCut out;
    out.node.assign(dag.nodeCount(), 0);
    std::vector<LaneId> lane(dag.nodeCount(), LaneId(~0u)); // ~0: not a cut thread's
    for (uint32_t r = 0; r < joined.rankCount(); ++r) {
        if (!models[r])
            continue;
        const TraceModel &m = *models[r];
        const auto threads = threadCuts(m, [&](SliceId s) { return cut(r, s); });
        const auto [first, last] = joined.nodesOf(r);
        for (uint32_t v = first; v < last; ++v) {
            const PathNode &node = joined.node(v);
            if (node.event == kNoSlice)
                continue;
            const auto at = threads.find(m.slices.lane[node.event]);
            if (at == threads.end())
                continue;
            lane[v] = at->first;
            out.node[v] = std::max<TimeNs>(
                0, at->second.until(node.time) - at->second.until(windowStarts[r]));
        }
    }
    const size_t hta = dag.edges().size();
    out.edge.assign(hta + dag.stepEdges().size(), 0);
    for (size_t i = 0; i < out.edge.size(); ++i) {
        const PathEdge &e = i < hta ? dag.edges()[i] : dag.stepEdges()[i - hta];
        if (lane[e.from] != LaneId(~0u) && lane[e.from] == lane[e.to]
            && joined.rankOfNode(e.from) == joined.rankOfNode(e.to))
            out.edge[i] = std::max<TimeNs>(0, out.node[e.to] - out.node[e.from]);
    }
    return out;
}

} // namespace ks
