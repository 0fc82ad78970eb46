// SPDX-License-Identifier: MIT
#include "analysis/criticalpath/pathchain.h"

#include "analysis/criticalpath/criticalpath.h"

namespace ks {

PathChain pathChain(const CriticalPathAnalysis &analysis)
{
    PathChain chain;
    chain.steps.resize(analysis.ranks().size());
    const PathSegment *previous = nullptr;
    for (const PathSegment &seg : analysis.path().segments) {
        const ChainStep step {seg.event, seg.start, seg.start + seg.dur, false};
        std::vector<ChainStep> &steps = chain.steps[seg.rank];
        if (previous && previous->rank != seg.rank)
            chain.hops.push_back({previous->rank, previous->event, previous->start + previous->dur,
                seg.rank, seg.event, seg.start});
        const bool follows = previous && previous->rank == seg.rank;
        if (follows && previous->event == seg.event && steps.back().end == step.start)
            steps.back().end = step.end;
        else
            steps.push_back({step.event, step.start, step.end, follows});
        previous = &seg;
    }
    return chain;
}

} // namespace ks
