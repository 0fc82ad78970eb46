// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/findings/stepfinding.h"
#include "analysis/memory/memoryindex.h"

namespace ks {

//! How far reserved may lie above allocated, at their peaks, before it is told (fragmentation).
inline constexpr double kReservedOverAllocated = 1.25;

/*!
 * Memory (docs/findings.md): a device whose allocator reserved over kReservedOverAllocated × what
 * it ever had allocated, at their peaks — memory held in cached blocks that fragmentation keeps
 * from reuse. No change of the step's work: the finding has no saving.
 */
void findFragmentation(const MemoryIndex &memory, std::vector<StepFinding> &out);

} // namespace ks
