// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <cstdint>
#include <vector>

namespace ks {

//! One lane's slices: indices into the builder's columns, in file order.
struct LaneSlices {
    uint32_t *index = nullptr;
    size_t size = 0;
};

/*!
 * Sorts each lane's indices in place into pre-order of the nesting tree: start ascending, then
 * longer first (the parent), then file order. Sorted on both cores, largest lanes first: these
 * sorts are the most expensive part of building the model.
 */
void sortPreorders(const TimeNs *start, const TimeNs *dur, const std::vector<LaneSlices> &lanes);

/*!
 * Nests \a lane's slices, which lie in pre-order in \a model's slice table: appends their lane,
 * depth, parent and subtree end, and sets the lane's maxDepth. A host slice that ends after its
 * enclosing slice stays its child and is counted (GPU streams overlap by design: not counted).
 * \a stack is scratch space, reused across lanes.
 */
void nestLane(TraceModel &model, LaneId laneId, Lane &lane, std::vector<SliceId> &stack);

} // namespace ks
