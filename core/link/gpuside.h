// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"

#include <string_view>

namespace ks {

//! Where a GPU event's time belongs, for the kernel table and the step breakdown.
enum class GpuSide : uint8_t {
    Forward, //!< launched inside a pair's forward op
    Backward, //!< launched inside a pair's backward node
    BackwardOther, //!< launched during backward but by no paired node (AccumulateGrad, hooks, …)
    Recompute, //!< launched by forward work re-run inside a backward node (checkpointing)
    Other, //!< launched elsewhere (optimizer, data loading, …)
    Unattributed, //!< no launch found
};
std::string_view gpuSideName(GpuSide side);
GpuSide gpuSideOf(const OpGraph &graph, SliceId gpuEvent);

} // namespace ks
