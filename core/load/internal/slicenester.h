// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <cstdint>
#include <vector>

namespace ks {

//! The times of one lane's slices, in file order.
struct LaneTimes {
    const TimeNs *start = nullptr;
    const TimeNs *dur = nullptr;
    size_t size = 0;
};

/*!
 * For each lane, the file-order indices of its slices in pre-order of the nesting tree: start
 * ascending, then longer first (the parent), then file order. Sorted on both cores, largest
 * lanes first: these sorts are the most expensive part of building the model.
 */
std::vector<std::vector<uint32_t>> preorders(const std::vector<LaneTimes> &lanes);

/*!
 * Nests \a lane's slices, which lie in pre-order in \a model's slice table: appends their lane,
 * depth, parent and subtree end, and sets the lane's maxDepth. A host slice that ends after its
 * enclosing slice stays its child and is counted (GPU streams overlap by design: not counted).
 * \a stack is scratch space, reused across lanes.
 */
void nestLane(TraceModel &model, LaneId laneId, Lane &lane, std::vector<SliceId> &stack);

} // namespace ks
