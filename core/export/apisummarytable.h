// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/time/apisummary.h"
#include "export/celltable.h"

namespace ks {

/*!
 * `--export-api-summary`: one row per runtime or driver call name, by total time (Nsight
 * Systems' "CUDA API Summary"): `name`, `category`, `count`, `total_us`, `mean_us`, `median_us`,
 * `min_us`, `max_us`, `pct_api` (of all calls' time, 2 decimals), `gpu_events` (the kernels,
 * memcpys and memsets its calls launched).
 */
CellTable apiSummaryTable(const ApiSummary &summary, const TraceModel &model);

} // namespace ks
