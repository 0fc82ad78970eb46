// SPDX-License-Identifier: MIT
#include "analysis/criticalpath.h"

#include "analysis/pathowners.h"
#include "link/gpuside.h"
#include "link/opnames.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

namespace ks {

namespace {

/*!
 * HTA's window of one ProfilerStep (critical_path_analysis.py:1836): host events starting in it,
 * GPU events launched in it; with two steps or more, nothing from the last step's start on
 * (HTA's _filter_irrelevant_gpu_kernels, hta/common/trace.py:801) — except when the last step is
 * the one asked for, which HTA cannot analyse at all.
 */
bool windowOf(const OpGraph &graph, int64_t step, PathWindow &w, std::string &problem)
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
        problem = missingStepProblem(step);
        return false;
    }
    w = {it->start, it->end};
    if (steps.size() > 1 && it + 1 != steps.end())
        w.cutoff = steps.back().start;
    return true;
}

PathBound boundOf(const PathGraph &graph, const PathEdge &e)
{
    switch (e.kind) {
    case PathEdgeKind::KernelKernel:
        return PathBound::KernelKernel;
    case PathEdgeKind::LaunchDelay:
        return PathBound::Launch;
    case PathEdgeKind::Span:
        return graph.spanBound(e.charged);
    default:
        return PathBound::None;
    }
}

//! The event an edge's time is told under: HTA's attribution, a launch delay's GPU event.
SliceId ownerOf(const JoinedGraph &joined, const PathEdge &e)
{
    return e.kind == PathEdgeKind::LaunchDelay ? joined.node(e.to).event : e.charged;
}

} // namespace

std::string missingStepProblem(int64_t step)
{
    return "no ProfilerStep#" + std::to_string(step) + " in the trace";
}

int64_t runPathStep(int64_t asked, const std::vector<int64_t> &firstSteps)
{
    const auto first = std::find_if(
        firstSteps.begin(), firstSteps.end(), [](int64_t s) { return s != kNoValue; });
    if (first == firstSteps.end())
        return kNoValue;
    return asked != kNoValue ? asked : *first;
}

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

CriticalPathAnalysis::CriticalPathAnalysis(const OpGraph &graph, const PathQuery &query)
    : m_ranks {{&graph, -graph.model().minTime, 0}}
{
    analyse(nullptr, query);
}

CriticalPathAnalysis::CriticalPathAnalysis(
    const std::vector<PathRankInput> &ranks, const CollectiveMatch &match, const PathQuery &query)
    : m_ranks(ranks)
{
    analyse(&match, query);
}

CriticalPathAnalysis::CriticalPathAnalysis(const std::vector<PathRankInput> &ranks,
    std::vector<PathRankGraph> graphs,
    int64_t step,
    const CollectiveMatch &match)
    : m_ranks(ranks)
{
    walk(std::move(graphs), step, &match);
}

CriticalPathAnalysis::~CriticalPathAnalysis() = default;

void CriticalPathAnalysis::analyse(const CollectiveMatch *match, const PathQuery &query)
{
    std::vector<int64_t> firstSteps;
    for (const PathRankInput &r : m_ranks)
        firstSteps.push_back(r.graph->steps().empty() ? kNoValue : r.graph->steps().front().number);
    const int64_t step = runPathStep(query.step, firstSteps);
    std::vector<PathRankGraph> graphs(m_ranks.size());
    for (size_t r = 0; r < m_ranks.size(); ++r) {
        PathWindow window;
        if (!windowOf(*m_ranks[r].graph, step, window, graphs[r].problem))
            continue;
        graphs[r].windowStart = window.start;
        graphs[r].windowEnd = window.end;
        graphs[r].graph
            = std::make_unique<CriticalGraph>(*m_ranks[r].graph, window, query.dataLoading);
    }
    walk(std::move(graphs), step, match);
}

