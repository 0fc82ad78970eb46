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
    const SliceId launch = graph.launchOf(gpuEvent);
    if (launch == kNoSlice)
        return GpuSide::Unattributed;
    // First: a reentrant checkpoint's re-run ops are rows, but their work is still recompute.
    if (graph.recomputationOf(launch) >= 0)
        return GpuSide::Recompute;
    if (graph.rowOf(launch) >= 0)
        return graph.isForwardSide(launch) ? GpuSide::Forward : GpuSide::Backward;
    const TraceModel &m = graph.model();
    bool insideOp = false, underNodeName = false;
    for (SliceId a = m.slices.parent[launch]; a != kNoSlice; a = m.slices.parent[a]) {
        // 1.9 files have no evaluate_function wrappers: AccumulateGrad and hooks say it themselves.
        if (isEvaluateWrapper(m.sliceName(a)) || graph.isBackwardNode(a)
            || isUnpairedBackwardWork(m.sliceName(a)))
            return GpuSide::BackwardOther;
        insideOp = insideOp || m.slices.kind[a] == EventKind::CpuOp;
        underNodeName = underNodeName || looksLikeBackwardNode(m.sliceName(a));
    }
    // A module's call is forward work, whether or not the op owns a backward node (BatchNorm's
    // running statistics, ops under no_grad): the module tree counts it so, and so does all else.
    if (moduleAround(m, launch) != kNoSlice)
        return GpuSide::Forward;
    // Without sequence numbers nothing pairs (docs/linking.md §7 step 9): the thread and the
    // names still say forward or backward, and every view says the same.
    if (!graph.stats().hasSequenceNumbers) {
        if (underNodeName || graph.isBackwardThread(m.slices.lane[launch]))
            return GpuSide::Backward;
        if (insideOp)
            return GpuSide::Forward;
    }
    return GpuSide::Other;
}

} // namespace ks
