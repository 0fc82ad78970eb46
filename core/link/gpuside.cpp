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
    for (SliceId a = m.slices.parent[launch]; a != kNoSlice; a = m.slices.parent[a]) {
        // 1.9 files have no evaluate_function wrappers: AccumulateGrad and hooks say it themselves.
        if (isEvaluateWrapper(m.sliceName(a)) || graph.isBackwardNode(a)
            || isUnpairedBackwardWork(m.sliceName(a)))
            return GpuSide::BackwardOther;
    }
    return GpuSide::Other;
}

} // namespace ks