//! The longest path through \a graphs joined by \a match's collectives, told.
void CriticalPathAnalysis::walk(
    std::vector<PathRankGraph> graphs, int64_t step, const CollectiveMatch *match)
{
    m_path.step = step;
    m_path.ranks.resize(m_ranks.size());
    std::vector<const PathGraph *> raw;
    for (size_t r = 0; r < m_ranks.size(); ++r) {
        RankOnPath &rank = m_path.ranks[r];
        rank.problem = std::move(graphs[r].problem);
        rank.windowStart = graphs[r].windowStart;
        rank.windowEnd = graphs[r].windowEnd;
        m_graphs.push_back(std::move(graphs[r].graph));
        raw.push_back(m_graphs.back().get());
    }
    const auto noWindow = [](const RankOnPath &r) { return !r.problem.empty(); };
    if (std::all_of(m_path.ranks.begin(), m_path.ranks.end(), noWindow)) {
        m_path.problem = m_path.ranks[0].problem;
        return;
    }
    m_joined = std::make_unique<JoinedGraph>(raw, match);
    const PathDag &dag = m_joined->dag();
    if (!dag.acyclic() || dag.nodeCount() == 0) {
        const bool ranksAcyclic = std::all_of(
            raw.begin(), raw.end(), [](const PathGraph *g) { return !g || g->dag().acyclic(); });
        m_path.problem = dag.nodeCount() == 0 ? "no host op or GPU event in the window"
            : ranksAcyclic
            ? "joining the ranks by their collectives made a cycle (collectives matched by "
              "order may be mismatched: see --export-collectives)"
            : "the critical-path graph has a cycle";
        m_joined.reset();
        return;
    }
    std::vector<TimeNs> weights;
    weights.reserve(dag.edges().size());
    for (const PathEdge &e : dag.edges())
        weights.push_back(e.weight);
    describe(dag.walkBack(dag.longest(weights, false)));
    if (match)
        findSlack(*match);
    if (!tracesAtHand())
        m_joined.reset(); // only what-ifs walk it again: a thousand ranks' copy is not kept
}

void CriticalPathAnalysis::describe(const std::vector<uint32_t> &path)
{
    const JoinedGraph &joined = *m_joined;
    // Each rank's events told at once: a trace's graph walks up its ops once for all of them.
    std::vector<std::vector<SliceId>> owners(m_ranks.size());
    for (uint32_t i : path) {
        const PathEdge &e = joined.dag().edges()[i];
        if (const SliceId owner = ownerOf(joined, e); e.weight > 0 && owner != kNoSlice)
            owners[joined.rankOfEdge(i)].push_back(owner);
    }
    std::vector<std::vector<RowSide>> rowSides(m_ranks.size());
    for (size_t r = 0; r < m_ranks.size(); ++r)
        if (m_graphs[r]) {
            rowSides[r] = m_graphs[r]->rowSides(owners[r]);
            m_path.ranks[r].rowTime.assign(m_graphs[r]->rowCount(), 0);
        }
    std::vector<size_t> told(m_ranks.size(), 0);
    for (uint32_t i : path) {
        const PathEdge &e = joined.dag().edges()[i];
        const uint32_t rank = joined.rankOfEdge(i);
        m_path.length += e.weight;
        const PathBound bound = boundOf(*m_graphs[rank], e);
        if (bound != PathBound::None)
            m_path.byBound[size_t(bound)] += e.weight;
        const SliceId owner = ownerOf(joined, e);
        if (e.weight == 0 || owner == kNoSlice)
            continue;
        const auto [row, sideName] = rowSides[rank][told[rank]++];
        // Across ranks an edge starts on the last arriver: its time is the end's rank's.
        const PathSegment seg {owner, e.kind, bound, joined.node(e.to).time - e.weight, e.weight,
            row, sideName, rank, joined.collectiveOf(rank, owner), joined.rankOfNode(e.from)};
        RankOnPath &onPath = m_path.ranks[rank];
        onPath.time += e.weight;
        if (seg.row >= 0)
            onPath.rowTime[size_t(seg.row)] += e.weight;
        auto side = std::find_if(m_path.bySide.begin(), m_path.bySide.end(),
            [&](const auto &p) { return p.first == seg.side; });
        if (side == m_path.bySide.end())
            m_path.bySide.emplace_back(seg.side, e.weight);
        else
            side->second += e.weight;
        m_path.segments.push_back(seg);
    }
}

