// SPDX-License-Identifier: MIT
// What-ifs on a critical path: the same model replayed on the same graph with a change made.
#include "analysis/criticalpath/criticalpath.h"

#include "analysis/criticalpath/pathowners.h"
#include "analysis/criticalpath/stepmodel.h"
#include "base/closenames.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

namespace ks {

namespace {

constexpr std::string_view kNoWait = "no wait: ";
constexpr std::string_view kNoTime = "no time: ";
constexpr std::string_view kNoLaunch = "no launch: ";
constexpr std::string_view kNoRecompute = "no recompute";
constexpr std::string_view kOnTime = "on time: rank ";

std::optional<WhatIfChange> parseScale(std::string_view spec)
{
    const size_t colon = spec.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == spec.size())
        return std::nullopt;
    const std::string number(spec.substr(colon + 1));
    char *end = nullptr;
    const double factor = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size() || !(factor >= 0 && factor <= 100))
        return std::nullopt;
    return WhatIfChange {WhatIfChange::Kind::Scale, std::string(spec.substr(0, colon)), factor};
}

} // namespace

std::optional<WhatIfChange> parseWhatIf(std::string_view spec)
{
    using Kind = WhatIfChange::Kind;
    if (spec == kNoRecompute)
        return WhatIfChange {Kind::NoRecompute};
    if (spec.starts_with(kOnTime)) {
        const std::string_view number = spec.substr(kOnTime.size());
        int rank = -1;
        const auto [end, error] = std::from_chars(number.begin(), number.end(), rank);
        if (error != std::errc() || end != number.end() || rank < 0)
            return std::nullopt;
        WhatIfChange change {Kind::OnTime};
        change.rank = rank;
        return change;
    }
    for (const auto &[prefix, kind] : {std::pair(kNoWait, Kind::NoWait),
             std::pair(kNoTime, Kind::NoTime), std::pair(kNoLaunch, Kind::NoLaunch)})
        if (spec.starts_with(prefix) && spec.size() > prefix.size())
            return WhatIfChange {kind, std::string(spec.substr(prefix.size()))};
    return parseScale(spec);
}

std::string whatIfText(const WhatIfChange &change)
{
    switch (change.kind) {
    case WhatIfChange::Kind::NoWait:
        return std::string(kNoWait) + change.name;
    case WhatIfChange::Kind::NoTime:
        return std::string(kNoTime) + change.name;
    case WhatIfChange::Kind::NoLaunch:
        return std::string(kNoLaunch) + change.name;
    case WhatIfChange::Kind::NoRecompute:
        return std::string(kNoRecompute);
    case WhatIfChange::Kind::OnTime:
        return std::string(kOnTime) + std::to_string(change.rank);
    case WhatIfChange::Kind::Scale:
        break;
    }
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.6g", change.factor);
    return change.name + ":" + factor;
}

/*!
 * The weights of the edges, HTA's then the step model's, with \a change's factors: the spans
 * it scales, the launch delays and kernel-to-kernel gaps it removes.
 */
std::vector<TimeNs> CriticalPathAnalysis::weightsWith(const PathChange &change) const
{
    const PathDag &dag = m_joined->dag();
    const size_t hta = dag.edges().size();
    std::vector<TimeNs> weights;
    weights.reserve(hta + dag.stepEdges().size());
    for (uint32_t i = 0; i < hta + dag.stepEdges().size(); ++i) {
        const PathEdge &e = i < hta ? dag.edges()[i] : dag.stepEdges()[i - hta];
        std::optional<double> factor;
        if (change.scale && e.kind == PathEdgeKind::Span && e.charged != kNoSlice)
            factor = change.scale(m_joined->rankOfEdge(i), e.charged);
        if (change.noGap
            && (e.kind == PathEdgeKind::LaunchDelay || e.kind == PathEdgeKind::KernelKernel)
            && change.noGap(m_joined->rankOfEdge(i), m_joined->node(e.to).event))
            factor = 0;
        weights.push_back(factor ? TimeNs(std::llround(double(e.weight) * *factor)) : e.weight);
    }
    return weights;
}

