// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/efficiency/opefficiency.h"
#include "analysis/findings/stepfinding.h"
#include "analysis/memory/memoryindex.h"

namespace ks {

/*!
 * What to fix first in the step \a path analyses (issue #58; docs/findings.md): the findings of
 * every rule, ranked by the time each would save on the step; \a efficiency (the device's peaks)
 * and \a memory may be null, their rules then silent. The step model only: HTA's model weighs no
 * wait, so a finding's saving would not be the step's.
 */
std::vector<StepFinding> findStepFindings(
    const CriticalPathAnalysis &path, const OpEfficiency *efficiency, const MemoryIndex *memory);

} // namespace ks
