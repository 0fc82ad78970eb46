// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/time/rangestats.h"

#include <string>

namespace ks {

//! A lane for a person: "thread 1 (python3)", "GPU 2 · stream 7".
std::string laneName(const TraceModel &model, LaneId lane);

/*!
 * \a stats as plain text, what the details panel shows of a range and copies: the range, busy
 * time per lane (and % of the range), GPU time by category with idle, and the \a top kernels and
 * ops by time inside the range. Times from the trace's start.
 */
std::string rangeStatsText(const TraceModel &model, const RangeStats &stats, size_t top = 15);

} // namespace ks
