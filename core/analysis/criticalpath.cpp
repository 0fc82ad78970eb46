// SPDX-License-Identifier: MIT
#include "analysis/criticalpath.h"

#include "link/gpuside.h"
#include "link/opnames.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <unordered_map>

namespace ks {

namespace {

/*!
 * HTA's window of one ProfilerStep (critical_path_analysis.py:1836): host events starting in it,
 * GPU events launched in it; with two steps or more, nothing from the last step's start on
 * (HTA's _filter_irrelevant_gpu_kernels, hta/common/trace.py:801) — except when the last step is
 * the one asked for, which HTA cannot analyse at all.
 */
bool windowOf(const OpGraph &graph, int64_t step, PathWindow &w, CriticalPath &path)
{
    const std::vector<ProfilerStep> &steps = graph.steps();
    if (steps.empty()) {
        w = {graph.model().minTime, graph.model().maxTime};
        return true;
    }
    const auto it = step == kNoValue
        ? steps.begin()
        : std::find_if(steps.begin(), steps.end(), [&](const auto &s) { return s.number == step; });
    if (it == steps.end()) {
        path.problem = "no ProfilerStep#" + std::to_string(step) + " in the trace";
        return false;
    }
    path.step = it->number;
    w = {it->start, it->end};
    if (steps.size() > 1 && it + 1 != steps.end())
        w.cutoff = steps.back().start;
    return true;
}

PathBound boundOf(const TraceModel &m, const PathEdge &e)
{
    switch (e.kind) {
    case PathEdgeKind::KernelKernel:
        return PathBound::KernelKernel;
    case PathEdgeKind::LaunchDelay:
        return PathBound::Launch;
    case PathEdgeKind::Span:
        if (e.charged == kNoSlice || !isGpuWork(m.slices.kind[e.charged]))
            return PathBound::Cpu;
        return isCommunication(m.sliceName(e.charged)) ? PathBound::GpuCommunication
                                                       : PathBound::GpuCompute;
    default:
        return PathBound::None;
    }
}

//! The event an edge's time is told under: HTA's attribution, a launch delay's GPU event.
SliceId ownerOf(const CriticalGraph &cg, const PathEdge &e)
{
    return e.kind == PathEdgeKind::LaunchDelay ? cg.nodes()[e.to].event : e.charged;
}

/*!
 * A value of each host slice that is its own where a rule gives one, else its parent's (the
 * fallback above the top), remembered for every slice a walk passes: a path through ops nested
 * 100 000 deep walks each level once, not once per op.
 */
template<class T> class UpwardMemo {
public:
    UpwardMemo(const SliceTable &slices, T fallback)
        : m_slices(slices)
        , m_fallback(fallback)
    {
    }

    //! \a own(slice) gives std::optional<T>; the same rule on every call.
    template<class Own> T of(SliceId slice, Own own)
    {
        m_chain.clear();
        T found = m_fallback;
        for (SliceId a = slice; a != kNoSlice; a = m_slices.parent[a]) {
            if (const auto known = m_memo.find(a); known != m_memo.end()) {
                found = known->second;
                break;
            }
            m_chain.push_back(a);
            if (const std::optional<T> decided = own(a)) {
                found = *decided;
                break;
            }
        }
        for (SliceId a : m_chain)
            m_memo[a] = found;
        return found;
    }

private:
    const SliceTable &m_slices;
    T m_fallback;
    std::unordered_map<SliceId, T> m_memo;
    std::vector<SliceId> m_chain;
};

//! The pair row and side of the path's events, as OpGraph::rowSideOf() and sideOfHostWork() give
//! them, each walk up done once (UpwardMemo).
class RowSides {
public:
    explicit RowSides(const OpGraph &graph)
        : m_graph(graph)
        , m_rowSides(graph.model().slices, OpGraph::RowSide {})
        , m_tops(graph.model().slices, kNoSlice)
    {
        for (uint32_t r = 0; r < graph.rows().size(); ++r)
            if (graph.rows()[r].forward != kNoSlice)
                m_forwardRow.emplace(graph.rows()[r].forward, OpGraph::RowSide {int(r), true});
    }

