// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/findings/stepfinding.h"

namespace ks {

/*
 * The host's rules (docs/findings.md gives each its threshold and source): each appends a finding
 * per cause it sees on the step's path, only where its change shortens the path.
 */

//! Blocking calls waiting for the GPU on the path (cudaStreamSynchronize, a D2H cudaMemcpy of
//! `.item()`): `no wait: NAME`.
void findHostSyncs(const CriticalPathAnalysis &path, std::vector<StepFinding> &out);
//! Device frees on the path (`cudaFree`, `hipFree`: the caching allocator gave memory back, and
//! a free waits for the device): `no time: NAME`.
void findDeviceFrees(const CriticalPathAnalysis &path, std::vector<StepFinding> &out);
//! The DataLoader's `__next__` on the path (its record_function or Python frame, or what
//! `--data-loading` names): `no time: NAME`, the batch ready when asked for.
void findDataLoading(const CriticalPathAnalysis &path, std::vector<StepFinding> &out);
//! Kernel launches on the path whose kernels, in all, ran shorter than the launches took (the
//! GPU idles between them): `no time: NAME`, as a CUDA graph's replay launches them.
void findLaunchBound(const CriticalPathAnalysis &path, std::vector<StepFinding> &out);

} // namespace ks