std::vector<bool> CriticalPathAnalysis::droppedBy(const PathChange &change) const
{
    const PathDag &dag = m_joined->dag();
    const size_t all = dag.edges().size() + dag.stepEdges().size();
    std::vector<bool> dropped(change.noWait ? all : 0, false);
    for (uint32_t i = 0; i < dropped.size(); ++i) {
        const PathEdge &e
            = i < dag.edges().size() ? dag.edges()[i] : dag.stepEdges()[i - dag.edges().size()];
        const PathNode &to = m_joined->node(e.to);
        dropped[i] = e.kind == PathEdgeKind::Sync && !to.start
            && change.noWait(m_joined->rankOfEdge(i), to.event);
    }
    return dropped;
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
    std::vector<UpwardMemo<bool>> insideNamed;
    for (const PathRankInput &r : m_ranks)
        insideNamed.emplace_back(r.graph->model().slices, false);
    // GPU events named so, or launched inside an op named so.
    auto scale = [&](uint32_t rank, SliceId event) -> std::optional<double> {
        const OpGraph &g = *m_ranks[rank].graph;
        const TraceModel &m = g.model();
        if (!isGpuWork(m.slices.kind[event]))
            return std::nullopt;
        const bool named
            = m.sliceName(event) == name || insideNamed[rank].of(g.launchOf(event), [&](SliceId a) {
                  return m.sliceName(a) == name ? std::optional(true) : std::nullopt;
              });
        return named ? std::optional(factor) : std::nullopt;
    };
    PathChange change;
    change.scale = scale;
    return lengthWith(change);
}

TimeNs CriticalPathAnalysis::lengthWith(const PathChange &change) const
{
    if (!m_joined || !tracesAtHand())
        return 0;
    std::vector<TimeNs> weights = weightsWith(change);
    std::optional<TimeCut> cut;
    if (change.cut) {
        std::vector<const TraceModel *> models;
        std::vector<TimeNs> windowStarts;
        for (uint32_t r = 0; r < m_ranks.size(); ++r) {
            models.push_back(&m_ranks[r].graph->model());
            windowStarts.push_back(m_path.ranks[r].windowStart);
        }
        cut = cutTime(*m_joined, models, windowStarts, change.cut);
    }
    if (m_path.model == PathModel::Step)
        return m_step->replay(weights, droppedBy(change), change.onTime, cut ? &*cut : nullptr);
    weights.resize(m_joined->dag().edges().size()); // HTA's model: its own edges
    for (size_t i = 0; cut && i < weights.size(); ++i)
        weights[i] = std::max<TimeNs>(0, weights[i] - cut->edge[i]);
    const PathDistances d = m_joined->dag().longest(weights);
    return d.to.empty() ? 0 : d.to[d.last];
}

TimeNs CriticalPathAnalysis::lengthOf(const WhatIfChange &change) const
{
    if (!m_joined || !tracesAtHand())
        return 0;
    if (change.kind == WhatIfChange::Kind::Scale)
        return lengthIf(change.name, change.factor);
    return lengthWith(pathChangeOf(change));
}