    //! The row of an event (a GPU event: of its launch) and its side.
    std::pair<int, std::string_view> of(SliceId event)
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
        // Unpaired work: the side of its outermost slice, so that a walk up is done once per
        // chain (a path down 100 000 nested ops would otherwise walk each level for each op).
        const SliceId top = m_tops.of(host, [&](SliceId a) {
            return m.slices.parent[a] == kNoSlice ? std::optional(a) : std::nullopt;
        });
        const auto known = m_topSide.try_emplace(top, GpuSide::Other);
        if (known.second)
            known.first->second = sideOfHostWork(m_graph, top);
        return {-1, gpuSideName(known.first->second)};
    }

private:
    //! rowSideOf() of a host slice: the innermost forward op or backward node around decides.
    OpGraph::RowSide rowSide(SliceId slice)
    {
        return m_rowSides.of(slice, [&](SliceId a) -> std::optional<OpGraph::RowSide> {
            if (const auto f = m_forwardRow.find(a); f != m_forwardRow.end())
                return f->second;
            if (const int n = m_graph.nodeOf(a); n >= 0)
                return OpGraph::RowSide {int(m_graph.nodes()[size_t(n)].row), false};
            return std::nullopt;
        });
    }

    const OpGraph &m_graph;
    std::unordered_map<SliceId, OpGraph::RowSide> m_forwardRow;
    UpwardMemo<OpGraph::RowSide> m_rowSides;
    UpwardMemo<SliceId> m_tops;
    std::unordered_map<SliceId, GpuSide> m_topSide;
};

} // namespace

std::optional<WhatIfChange> parseWhatIf(std::string_view spec)
{
    const size_t colon = spec.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == spec.size())
        return std::nullopt;
    const std::string number(spec.substr(colon + 1));
    char *end = nullptr;
    const double factor = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size() || !(factor >= 0 && factor <= 100))
        return std::nullopt;
    return WhatIfChange {std::string(spec.substr(0, colon)), factor};
}

std::string_view pathBoundName(PathBound bound)
{
    switch (bound) {
    case PathBound::Cpu:
        return "cpu_bound";
    case PathBound::GpuCompute:
        return "gpu_compute_bound";
    case PathBound::GpuCommunication:
        return "gpu_communication_bound";
    case PathBound::KernelKernel:
        return "gpu_kernel_kernel_overhead";
    case PathBound::Launch:
        return "gpu_kernel_launch_overhead";
    case PathBound::DataLoading:
        return "data_loading";
    default:
        return "";
    }
}

CriticalPathAnalysis::CriticalPathAnalysis(const OpGraph &graph, int64_t step)
    : m_ops(graph)
{
    PathWindow window;
    if (!windowOf(graph, step, window, m_path))
        return;
    m_path.windowStart = window.start;
    m_path.windowEnd = window.end;
    m_cg = std::make_unique<CriticalGraph>(graph, window);
    if (!m_cg->acyclic()) {
        m_path.problem = "the critical-path graph has a cycle";
        return;
    }
    if (m_cg->nodes().empty()) {
        m_path.problem = "no host op or GPU event in the window";
        return;
    }
    std::vector<TimeNs> weights;
    for (const PathEdge &e : m_cg->edges())
        weights.push_back(e.weight);
    describe(longestPath(weights, false));
}

/*!
 * The longest path by \a weights (one per edge of the graph), as the edge indices along it; with
 * \a causal, the launch → GPU event edges of zero weight take part (what-ifs). Like networkx's
 * dag_longest_path, which HTA calls: the first best predecessor, the first best end node.
 */
