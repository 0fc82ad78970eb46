// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/findings/stepfinding.h"
#include "analysis/ranks/collectives.h"

namespace ks {

/*
 * A run's rules (docs/findings.md): ranks that hold the others back at the collectives the path
 * passes, named as the collectives table names them (\a match: the collectives the path was
 * joined by, over the same ranks).
 */

//! A rank whose late start is on the path: `on time: rank R`, its step begun with the earliest
//! rank's, and the first collective the path then passes, where it arrives last.
void findLateRanks(
    const CriticalPathAnalysis &path, const CollectiveMatch &match, std::vector<StepFinding> &out);
/*!
 * A rank that arrives last at collectives the path enters from it, though it began the step on
 * time: its own work is slower. No saving: no one change makes a rank's work as fast as the
 * others' (its work on the path has findings of its own).
 */
void findStragglers(
    const CriticalPathAnalysis &path, const CollectiveMatch &match, std::vector<StepFinding> &out);

} // namespace ks