PathChange CriticalPathAnalysis::pathChangeOf(const WhatIfChange &change) const
{
    using Kind = WhatIfChange::Kind;
    std::vector<StringId> named; // the name's id in each rank's strings
    for (const PathRankInput &r : m_ranks)
        named.push_back(r.graph->model().strings.find(change.name));
    auto isNamed = [this, named](uint32_t rank, SliceId s) {
        return m_ranks[rank].graph->model().slices.name[s] == named[rank];
    };
    auto gpuWork = [this](uint32_t rank, SliceId s) {
        return isGpuWork(m_ranks[rank].graph->model().slices.kind[s]);
    };
    PathChange path;
    switch (change.kind) {
    case Kind::NoWait:
        path.noWait = isNamed;
        break;
    case Kind::OnTime:
        for (uint32_t r = 0; r < m_ranks.size(); ++r)
            if (m_ranks[r].rank == change.rank)
                path.onTime = r;
        break;
    case Kind::NoLaunch: // the calls cut out of their threads, their kernels back to back
        path.cut = isNamed;
        path.noGap = [this, isNamed](uint32_t rank, SliceId gpuEvent) {
            const SliceId call = m_ranks[rank].graph->launchOf(gpuEvent);
            return call != kNoSlice && isNamed(rank, call);
        };
        break;
    case Kind::NoTime: // host events cut out of their threads, GPU events at no time
        path.cut = isNamed;
        path.scale = [isNamed, gpuWork](uint32_t rank, SliceId s) -> std::optional<double> {
            return gpuWork(rank, s) && isNamed(rank, s) ? std::optional(0.0) : std::nullopt;
        };
        break;
    case Kind::NoRecompute: { // the re-run ops cut out of their threads, their GPU work at none
        std::vector<std::vector<SliceId>> ops(m_ranks.size());
        for (uint32_t r = 0; r < m_ranks.size(); ++r)
            for (const Recomputation &re : m_ranks[r].graph->recomputations())
                ops[r].push_back(re.op); // ordered by slice
        path.cut = [ops](uint32_t rank, SliceId s) {
            return std::binary_search(ops[rank].begin(), ops[rank].end(), s);
        };
        path.scale = [this, gpuWork](uint32_t rank, SliceId s) -> std::optional<double> {
            return gpuWork(rank, s) && m_ranks[rank].graph->recomputationOf(s) >= 0
                ? std::optional(0.0)
                : std::nullopt;
        };
        break;
    }
    case Kind::Scale:
        break;
    }
    return path;
}

std::string CriticalPathAnalysis::whatIfProblem(const WhatIfChange &change) const
{
    std::vector<const OpGraph *> graphs;
    std::vector<int> rankNumbers;
    for (const PathRankInput &r : m_ranks) {
        graphs.push_back(r.graph);
        rankNumbers.push_back(r.rank);
    }
    return ks::whatIfProblem(graphs, rankNumbers, change);
}

std::string whatIfProblem(const std::vector<const OpGraph *> &graphs,
    const std::vector<int> &rankNumbers,
    const WhatIfChange &change)
{
    using Kind = WhatIfChange::Kind;
    switch (change.kind) {
    case Kind::NoRecompute:
        return std::any_of(graphs.begin(), graphs.end(),
                   [](const OpGraph *g) { return g && !g->recomputations().empty(); })
            ? std::string()
            : "no recomputed ops (activation checkpointing)";
    case Kind::OnTime:
        return std::find(rankNumbers.begin(), rankNumbers.end(), change.rank) != rankNumbers.end()
            ? std::string()
            : "no rank " + std::to_string(change.rank);
    default:
        break;
    }
    std::vector<const TraceModel *> models;
    for (const OpGraph *g : graphs)
        if (g) {
            if (traceHasEventNamed(g->model(), change.name))
                return {};
            models.push_back(&g->model());
        }
    std::string problem = "no event named '" + change.name + "'";
    std::string close;
    for (const std::string &name : eventNamesCloseTo(models, change.name))
        close.append(close.empty() ? "; close: " : ", ").append(name);
    return problem + close;
}

bool traceHasEventNamed(const TraceModel &m, std::string_view name)
{
    const StringId id = m.strings.find(name);
    return id != StringPool::npos
        && std::find(m.slices.name.begin(), m.slices.name.end(), id) != m.slices.name.end();
}

std::vector<std::string> eventNamesCloseTo(
    const std::vector<const TraceModel *> &models, std::string_view name)
{
    std::set<std::string_view> names;
    for (const TraceModel *m : models)
        for (SliceId s = 0; s < m->slices.size(); ++s)
            if (m->slices.kind[s] == EventKind::CpuOp || isGpuWork(m->slices.kind[s]))
                names.insert(m->sliceName(s));
    return closeNames(std::vector<std::string_view>(names.begin(), names.end()), name);
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
        if (const TimeNs length = lengthIf(name, factor); length < m_path.length)
            out.push_back({{WhatIfChange::Kind::Scale, name, factor}, length});
    std::stable_sort(out.begin(), out.end(),
        [](const WhatIf &a, const WhatIf &b) { return a.length < b.length; });
    if (out.size() > count)
        out.resize(count);
    return out;
}
} // namespace ks