std::vector<uint32_t> CriticalPathAnalysis::longestPath(
    const std::vector<TimeNs> &weights, bool causal) const
{
    const CriticalGraph &cg = *m_cg;
    const size_t n = cg.nodes().size();
    const auto &edges = cg.edges();
    const auto &extra = cg.causalityEdges();
    std::vector<TimeNs> dist(n, 0);
    std::vector<uint32_t> via(n, ~0u);
    const auto &in = cg.incomingEdges();
    const auto &begin = cg.incomingBegin();
    std::vector<std::vector<uint32_t>> causalIn;
    if (causal) {
        causalIn.resize(n);
        for (uint32_t i = 0; i < extra.size(); ++i)
            causalIn[extra[i].to].push_back(i);
    }
    uint32_t best = cg.topologicalOrder().front();
    for (uint32_t v : cg.topologicalOrder()) {
        for (uint32_t j = begin[v]; j < begin[v + 1]; ++j) {
            const uint32_t e = in[j];
            const TimeNs d = dist[edges[e].from] + weights[e];
            if (via[v] == ~0u || d > dist[v]) {
                dist[v] = d;
                via[v] = e;
            }
        }
        if (causal)
            for (uint32_t c : causalIn[v])
                if (dist[extra[c].from] > dist[v]) {
                    dist[v] = dist[extra[c].from];
                    via[v] = uint32_t(edges.size() + c);
                }
        if (dist[v] > dist[best])
            best = v;
    }
    std::vector<uint32_t> path;
    for (uint32_t v = best; via[v] != ~0u;) {
        path.push_back(via[v]);
        v = via[v] < edges.size() ? edges[via[v]].from : extra[via[v] - edges.size()].from;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

void CriticalPathAnalysis::describe(const std::vector<uint32_t> &path)
{
    const TraceModel &m = m_ops.model();
    const CriticalGraph &cg = *m_cg;
    m_path.rowTime.assign(m_ops.rows().size(), 0);
    RowSides rowSides(m_ops);
    for (uint32_t i : path) {
        const PathEdge &e = cg.edges()[i];
        m_path.length += e.weight;
        const PathBound bound = boundOf(m, e);
        if (bound != PathBound::None)
            m_path.byBound[size_t(bound)] += e.weight;
        const SliceId owner = ownerOf(cg, e);
        if (e.weight == 0 || owner == kNoSlice)
            continue;
        const auto [row, sideName] = rowSides.of(owner);
        const PathSegment seg {
            owner, e.kind, bound, cg.nodes()[e.from].time, e.weight, row, sideName};
        if (seg.row >= 0)
            m_path.rowTime[size_t(seg.row)] += e.weight;
        auto side = std::find_if(m_path.bySide.begin(), m_path.bySide.end(),
            [&](const auto &p) { return p.first == seg.side; });
        if (side == m_path.bySide.end())
            m_path.bySide.emplace_back(seg.side, e.weight);
        else
            side->second += e.weight;
        m_path.segments.push_back(seg);
    }
}

/*!
 * The edges' weights with \a name's GPU work at \a factor of its time: GPU events named so, or
 * launched inside an op named so (the pair's forward op, or any op inside it).
 */
std::vector<TimeNs> CriticalPathAnalysis::weightsIf(std::string_view name, double factor) const
{
    const TraceModel &m = m_ops.model();
    UpwardMemo<bool> insideNamed(m.slices, false);
    auto isWorkOfName = [&](SliceId gpuEvent) {
        return m.sliceName(gpuEvent) == name
            || insideNamed.of(m_ops.launchOf(gpuEvent), [&](SliceId a) {
                   return m.sliceName(a) == name ? std::optional(true) : std::nullopt;
               });
    };
    std::vector<TimeNs> weights;
    weights.reserve(m_cg->edges().size());
    for (const PathEdge &e : m_cg->edges()) {
        const bool scaled = e.kind == PathEdgeKind::Span && e.charged != kNoSlice
            && isGpuWork(m.slices.kind[e.charged]) && isWorkOfName(e.charged);
        weights.push_back(scaled ? TimeNs(std::llround(double(e.weight) * factor)) : e.weight);
    }
    return weights;
}

TimeNs CriticalPathAnalysis::lengthIf(std::string_view name, double factor) const
{
    if (!m_path.problem.empty() || !m_cg)
        return 0;
    const std::vector<TimeNs> weights = weightsIf(name, factor);
    TimeNs length = 0;
    for (uint32_t e : longestPath(weights, true))
        length += e < weights.size() ? weights[e] : 0;
    return length;
}

std::vector<WhatIf> CriticalPathAnalysis::bestChanges(size_t count) const
{
    const TraceModel &m = m_ops.model();
    // The outermost op around a GPU event's launch: the pair's forward op where it has one.
    auto outermostOp = [&](SliceId gpuEvent) {
        SliceId op = gpuEvent;
        for (SliceId s = m_ops.launchOf(gpuEvent); s != kNoSlice; s = m.slices.parent[s])
            if (m.slices.kind[s] == EventKind::CpuOp)
                op = s;
        return op;
    };
    std::map<std::string, double> candidates; // name → factor
    for (const PathSegment &seg : m_path.segments) {
        if (seg.bound == PathBound::GpuCommunication)
            candidates.emplace(std::string(m.sliceName(seg.event)), 0.0);
        else if (seg.bound == PathBound::GpuCompute)
            candidates.emplace(std::string(m.sliceName(outermostOp(seg.event))), 0.5);
    }
    std::vector<WhatIf> out;
    out.reserve(candidates.size());
    for (const auto &[name, factor] : candidates)
        out.push_back({name, factor, lengthIf(name, factor)});
    std::stable_sort(out.begin(), out.end(),
        [](const WhatIf &a, const WhatIf &b) { return a.length < b.length; });
    if (out.size() > count)
        out.resize(count);
    return out;
}

} // namespace ks
