// SPDX-License-Identifier: MIT
#include "link/opgraph.h"

#include "base/parallel.h"
#include "link/opnames.h"

namespace ks {

std::string_view linkMethodName(LinkMethod method)
{
    switch (method) {
    case LinkMethod::Flow:
        return "flow";
    case LinkMethod::Sequence:
        return "sequence";
    case LinkMethod::None:
        break;
    }
    return "none";
}

OpGraph::OpGraph(const TraceModel &model)
    : m_model(model)
{
}

std::unique_ptr<OpGraph> OpGraph::build(const TraceModel &model, const LinkOptions &options)
{
    std::unique_ptr<OpGraph> g(new OpGraph(model));
    // GPU attribution and forward/backward pairing are independent: one runs on a second core.
    parallelInvoke(
        model.slices.size(), [&g, &model] { g->m_gpu.emplace(model); },
        [&g, &model, &options] {
            g->m_steps.emplace(model);
            g->m_pairing.emplace(model, options);
            g->m_recompute.emplace(model, *g->m_pairing, *g->m_steps);
        });
    g->m_recompute->countGpu(*g->m_gpu);
    g->m_rows.emplace(model, *g->m_pairing, *g->m_gpu, *g->m_recompute, *g->m_steps);

    LinkStats &s = g->m_stats;
    const GpuAttribution::Stats &gpu = g->m_gpu->stats();
    s.gpuEvents = gpu.gpuEvents;
    s.gpuEventsWithLaunch = gpu.withLaunch;
    s.gpuEventsAttributed = gpu.attributed;
    s.communicationGpuEvents = gpu.communication;
    const AutogradPairing::Stats &pairs = g->m_pairing->stats();
    s.backwardNodes = pairs.backwardNodes;
    s.pairsFromFlows = pairs.pairsFromFlows;
    s.pairsFromSequence = pairs.pairsFromSequence;
    s.hasSequenceNumbers = pairs.hasSequenceNumbers;
    s.pairingSteps = pairs.pairingSteps;
    s.flowPairsCheckedBySequence = pairs.flowPairsCheckedBySequence;
    s.flowPairsAgreeingWithSequence = pairs.flowPairsAgreeingWithSequence;
    const Recomputations::Stats &re = g->m_recompute->stats();
    s.recomputedOps = re.recomputedOps;
    s.recomputeGpuTime = re.gpuTime;
    s.doubleBackward = re.doubleBackward;
    s.unpairedBackward = g->m_rows->stats().unpairedBackward;
    s.recomputeRows = g->m_rows->stats().recomputeRows;
    // A syntax error loses the rest of the file as a cut does.
    const bool readInPart = model.truncated || model.diagnostics.count(Diag::SyntaxError) > 0;
    if (readInPart && s.gpuEvents == 0) {
        // Lost only where there was GPU work: runtime calls, or the devices the header lists.
        bool gpuRun = model.metadata.contains("deviceProperties");
        for (SliceId i = 0; i < model.slices.size(); ++i) {
            if (model.slices.kind[i] != EventKind::Runtime)
                continue;
            gpuRun = true;
            s.launchesCutOff
                += model.slices.correlation[i] != kNoValue && putsWorkOnStream(model.sliceName(i));
        }
        s.gpuCutOff = gpuRun;
    }
    g->findBackwardThreads();
    g->m_diagnostics.merge(g->m_pairing->diagnostics());
    g->m_diagnostics.merge(g->m_recompute->diagnostics());
    return g;
}

void OpGraph::findBackwardThreads()
{
    const TraceModel &m = m_model;
    m_backwardLanes.assign(m.lanes.size(), false);
    for (const BackwardNode &node : nodes())
        m_backwardLanes[m.slices.lane[node.node]] = true;
    for (LaneId l = 0; l < m.lanes.size(); ++l) {
        const Lane &lane = m.lanes[l];
        // Top-level slices tell: the engine's wrappers and nodes run there, nothing else does.
        for (SliceId s = lane.sliceBegin; !lane.device && !m_backwardLanes[l] && s < lane.sliceEnd;
             s = m.slices.subtreeEnd[s]) {
            const std::string_view name = m.sliceName(s);
            m_backwardLanes[l] = isEvaluateWrapper(name) || looksLikeBackwardNode(name);
        }
    }
    m_autogradLanes = m_backwardLanes;
    for (const PairRow &row : rows())
        if (row.forward != kNoSlice)
            m_autogradLanes[m.slices.lane[row.forward]] = false;
}

std::span<const uint32_t> OpGraph::nodesOf(const PairRow &row) const
{
    return std::span<const uint32_t>(rowNodes()).subspan(row.firstNode, row.nodeCount);
}

SliceId OpGraph::firstNode(const PairRow &row) const
{
    return row.nodeCount == 0 ? kNoSlice : nodes()[rowNodes()[row.firstNode]].node;
}

void OpGraph::appendNodeNames(const PairRow &row, std::string &out) const
{
    const size_t start = out.size();
    for (uint32_t i : nodesOf(row)) {
        if (out.size() > start)
            out += ';';
        out += model().sliceName(nodes()[i].node);
    }
}

SliceId OpGraph::representativeSlice(const PairRow &row) const
{
    return row.forward != kNoSlice ? row.forward : firstNode(row);
}

int OpGraph::recomputationOf(SliceId slice) const
{
    if (slice == kNoSlice || recomputations().empty())
        return -1;
    if (isGpuWork(m_model.slices.kind[slice])) {
        slice = launchOf(slice);
        if (slice == kNoSlice)
            return -1;
    }
    return m_recompute->of(slice);
}

OpGraph::RowSide OpGraph::rowSideOf(SliceId slice) const
{
    const SliceTable &t = m_model.slices;
    if (slice != kNoSlice && isGpuWork(t.kind[slice]))
        slice = launchOf(slice);
    // The innermost forward op or backward node around decides.
    for (SliceId a = slice; a != kNoSlice; a = t.parent[a]) {
        if (const int r = m_rows->rowOfForward(a); r >= 0)
            return {r, true};
        if (const int n = nodeOf(a); n >= 0)
            return {int(nodes()[size_t(n)].row), false};
    }
    return {};
}

std::vector<SliceId> OpGraph::counterparts(SliceId slice) const
{
    const SliceTable &t = m_model.slices;
    const int r = rowOf(slice);
    if (r < 0)
        return {};
    const PairRow &row = rows()[size_t(r)];
    std::vector<SliceId> out;
    if (!isForwardSide(slice)) {
        if (row.forward != kNoSlice)
            out.push_back(row.forward);
        return out;
    }
    // Prefer the nodes created inside the clicked op (aten::t → TBackward0 only).
    SliceId from = isGpuWork(t.kind[slice]) ? launchOf(slice) : slice;
    for (uint32_t i : nodesOf(row)) {
        const SliceId c = nodes()[i].creator;
        if (c >= from && c < t.subtreeEnd[from])
            out.push_back(nodes()[i].node);
    }
    if (out.empty()) {
        for (uint32_t i : nodesOf(row))
            out.push_back(nodes()[i].node);
    }
    return out;
}

OpGraph::RanUnder OpGraph::ranUnder(SliceId gpuEvent) const
{
    const GpuInfo *info = model().gpu(gpuEvent);
    if (launchingOp(gpuEvent) == kNoSlice && info && info->annotation != 0)
        return {kNoSlice, model().str(info->annotation)};
    return {launchScope(gpuEvent), {}};
}

SliceId OpGraph::launchScope(SliceId gpuEvent) const
{
    if (const SliceId op = launchingOp(gpuEvent); op != kNoSlice)
        return op;
    const SliceTable &t = model().slices;
    if (const SliceId launch = launchOf(gpuEvent);
        launch != kNoSlice && t.parent[launch] != kNoSlice)
        return t.parent[launch];
    for (SliceId a = t.parent[gpuEvent]; a != kNoSlice; a = t.parent[a]) {
        if (t.kind[a] == EventKind::GpuUserAnnotation)
            return a;
    }
    return kNoSlice;
}

} // namespace ks
