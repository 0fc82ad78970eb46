// SPDX-License-Identifier: MIT
#include "analysis/criticalpath/criticalpath.h"

#include "analysis/criticalpath/pathnotes.h"
#include "analysis/criticalpath/pathowners.h"
#include "base/closenames.h"
#include "base/heapreuse.h"
#include "link/gpuside.h"
#include "link/opnames.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

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
    case PathBound::Idle:
        return "idle";
    case PathBound::LateStart:
        return "late_start";
    case PathBound::SyncWait:
        return "sync_wait";
    default:
        return "";
    }
}

std::string_view pathModelName(PathModel model)
{
    return model == PathModel::Hta ? "hta" : "step";
}

std::optional<PathModel> pathModelNamed(std::string_view name)
{
    for (PathModel m : {PathModel::Step, PathModel::Hta})
        if (pathModelName(m) == name)
            return m;
    return std::nullopt;
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
    const CollectiveMatch &match,
    PathModel model)
    : m_ranks(ranks)
{
    walk(std::move(graphs), step, &match, model);
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
        graphs[r].graph = std::make_unique<CriticalGraph>(
            *m_ranks[r].graph, window, query.dataLoading, query.assumeStreamOrder);
    }
    walk(std::move(graphs), step, match, query.model);
    if (tracesAtHand())
        m_path.notes = unrecordedDependencies(m_path, m_ranks);
}

//! The path through \a graphs joined by \a match's collectives, told.
void CriticalPathAnalysis::walk(
    std::vector<PathRankGraph> graphs, int64_t step, const CollectiveMatch *match, PathModel model)
{
    m_path.step = step;
    m_path.model = model;
    m_path.ranks.resize(m_ranks.size());
    std::vector<const PathGraph *> raw;
    std::vector<TimeNs> offsets, stepStarts, stepEnds;
    std::vector<bool> hasWindow;
    for (size_t r = 0; r < m_ranks.size(); ++r) {
        RankOnPath &rank = m_path.ranks[r];
        rank.problem = std::move(graphs[r].problem);
        rank.windowStart = graphs[r].windowStart;
        rank.windowEnd = graphs[r].windowEnd;
        m_graphs.push_back(std::move(graphs[r].graph));
        raw.push_back(m_graphs.back().get());
        offsets.push_back(m_ranks[r].clockOffset);
        stepStarts.push_back(rank.windowStart + m_ranks[r].clockOffset);
        stepEnds.push_back(rank.windowEnd + m_ranks[r].clockOffset);
        hasWindow.push_back(rank.problem.empty());
    }
    if (std::find(hasWindow.begin(), hasWindow.end(), true) == hasWindow.end()) {
        m_path.problem = m_path.ranks[0].problem;
        return;
    }
    // Without the traces (a run from databases, which no export writes as a database again),
    // this walk is the only reader of the ranks' edges: each rank's go once copied into the
    // joined graph, a thousand ranks' graphs being held at once.
    std::function<void(uint32_t)> copied;
    if (!tracesAtHand())
        copied = [this](uint32_t r) { m_graphs[r]->releaseEdges(); };
    m_joined = std::make_unique<JoinedGraph>(raw, match, model, copied);
    if (copied)
        returnFreedMemory(); // the ranks' edges were small blocks on the reading threads' heaps
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
    m_step = std::make_unique<StepModel>(*m_joined, offsets, stepStarts, stepEnds, hasWindow);
    m_path.windowStart = m_step->windowStart();
    m_path.windowEnd = m_step->windowEnd();
    for (size_t r = 0; r < m_ranks.size(); ++r)
        if (hasWindow[r])
            m_path.ranks[r].lateStart = stepStarts[r] - m_path.windowStart;
    if (model == PathModel::Hta) {
        std::vector<TimeNs> weights;
        weights.reserve(dag.edges().size());
        for (const PathEdge &e : dag.edges())
            weights.push_back(e.weight);
        tell(htaSegments(dag.walkBack(dag.longest(weights))));
        if (match)
            findSlack(*match);
    } else {
        tell(stepSegments());
        const std::vector<TimeNs> slack = m_step->slack();
        for (size_t r = 0; r < m_ranks.size(); ++r)
            m_path.ranks[r].slack = hasWindow[r] ? slack[r] : kNoValue;
    }
    if (!tracesAtHand()) { // only what-ifs walk it again: a thousand ranks' copy is not kept
        m_step.reset();
        m_joined.reset();
    }
}

