// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/time/kernelsummary.h"
#include "export/celltable.h"

namespace ks {

/*!
 * `--export-kernel-summary`: one row per kernel name, by total time: `name`, `count`,
 * `total_us`, `mean_us`, `min_us`, `max_us`, `pct_gpu` (of all kernels' time, 2 decimals), then
 * the time by the side of its launch (`forward_us`, `backward_us`, `backward_other_us`,
 * `recompute_us`, `other_us`, `unattributed_us`) and `ops`: the host ops that launched it, most
 * launches first ("aten::conv2d ×12; aten::mm ×3", at most five, then "…").
 */
CellTable kernelSummaryTable(const KernelSummary &summary, const TraceModel &model);

} // namespace ks
