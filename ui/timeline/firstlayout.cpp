// SPDX-License-Identifier: MIT
#include "timeline/firstlayout.h"

#include "timeline/tracklayout.h"

#include <optional>

namespace ks {

namespace {

bool isLaneTrack(const TrackLayout::Track &t)
{
    return !t.header && t.curve < 0 && t.graph < 0 && t.lane != kNoLane;
}

std::optional<int> firstGpuLaneBottom(const TrackLayout &layout, const TraceModel &model)
{
    for (const TrackLayout::Track &t : layout.tracks())
        if (isLaneTrack(t) && model.lanes[t.lane].device)
            return t.y + t.height;
    return std::nullopt;
}

//! The open host lane of the most rows (the last of equals: the forward thread, where a user
//! starts, stays open longest), or kNoLane.
LaneId deepestHostLane(const TrackLayout &layout, const TraceModel &model)
{
    LaneId deepest = kNoLane;
    int rows = 2;
    for (const TrackLayout::Track &t : layout.tracks()) {
        if (isLaneTrack(t) && !model.lanes[t.lane].device && !layout.laneCollapsed(t.lane)
            && t.rowCount >= rows) {
            deepest = t.lane;
            rows = t.rowCount;
        }
    }
    return deepest;
}

} // namespace

bool fitGpuInView(TrackLayout &layout, const TraceModel &model, int height)
{
    bool collapsed = false;
    for (std::optional<int> bottom = firstGpuLaneBottom(layout, model); bottom && *bottom > height;
         bottom = firstGpuLaneBottom(layout, model)) {
        const LaneId lane = deepestHostLane(layout, model);
        if (lane == kNoLane)
            break;
        layout.setLaneCollapsed(lane, true);
        collapsed = true;
    }
    return collapsed;
}

} // namespace ks