std::vector<PathSegment> CriticalPathAnalysis::htaSegments(const std::vector<uint32_t> &path)
{
    const JoinedGraph &joined = *m_joined;
    std::vector<PathSegment> out;
    for (uint32_t i : path) {
        const PathEdge &e = joined.dag().edges()[i];
        const uint32_t rank = joined.rankOfEdge(i);
        const PathBound bound = boundOf(*m_graphs[rank], e);
        // The length and classes count every edge, the segments those told under an event.
        m_path.length += e.weight;
        if (bound != PathBound::None)
            m_path.byBound[size_t(bound)] += e.weight;
        const SliceId owner = ownerOf(joined, e);
        if (e.weight == 0 || owner == kNoSlice)
            continue;
        // Across ranks an edge starts on the last arriver: its time is the end's rank's.
        out.push_back({owner, e.kind, bound, joined.node(e.to).time - e.weight, e.weight, -1, {},
            rank, joined.collectiveOf(rank, owner), joined.rankOfNode(e.from)});
    }
    return out;
}

std::vector<PathSegment> CriticalPathAnalysis::stepSegments()
{
    const JoinedGraph &joined = *m_joined;
    std::vector<PathSegment> out;
    for (const StepStretch &s : m_step->path()) {
        m_path.length += s.dur;
        m_path.byBound[size_t(s.bound)] += s.dur;
        out.push_back(
            {s.event, s.kind, s.bound, s.start - m_ranks[s.rank].clockOffset, s.dur, -1, {}, s.rank,
                s.bound == PathBound::GpuCommunication ? joined.collectiveOf(s.rank, s.event) : -1,
                s.fromRank});
    }
    return out;
}

void CriticalPathAnalysis::tell(std::vector<PathSegment> segments)
{
    // Each rank's events told at once: a trace's graph walks up its ops once for all of them.
    auto idle = [](const PathSegment &s) {
        return s.bound == PathBound::Idle || s.bound == PathBound::LateStart;
    };
    std::vector<std::vector<SliceId>> owners(m_ranks.size());
    for (const PathSegment &s : segments)
        if (!idle(s))
            owners[s.rank].push_back(s.event);
    std::vector<std::vector<RowSide>> rowSides(m_ranks.size());
    for (size_t r = 0; r < m_ranks.size(); ++r)
        if (m_graphs[r]) {
            rowSides[r] = m_graphs[r]->rowSides(owners[r]);
            m_path.ranks[r].rowTime.assign(m_graphs[r]->rowCount(), 0);
        }
    std::vector<size_t> told(m_ranks.size(), 0);
    for (PathSegment &seg : segments) {
        std::tie(seg.row, seg.side)
            = idle(seg) ? RowSide(-1, "idle") : rowSides[seg.rank][told[seg.rank]++];
        RankOnPath &onPath = m_path.ranks[seg.rank];
        onPath.time += seg.dur;
        if (seg.row >= 0)
            onPath.rowTime[size_t(seg.row)] += seg.dur;
        auto side = std::find_if(m_path.bySide.begin(), m_path.bySide.end(),
            [&](const auto &p) { return p.first == seg.side; });
        if (side == m_path.bySide.end())
            m_path.bySide.emplace_back(seg.side, seg.dur);
        else
            side->second += seg.dur;
    }
    m_path.segments = std::move(segments);
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

} // namespace ks
