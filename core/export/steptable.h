// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/time/stepbreakdown.h"
#include "export/celltable.h"

namespace ks {

/*!
 * `--export-steps`: one row per ProfilerStep, in step order: `step`, `cpu_start_us`,
 * `cpu_dur_us`, `gpu_start_us`, `gpu_end_us` (times as the file writes them; the GPU ones empty
 * for a step that launched no GPU work), `busy_us`, `idle_us`, then `<category>_us` for each
 * of the first kStepCategories WorkParts. The step chart, the report and `--summary` show these
 * numbers.
 */
CellTable stepTable(const std::vector<StepBreakdown> &steps);

} // namespace ks
