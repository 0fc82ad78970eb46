// SPDX-License-Identifier: MIT
#include "link/gpuside.h"

#include "link/opnames.h"

namespace ks {

std::string_view gpuSideName(GpuSide side)
{
    switch (side) {
    case GpuSide::Forward:
        return "forward";
    case GpuSide::Backward:
        return "backward";
    case GpuSide::BackwardOther:
        return "backward_other";
    case GpuSide::Recompute:
        return "recompute";
    case GpuSide::Other:
        return "other";
    case GpuSide::Unattributed:
        return "unattributed";
    }
    return "other";
}

GpuSide gpuSideOf(const OpGraph &graph, SliceId gpuEvent)
{
    return gpuSideOfLaunch(graph, graph.launchOf(gpuEvent));
}

GpuSide gpuSideOfLaunch(const OpGraph &graph, SliceId launch)
{
    return launch == kNoSlice ? GpuSide::Unattributed : sideOfHostWork(graph, launch);
}

GpuSide sideOfHostWork(const OpGraph &graph, SliceId launch)
{
    // First: a reentrant checkpoint's re-run ops are rows, but their work is still recompute.
    if (graph.recomputationOf(launch) >= 0)
        return GpuSide::Recompute;
    if (const OpGraph::RowSide r = graph.rowSideOf(launch); r.row >= 0)
        return r.forward ? GpuSide::Forward : GpuSide::Backward;
    const TraceModel &m = graph.model();
    const bool paired = graph.stats().hasSequenceNumbers;
    bool insideOp = false, housekeeping = false;
    // From the slice itself: a runtime call is none of these, an op may be (AccumulateGrad).
    for (SliceId a = launch; a != kNoSlice; a = m.slices.parent[a]) {
        const std::string_view name = m.sliceName(a);
        // Without sequence numbers nothing pairs (docs/linking.md §7 step 9), but a node's name
        // still says backward: its own work, inside the engine's wrapper, is backward.
        if (!paired && looksLikeBackwardNode(name) && !isUnpairedBackwardWork(name))
            return GpuSide::Backward;
        // 1.9 files have no evaluate_function wrappers: AccumulateGrad and hooks say it themselves.
        if (isEvaluateWrapper(name) || graph.isBackwardNode(a) || isUnpairedBackwardWork(name))
            return GpuSide::BackwardOther;
        insideOp = insideOp || m.slices.kind[a] == EventKind::CpuOp;
        // Only the unpaired rules below ask, so paired traces never look.
        housekeeping = housekeeping
            || (!paired && m.slices.kind[a] == EventKind::UserAnnotation
                && isHousekeepingScope(name));
    }
    // Paired, the autograd engine's thread runs backward's housekeeping outside the nodes too
    // (DDP's bucket copies, gradient accumulation): backward-other, as its all-reduces are
    // (docs/linking.md §8).
    if (paired && graph.isAutogradThread(m.slices.lane[launch]))
        return GpuSide::BackwardOther;
    // A module's call is forward work, whether or not the op owns a backward node (BatchNorm's
    // running statistics, ops under no_grad): the module tree counts it so, and so does all else.
    if (moduleAround(m, launch) != kNoSlice)
        return GpuSide::Forward;
    // Unpaired, the thread says the rest: ops on the backward thread are backward, any other
    // op outside the optimizer and the data loader forward; every view says the same.
    if (!paired) {
        if (graph.isBackwardThread(m.slices.lane[launch]))
            return GpuSide::Backward;
        if (insideOp && !housekeeping)
            return GpuSide::Forward;
    }
    return GpuSide::Other;
}

} // namespace ks
