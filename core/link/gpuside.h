// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"
#include "link/pairrows.h"

#include <string_view>

namespace ks {

/*!
 * Where a GPU event's time belongs: the one classification every view and export uses (kernel
 * table, step breakdown, charts, module tree). Without sequence numbers (no pairs) forward and
 * backward follow the thread and the op names (docs/linking.md §7 step 9).
 */
enum class GpuSide : uint8_t {
    Forward, //!< inside a pair's forward op or an nn.Module call (unpaired: any forward-side op)
    Backward, //!< inside a pair's backward node (unpaired: a node-named op, a backward thread)
    BackwardOther, //!< launched during backward but by no paired node (AccumulateGrad, hooks, …)
    Recompute, //!< launched by forward work re-run inside a backward node (checkpointing)
    Other, //!< launched elsewhere (optimizer, data loading, …)
    Unattributed, //!< no launch found
};
std::string_view gpuSideName(GpuSide side);
GpuSide gpuSideOf(const OpGraph &graph, SliceId gpuEvent);
//! The same for a GPU event whose launch \a launch is known (kNoSlice: none).
GpuSide gpuSideOfLaunch(const OpGraph &graph, SliceId launch);
/*!
 * The side of work done inside host slice \a slice (a GPU event's launch, an allocation's op), by
 * the same rules; never Unattributed.
 */
GpuSide sideOfHostWork(const OpGraph &graph, SliceId slice);

} // namespace ks
