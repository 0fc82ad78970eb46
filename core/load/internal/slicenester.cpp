// SPDX-License-Identifier: MIT
#include "slicenester.h"

#include "bothcoresrethrow.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <string>

namespace ks {

namespace {

std::vector<uint32_t> preorder(const LaneTimes &src)
{
    // Pre-order of the nesting tree: parents first, then longer slices first at equal start.
    std::vector<uint32_t> perm(src.size);
    std::iota(perm.begin(), perm.end(), 0);
    std::sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) {
        if (src.start[a] != src.start[b])
            return src.start[a] < src.start[b];
        if (src.dur[a] != src.dur[b])
            return src.dur[a] > src.dur[b];
        return a < b;
    });
    return perm;
}

} // namespace

std::vector<std::vector<uint32_t>> preorders(const std::vector<LaneTimes> &lanes)
{
    size_t total = 0;
    for (const LaneTimes &lane : lanes)
        total += lane.size;
    std::vector<std::vector<uint32_t>> perms(lanes.size());
    std::vector<uint32_t> bySize(lanes.size());
    std::iota(bySize.begin(), bySize.end(), 0);
    std::sort(bySize.begin(), bySize.end(),
        [&](uint32_t a, uint32_t b) { return lanes[a].size > lanes[b].size; });
    std::atomic<size_t> next {0};
    auto sortLanes = [&] {
        for (size_t i = next++; i < bySize.size(); i = next++)
            perms[bySize[i]] = preorder(lanes[bySize[i]]);
    };
    runOnBothCoresRethrowing(total, sortLanes, sortLanes);
    return perms;
}

void nestLane(TraceModel &model, LaneId laneId, Lane &lane, std::vector<SliceId> &stack)
{
    SliceTable &t = model.slices;
    const SliceId end = lane.sliceEnd;
    stack.clear();
    for (SliceId s = lane.sliceBegin; s < end; ++s) {
        const TimeNs start = t.start[s];
        while (!stack.empty() && t.end(stack.back()) <= start) {
            t.subtreeEnd[stack.back()] = s;
            stack.pop_back();
        }
        if (!stack.empty() && t.end(s) > t.end(stack.back()) && !lane.device) {
            model.diagnostics.add(Diag::OverlappingSlices, t.offset[s],
                "slice '" + std::string(model.sliceName(s)) + "' ends after its enclosing slice '"
                    + std::string(model.sliceName(stack.back())) + "'");
        }
        t.lane.push_back(laneId);
        t.parent.push_back(stack.empty() ? kNoSlice : stack.back());
        t.depth.push_back(uint32_t(stack.size()));
        t.subtreeEnd.push_back(end);
        lane.maxDepth = std::max(lane.maxDepth, uint32_t(stack.size()));
        stack.push_back(s);
    }
    for (SliceId s : stack)
        t.subtreeEnd[s] = end;
}

} // namespace ks
