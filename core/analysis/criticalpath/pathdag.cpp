// SPDX-License-Identifier: MIT
#include "analysis/criticalpath/pathdag.h"

#include <algorithm>

namespace ks {

namespace {
constexpr uint32_t kNone = ~0u;
} // namespace

std::string_view pathEdgeKindName(PathEdgeKind kind)
{
    switch (kind) {
    case PathEdgeKind::Span:
        return "operator";
    case PathEdgeKind::LaunchDelay:
        return "launch_delay";
    case PathEdgeKind::KernelKernel:
        return "kernel_kernel_delay";
    case PathEdgeKind::Sync:
        return "sync_dependency";
    default:
        return "dependency";
    }
}

void PathDag::finish(bool walked)
{
    if (walked)
        indexIncoming();
    orderNodes();
}

void PathDag::indexIncoming()
{
    const size_t n = m_nodeCount;
    m_inBegin.assign(n + 1, 0);
    for (const PathEdge &e : m_edges)
        ++m_inBegin[e.to + 1];
    for (size_t i = 0; i < n; ++i)
        m_inBegin[i + 1] += m_inBegin[i];
    m_incoming.resize(m_edges.size());
    std::vector<uint32_t> fill(m_inBegin.begin(), m_inBegin.end() - 1);
    for (uint32_t i = 0; i < m_edges.size(); ++i)
        m_incoming[fill[m_edges[i].to]++] = i;
}

// Kahn's, over the step model's edges too; a node's successors in the order of the edges (CSR: a
// thousand ranks' nodes, each with a vector of its own, would cost more than the edges).
void PathDag::orderNodes()
{
    const size_t n = m_nodeCount;
    std::vector<uint32_t> nextBegin(n + 1, 0), pending(n, 0);
    for (const auto *list : {&m_edges, &m_step})
        for (const PathEdge &e : *list) {
            ++nextBegin[e.from + 1];
            ++pending[e.to];
        }
    for (size_t i = 0; i < n; ++i)
        nextBegin[i + 1] += nextBegin[i];
    std::vector<uint32_t> next(nextBegin.back());
    std::vector<uint32_t> fill(nextBegin.begin(), nextBegin.end() - 1);
    for (const auto *list : {&m_edges, &m_step})
        for (const PathEdge &e : *list)
            next[fill[e.from]++] = e.to;
    m_order.clear();
    m_order.reserve(n);
    for (uint32_t i = 0; i < n; ++i)
        if (pending[i] == 0)
            m_order.push_back(i);
    for (size_t k = 0; k < m_order.size(); ++k)
        for (uint32_t j = nextBegin[m_order[k]]; j < nextBegin[m_order[k] + 1]; ++j)
            if (--pending[next[j]] == 0)
                m_order.push_back(next[j]);
    m_acyclic = m_order.size() == n;
}

void PathDag::releaseIndex()
{
    for (auto *v : {&m_order, &m_incoming, &m_inBegin})
        std::vector<uint32_t>().swap(*v);
}

PathDistances PathDag::longest(const std::vector<TimeNs> &weights) const
{
    PathDistances d {std::vector<TimeNs>(m_nodeCount, 0), std::vector<uint32_t>(m_nodeCount, kNone),
        m_order.empty() ? 0 : m_order.front()};
    for (uint32_t v : m_order) {
        for (uint32_t j = m_inBegin[v]; j < m_inBegin[v + 1]; ++j) {
            const uint32_t e = m_incoming[j];
            const TimeNs reach = d.to[m_edges[e].from] + weights[e];
            if (d.via[v] == kNone || reach > d.to[v]) {
                d.to[v] = reach;
                d.via[v] = e;
            }
        }
        if (d.to[v] > d.to[d.last])
            d.last = v;
    }
    return d;
}

std::vector<uint32_t> PathDag::walkBack(const PathDistances &d) const
{
    std::vector<uint32_t> path;
    for (uint32_t v = d.last; v < d.via.size() && d.via[v] != kNone;) {
        const uint32_t e = d.via[v];
        path.push_back(e);
        v = m_edges[e].from;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

} // namespace ks
