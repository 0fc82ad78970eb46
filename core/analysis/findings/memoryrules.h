// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/efficiency/opefficiency.h"
#include "analysis/findings/stepfinding.h"
#include "analysis/memory/memoryindex.h"

namespace ks {

//! How far reserved may lie above allocated, at their peaks, before it is told (fragmentation).
inline constexpr double kReservedOverAllocated = 1.25;
//! A device whose memory peak comes within this share of its memory is near its limit.
inline constexpr double kNearLimit = 0.05;

/*!
 * Memory (docs/findings.md): a device whose allocator reserved over kReservedOverAllocated × what
 * it ever had allocated, at their peaks — memory held in cached blocks that fragmentation keeps
 * from reuse. No change of the step's work: the finding has no saving.
 */
void findFragmentation(const MemoryIndex &memory, std::vector<StepFinding> &out);
//! A device whose peak (reserved, else allocated) comes within kNearLimit of its memory
//! (`totalGlobalMem` of \a devices): no saving.
void findMemoryNearLimit(const MemoryIndex &memory,
    const std::vector<OpEfficiency::Device> &devices,
    std::vector<StepFinding> &out);
/*!
 * Activation checkpointing's recompute on the path (`no recompute`), told with the memory left
 * at the peak of the devices it ran on; silent where a device's peak is within kNearLimit of its
 * memory (no room to keep activations: findMemoryNearLimit speaks).
 */
void findRecompute(const CriticalPathAnalysis &path,
    const MemoryIndex *memory,
    const std::vector<OpEfficiency::Device> &devices,
    std::vector<StepFinding> &out);

} // namespace ks
