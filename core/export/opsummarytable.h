// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/time/opsummary.h"
#include "export/celltable.h"

namespace ks {

/*!
 * `--export-op-summary`: one row per host op name (the TensorBoard plugin's Operator view,
 * `key_averages()`), by device total time: `name`, `input_dims` (empty unless \a byInputDims),
 * `calls`, `host_total_us`, `host_self_us`, `device_total_us`, `device_self_us`, `bwd_calls`,
 * `bwd_host_total_us`, `bwd_device_total_us` (the calls made in the backward pass).
 */
CellTable opSummaryTable(const OpSummary &summary, const TraceModel &model);

} // namespace ks
