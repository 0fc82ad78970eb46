// SPDX-License-Identifier: MIT
#include "slicenester.h"

#include "base/parallel.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace ks {

void sortPreorders(const TimeNs *start, const TimeNs *dur, const std::vector<LaneSlices> &lanes)
{
    size_t total = 0;
    for (const LaneSlices &lane : lanes)
        total += lane.size;
    std::vector<uint32_t> bySize(lanes.size());
    std::iota(bySize.begin(), bySize.end(), 0);
    std::sort(bySize.begin(), bySize.end(),
        [&](uint32_t a, uint32_t b) { return lanes[a].size > lanes[b].size; });
    // Indices rise in file order within a lane, so the last key keeps file order at a tie.
    auto before = [&](uint32_t a, uint32_t b) {
        if (start[a] != start[b])
            return start[a] < start[b];
        if (dur[a] != dur[b])
            return dur[a] > dur[b];
        return a < b;
    };
    parallelFor(bySize.size(), threadsFor(total), [&](size_t i) {
        const LaneSlices &lane = lanes[bySize[i]];
        std::sort(lane.index, lane.index + lane.size, before);
    });
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