//! Each rank's slack: its least wait at the collectives the path passes through.
void CriticalPathAnalysis::findSlack(const CollectiveMatch &match)
{
    std::vector<bool> passed(match.collectives.size(), false);
    for (const PathSegment &seg : m_path.segments)
        if (seg.collective >= 0)
            passed[size_t(seg.collective)] = true;
    for (size_t c = 0; c < passed.size(); ++c) {
        if (!passed[c])
            continue;
        const Collective &collective = match.collectives[c];
        for (const CollectiveKernel &k : collective.kernels) {
            TimeNs &slack = m_path.ranks[k.rankIndex].slack;
            const TimeNs wait = collective.wait(k);
            slack = slack == kNoValue ? wait : std::min(slack, wait);
        }
    }
}

/*!
 * The edges' weights with \a name's GPU work at \a factor of its time: GPU events named so, or
 * launched inside an op named so (the pair's forward op, or any op inside it).
 */
std::vector<TimeNs> CriticalPathAnalysis::weightsIf(std::string_view name, double factor) const
{
    std::vector<UpwardMemo<bool>> insideNamed;
    for (const PathRankInput &r : m_ranks)
        insideNamed.emplace_back(r.graph->model().slices, false);
    auto isWorkOfName = [&](uint32_t rank, SliceId gpuEvent) {
        const OpGraph &g = *m_ranks[rank].graph;
        const TraceModel &m = g.model();
        return m.sliceName(gpuEvent) == name
            || insideNamed[rank].of(g.launchOf(gpuEvent), [&](SliceId a) {
                   return m.sliceName(a) == name ? std::optional(true) : std::nullopt;
               });
    };
    const std::vector<PathEdge> &edges = m_joined->dag().edges();
    std::vector<TimeNs> weights;
    weights.reserve(edges.size());
    for (uint32_t i = 0; i < edges.size(); ++i) {
        const PathEdge &e = edges[i];
        const uint32_t rank = m_joined->rankOfEdge(i);
        const bool scaled = e.kind == PathEdgeKind::Span && e.charged != kNoSlice
            && isGpuWork(m_ranks[rank].graph->model().slices.kind[e.charged])
            && isWorkOfName(rank, e.charged);
        weights.push_back(scaled ? TimeNs(std::llround(double(e.weight) * factor)) : e.weight);
    }
    return weights;
}

bool CriticalPathAnalysis::tracesAtHand() const
{
    return std::all_of(
        m_ranks.begin(), m_ranks.end(), [](const PathRankInput &r) { return r.graph; });
}

TimeNs CriticalPathAnalysis::lengthIf(std::string_view name, double factor) const
{
    if (!m_joined || !tracesAtHand())
        return 0;
    const PathDistances d = m_joined->dag().longest(weightsIf(name, factor), true);
    return d.to.empty() ? 0 : d.to[d.last];
}

std::vector<WhatIf> CriticalPathAnalysis::bestChanges(size_t count) const
{
    if (!tracesAtHand())
        return {};
    // The outermost op around a GPU event's launch: the pair's forward op where it has one.
    auto outermostOp = [&](const OpGraph &g, SliceId gpuEvent) {
        SliceId op = gpuEvent;
        for (SliceId s = g.launchOf(gpuEvent); s != kNoSlice; s = g.model().slices.parent[s])
            if (g.model().slices.kind[s] == EventKind::CpuOp)
                op = s;
        return op;
    };
    std::map<std::string, double> candidates; // name → factor
    for (const PathSegment &seg : m_path.segments) {
        const OpGraph &g = *m_ranks[seg.rank].graph;
        if (seg.bound == PathBound::GpuCommunication)
            candidates.emplace(std::string(g.model().sliceName(seg.event)), 0.0);
        else if (seg.bound == PathBound::GpuCompute)
            candidates.emplace(std::string(g.model().sliceName(outermostOp(g, seg.event))), 0.5);
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
