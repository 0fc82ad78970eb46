// SPDX-License-Identifier: MIT
#include "analysis/criticalpath/joinedgraph.h"

#include <algorithm>
#include <map>

namespace ks {

namespace {

constexpr uint32_t kNone = ~0u;

uint64_t keyOf(uint32_t rank, SliceId kernel)
{
    return uint64_t(rank) << 32 | kernel;
}

//! Whether a collective's kernels on two ranks or more are all in the graphs.
bool joinable(const Collective &c, const std::vector<const PathGraph *> &graphs)
{
    if (c.kernels.size() < 2)
        return false;
    return std::all_of(c.kernels.begin(), c.kernels.end(), [&](const CollectiveKernel &k) {
        const PathGraph *g = graphs[k.rankIndex];
        return g && g->startNode(k.kernel) != kNone && g->endNode(k.kernel) != kNone;
    });
}

} // namespace

JoinedGraph::JoinedGraph(const std::vector<const PathGraph *> &graphs,
    const CollectiveMatch *match,
    PathModel model,
    const std::function<void(uint32_t)> &copied)
    : m_graphs(graphs)
{
    m_nodeBegin.push_back(0);
    for (const PathGraph *g : graphs)
        m_nodeBegin.push_back(m_nodeBegin.back() + (g ? uint32_t(g->nodes().size()) : 0));
    if (match)
        for (size_t i = 0; i < match->collectives.size(); ++i)
            for (const CollectiveKernel &k : match->collectives[i].kernels)
                m_collective.emplace(keyOf(k.rankIndex, k.kernel), int(i));
    const bool across = match
        && std::any_of(match->collectives.begin(), match->collectives.end(),
            [&](const Collective &c) { return joinable(c, graphs); });
    if (graphs.size() == 1 && graphs[0] && !across && graphs[0]->dag().indexed()) {
        m_single = &graphs[0]->dag();
        m_edgeBegin = {0, uint32_t(m_single->edges().size())};
        m_stepEdgeBegin = {0, uint32_t(m_single->stepEdges().size())};
        return;
    }
    m_dag = PathDag(m_nodeBegin.back());
    join(match, model, copied);
    m_dag.finish(model == PathModel::Hta); // the step model indexes the edges its own way
}

/*!
 * Copies the ranks' edges, each waiting rank's own span of a collective's kernel left out (HTA's
 * model) or weighing the collective's work (the step model), and adds the edges from the last
 * arrivers.
 */
void JoinedGraph::join(
    const CollectiveMatch *match, PathModel model, const std::function<void(uint32_t)> &copied)
{
    WaitingSpans waiting;
    std::vector<PathEdge> across;
    static const std::vector<Collective> kNoCollectives;
    for (const Collective &c : match ? match->collectives : kNoCollectives) {
        if (!joinable(c, m_graphs))
            continue;
        const auto last = std::find_if(c.kernels.begin(), c.kernels.end(),
            [&](const CollectiveKernel &k) { return k.rankIndex == c.lastRankIndex; });
        const uint32_t from
            = nodeOf(last->rankIndex, m_graphs[last->rankIndex]->startNode(last->kernel));
        for (const CollectiveKernel &k : c.kernels) {
            if (&k == &*last)
                continue;
            const TimeNs work = std::max<TimeNs>(0, k.start + k.dur - c.lastStart);
            waiting.emplace(std::pair(k.rankIndex, k.kernel), work);
            across.push_back({.from = from,
                .to = nodeOf(k.rankIndex, m_graphs[k.rankIndex]->endNode(k.kernel)),
                .weight = work,
                .charged = k.kernel,
                .kind = PathEdgeKind::Span});
            m_acrossRank.push_back(k.rankIndex);
            if (model == PathModel::Step) { // nor can it end before this rank arrives
                const uint32_t start
                    = nodeOf(k.rankIndex, m_graphs[k.rankIndex]->startNode(k.kernel));
                across.push_back({.from = start,
                    .to = nodeOf(last->rankIndex, m_graphs[last->rankIndex]->endNode(last->kernel)),
                    .weight = last->dur,
                    .charged = last->kernel,
                    .kind = PathEdgeKind::Span});
                m_acrossRank.push_back(last->rankIndex);
            }
        }
    }
    size_t edges = across.size(), stepEdges = 0;
    for (const PathGraph *g : m_graphs)
        if (g) {
            edges += g->dag().edges().size();
            stepEdges += g->dag().stepEdges().size();
        }
    m_dag.reserve(edges, stepEdges);
    for (uint32_t r = 0; r < m_graphs.size(); ++r) {
        m_edgeBegin.push_back(uint32_t(m_dag.edges().size()));
        m_stepEdgeBegin.push_back(uint32_t(m_dag.stepEdges().size()));
        if (!m_graphs[r])
            continue;
        addRankEdges(r, waiting, model);
        if (copied)
            copied(r);
    }
    m_stepEdgeBegin.push_back(uint32_t(m_dag.stepEdges().size()));
    m_edgeBegin.push_back(uint32_t(m_dag.edges().size()));
    for (const PathEdge &e : across)
        m_dag.add(e);
}

void JoinedGraph::addRankEdges(uint32_t r, const WaitingSpans &waiting, PathModel model)
{
    const PathGraph &g = *m_graphs[r];
    for (PathEdge e : g.dag().edges()) {
        const PathNode &start = g.nodes()[e.from];
        const auto wait
            = e.kind == PathEdgeKind::Span && start.start && e.to == g.endNode(start.event)
            ? waiting.find({r, start.event})
            : waiting.end();
        if (wait != waiting.end() && model == PathModel::Hta)
            continue;
        if (wait != waiting.end())
            e.weight = wait->second;
        e.from += m_nodeBegin[r];
        e.to += m_nodeBegin[r];
        m_dag.add(e);
    }
    for (PathEdge e : g.dag().stepEdges()) {
        e.from += m_nodeBegin[r];
        e.to += m_nodeBegin[r];
        m_dag.addStepEdge(e);
    }
}

uint32_t JoinedGraph::rankOfNode(uint32_t node) const
{
    return uint32_t(
               std::upper_bound(m_nodeBegin.begin(), m_nodeBegin.end(), node) - m_nodeBegin.begin())
        - 1;
}

uint32_t JoinedGraph::rankOfEdge(uint32_t edge) const
{
    const uint32_t edges = uint32_t(dag().edges().size());
    if (edge >= edges)
        return uint32_t(
                   std::upper_bound(m_stepEdgeBegin.begin(), m_stepEdgeBegin.end(), edge - edges)
                   - m_stepEdgeBegin.begin())
            - 1;
    const uint32_t acrossBegin = m_edgeBegin.back();
    if (edge >= acrossBegin)
        return m_acrossRank[edge - acrossBegin];
    return uint32_t(
               std::upper_bound(m_edgeBegin.begin(), m_edgeBegin.end(), edge) - m_edgeBegin.begin())
        - 1;
}

const PathNode &JoinedGraph::node(uint32_t node) const
{
    const uint32_t r = rankOfNode(node);
    return m_graphs[r]->nodes()[node - m_nodeBegin[r]];
}

int JoinedGraph::collectiveOf(uint32_t rank, SliceId kernel) const
{
    const auto it = m_collective.find(keyOf(rank, kernel));
    return it == m_collective.end() ? -1 : it->second;
}

} // namespace ks
