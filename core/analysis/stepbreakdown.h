// SPDX-License-Identifier: MIT
#pragma once

#include "link/gpuside.h"

#include <vector>

namespace ks {

//! GPU time of one ProfilerStep, split by where the work was launched from.
struct StepBreakdown {
    int64_t step = 0;
    TimeNs span = 0; //!< the step's wall time
    TimeNs forward = 0; //!< summed durations of GPU events launched by forward ops
    TimeNs backward = 0; //!< … by paired backward nodes
    TimeNs backwardOther = 0; //!< … during backward by unpaired work (AccumulateGrad, hooks, comms)
    TimeNs recompute = 0; //!< … by forward work re-run during backward (activation checkpointing)
    TimeNs other = 0; //!< … anywhere else in the step (optimizer, data loading)
    TimeNs busy = 0; //!< union of all GPU intervals inside the step
    TimeNs idle() const { return span > busy ? span - busy : 0; }
};

/*!
 * Per-step GPU breakdown: each GPU event belongs to the step of its launch; "busy" is the union
 * of GPU intervals (all streams) clipped to the step, so idle = span − busy.
 */
std::vector<StepBreakdown> stepBreakdown(const OpGraph &graph);

} // namespace ks
