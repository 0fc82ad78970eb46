// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath.h"
#include "report/reportcontent.h"

namespace ks {

/*!
 * The report's "What bounds the step" part (issue #35, docs/critical-path.md): the critical path
 * of the first step as `--summary` gives it — its length and HTA's classes, the pairs with most
 * time on it, the ten changes that would shorten it most — and, across the ranks of a run
 * (\a run set), each rank's time on it and its slack. Nothing when there is no path.
 */
void addCriticalPath(const CriticalPathAnalysis &analysis, bool run, ReportContent &out);

} // namespace ks
