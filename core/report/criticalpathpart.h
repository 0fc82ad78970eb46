// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "report/reportcontent.h"

namespace ks {

/*!
 * The report's "What bounds the step" part (issue #35, docs/critical-path.md): the critical path
 * of the first step as `--summary` gives it — its length and HTA's classes, the pairs with most
 * time on it, the ten changes that would shorten it most — and, across the ranks of a run
 * (\a run set), each rank's time on it and its slack. Nothing when there is no path.
 */
void addCriticalPath(const CriticalPathAnalysis &analysis, bool run, ReportContent &out);

//! What the part says in place of the what-ifs of a run read from databases.
inline constexpr std::string_view kWhatIfsNeedTraces
    = "Its what-ifs need the ranks' traces (the databases hold the path's graph, not the ops' "
      "work): open the run from its traces for them.";

} // namespace ks
