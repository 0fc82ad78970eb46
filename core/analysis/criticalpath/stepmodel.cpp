// SPDX-License-Identifier: MIT
#include "analysis/criticalpath/stepmodel.h"

#include "analysis/criticalpath/criticalgraph.h"

#include <algorithm>

namespace ks {

namespace {

constexpr uint32_t kNoEdge = StepStretch::kNoEdge;
//! A wait of GPU work longer than this is idle, not overhead (HTA's kernel-to-kernel threshold).
constexpr TimeNs kIdleGap = kKernelKernelThreshold;

bool isGpu(PathBound b)
{
    return b == PathBound::GpuCompute || b == PathBound::GpuCommunication;
}

} // namespace

StepModel::StepModel(const JoinedGraph &joined,
    const std::vector<TimeNs> &offsets,
    const std::vector<TimeNs> &stepStarts,
    const std::vector<TimeNs> &stepEnds,
    const std::vector<bool> &hasWindow)
    : m_joined(joined)
    , m_rankStart(stepStarts)
{
    const PathDag &dag = joined.dag();
    const size_t n = dag.nodeCount();
    m_time.resize(n);
    for (uint32_t v = 0; v < n; ++v)
        m_time[v] = joined.node(v).time + offsets[joined.rankOfNode(v)];
    const uint32_t edges = uint32_t(dag.edges().size() + dag.stepEdges().size());
    m_inBegin.assign(n + 1, 0);
    for (uint32_t i = 0; i < edges; ++i)
        ++m_inBegin[edge(i).to + 1];
    for (size_t v = 0; v < n; ++v)
        m_inBegin[v + 1] += m_inBegin[v];
    m_in.resize(edges);
    std::vector<uint32_t> fill(m_inBegin.begin(), m_inBegin.end() - 1);
    for (uint32_t i = 0; i < edges; ++i)
        m_in[fill[edge(i).to]++] = i;

    // A blocking call's own time is mostly its wait: it holds nothing back by itself.
    m_waits.resize(edges);
    for (uint32_t i = 0; i < edges; ++i)
        m_waits[i] = boundOf(i) == PathBound::SyncWait;
    // The binding dependency: the predecessor that ended last, not after the node itself.
    m_binding.assign(n, kNoEdge);
    for (uint32_t v = 0; v < n; ++v) {
        for (uint32_t j = m_inBegin[v]; j < m_inBegin[v + 1]; ++j) {
            const uint32_t i = m_in[j];
            const TimeNs t = m_time[edge(i).from];
            const uint32_t b = m_binding[v];
            const TimeNs bt = b == kNoEdge ? 0 : m_time[edge(b).from];
            const bool fits = t <= m_time[v];
            const bool bFits = b != kNoEdge && bt <= m_time[v];
            if (b == kNoEdge || (fits && (!bFits || t > bt)) || (!fits && !bFits && t < bt))
                m_binding[v] = i;
        }
    }
    bool first = true;
    for (size_t r = 0; r < hasWindow.size(); ++r) {
        if (!hasWindow[r])
            continue;
        m_start = first ? stepStarts[r] : std::min(m_start, stepStarts[r]);
        m_end = first ? stepEnds[r] : std::max(m_end, stepEnds[r]);
        first = false;
    }
    for (uint32_t v = 0; v < n; ++v) {
        if (m_time[v] > m_time[m_last])
            m_last = v;
        m_start = std::min(m_start, m_time[v]); // a GPU event before its launch (clock skew)
    }
    if (n > 0)
        m_end = std::max(m_end, m_time[m_last]);
}

const PathEdge &StepModel::edge(uint32_t i) const
{
    const PathDag &dag = m_joined.dag();
    return i < dag.edges().size() ? dag.edges()[i] : dag.stepEdges()[i - dag.edges().size()];
}

TimeNs StepModel::replayWeight(uint32_t i, TimeNs weight, TimeNs cut) const
{
    const PathEdge &e = edge(i);
    const TimeNs gap = m_time[e.to] - m_time[e.from] - cut;
    if (m_binding[e.to] == i)
        return gap + (weight - e.weight);
    // Work keeps its own time; a dependency that did not bind asks only that it ended first.
    return e.kind == PathEdgeKind::Span && !m_waits[i] ? std::max<TimeNs>(0, weight - cut)
                                                       : std::min<TimeNs>(0, gap);
}

PathBound StepModel::boundOf(uint32_t i) const
{
    const PathEdge &e = edge(i);
    const PathGraph &g = *m_joined.graph(m_joined.rankOfEdge(i));
    const PathNode &to = m_joined.node(e.to);
    const TimeNs gap = m_time[e.to] - m_time[e.from];
    const bool toGpu = isGpu(g.spanBound(to.event));
    switch (e.kind) {
    case PathEdgeKind::Span: {
        const PathBound b = g.spanBound(e.charged);
        return !isGpu(b) && isBlockingSyncCall(g.eventName(e.charged)) ? PathBound::SyncWait : b;
    }
    case PathEdgeKind::LaunchDelay: // a long wait after the launch is on nothing recorded
        return gap < kIdleGap ? PathBound::Launch : PathBound::Idle;
    case PathEdgeKind::KernelKernel:
        return gap < kIdleGap ? PathBound::KernelKernel : PathBound::Idle;
    case PathEdgeKind::Sync:
        if (!toGpu)
            return PathBound::SyncWait;
        return gap < kIdleGap ? PathBound::KernelKernel : PathBound::Idle;
    default: // one op after another on a thread, or a call waiting for the runtime's lock
        return to.start ? PathBound::Idle : PathBound::Cpu;
    }
}

SliceId StepModel::eventOf(uint32_t i) const
{
    const PathEdge &e = edge(i);
    const bool charged = e.kind == PathEdgeKind::Span
        || (e.kind == PathEdgeKind::KernelKernel && boundOf(i) == PathBound::KernelKernel);
    // A launch delay is told under the GPU event launched, idle under the event that waited.
    return charged && e.charged != kNoSlice ? e.charged : m_joined.node(e.to).event;
}

std::vector<StepStretch> StepModel::path() const
{
    std::vector<StepStretch> out;
    if (m_time.empty())
        return out;
    uint32_t v = m_last;
    TimeNs cursor = m_end;
    auto push = [&](uint32_t i, SliceId event, TimeNs from, PathBound bound, uint32_t rank) {
        from = std::min(from, cursor);
        const bool walked = i != kNoEdge;
        if (from < cursor)
            out.push_back({i, v, walked ? edge(i).kind : PathEdgeKind::Dependency, event, from,
                cursor - from, bound, rank, walked ? m_joined.rankOfNode(edge(i).from) : rank});
        cursor = from;
    };
    push(kNoEdge, m_joined.node(v).event, m_time[v], PathBound::Idle, m_joined.rankOfNode(v));
    for (uint32_t i = m_binding[v]; i != kNoEdge; i = m_binding[v]) {
        push(i, eventOf(i), m_time[edge(i).from], boundOf(i), m_joined.rankOfEdge(i));
        v = edge(i).from;
    }
    const uint32_t rank = m_joined.rankOfNode(v);
    const SliceId event = m_joined.node(v).event;
    push(kNoEdge, event, m_rankStart[rank], PathBound::Idle, rank);
    push(kNoEdge, event, m_start, PathBound::LateStart, rank);
    std::reverse(out.begin(), out.end());
    return out;
}

TimeNs StepModel::replay(const std::vector<TimeNs> &weights,
    const std::vector<bool> &dropped,
    std::optional<uint32_t> onTime,
    const TimeCut *cut) const
{
    if (m_time.empty())
        return 0;
    const PathDag &dag = m_joined.dag();
    const TimeNs late = onTime ? std::max<TimeNs>(0, m_rankStart[*onTime] - m_start) : 0;
    std::vector<TimeNs> t(m_time.size());
    TimeNs end = 0;
    for (uint32_t v : dag.order()) {
        // Work that waits on nothing starts when it did, a late rank's that much earlier.
        t[v] = m_time[v] - (onTime && m_joined.rankOfNode(v) == *onTime ? late : 0)
            - (cut ? cut->node[v] : 0);
        bool reached = false;
        for (uint32_t j = m_inBegin[v]; j < m_inBegin[v + 1]; ++j) {
            const uint32_t i = m_in[j];
            if (!dropped.empty() && dropped[i])
                continue;
            const TimeNs w = i < weights.size() ? weights[i] : edge(i).weight;
            const TimeNs reach = t[edge(i).from] + replayWeight(i, w, cut ? cut->edge[i] : 0);
            t[v] = reached ? std::max(t[v], reach) : reach;
            reached = true;
        }
        end = std::max(end, t[v]);
    }
    // Time after the last work until the step's end (the CPU's step outlasting it) stays.
    end = std::max(end, t[m_last] + (m_end - m_time[m_last]));
    return end - m_start;
}

std::vector<TimeNs> StepModel::slack() const
{
    const PathDag &dag = m_joined.dag();
    // Room before the step's end; none for the last work, whose delay the end follows (replay()).
    std::vector<TimeNs> floatOf(m_time.size());
    for (uint32_t v = 0; v < m_time.size(); ++v)
        floatOf[v] = v == m_last ? 0 : m_end - m_time[v];
    const std::vector<uint32_t> &order = dag.order();
    for (size_t k = order.size(); k-- > 0;) { // successors first
        const uint32_t v = order[k];
        for (uint32_t j = m_inBegin[v]; j < m_inBegin[v + 1]; ++j) {
            const uint32_t i = m_in[j];
            const PathEdge &e = edge(i);
            const TimeNs room
                = std::max<TimeNs>(0, m_time[e.to] - m_time[e.from] - replayWeight(i, e.weight));
            floatOf[e.from] = std::min(floatOf[e.from], floatOf[e.to] + room);
        }
    }
    // A rank's own work is what starts on it: a collective's end there is the last arriver's.
    std::vector<TimeNs> out(m_joined.rankCount(), kNoValue);
    for (uint32_t v = 0; v < m_time.size(); ++v) {
        if (!m_joined.node(v).start)
            continue;
        TimeNs &s = out[m_joined.rankOfNode(v)];
        s = s == kNoValue ? floatOf[v] : std::min(s, floatOf[v]);
    }
    return out;
}

} // namespace ks
