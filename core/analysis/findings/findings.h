// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/efficiency/opefficiency.h"
#include "analysis/findings/stepfinding.h"
#include "analysis/memory/memoryindex.h"
#include "analysis/ranks/collectives.h"

namespace ks {

//! What the rules beyond the path read; each may be null, its rules then silent.
struct FindingSources {
    const OpEfficiency *efficiency = nullptr; //!< one trace's devices, peaks and ops
    const MemoryIndex *memory = nullptr; //!< one trace's memory
    const CollectiveMatch *collectives = nullptr; //!< a run's, over the path's ranks
};

/*!
 * What to fix first in the step \a path analyses (issue #58; docs/findings.md): the findings of
 * every rule, ranked by the time each would save on the step. The step model only: HTA's model
 * weighs no wait, so a finding's saving would not be the step's.
 */
std::vector<StepFinding> findStepFindings(
    const CriticalPathAnalysis &path, const FindingSources &sources = {});

} // namespace ks
