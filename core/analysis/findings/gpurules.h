// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/efficiency/opefficiency.h"
#include "analysis/findings/stepfinding.h"

namespace ks {

/*
 * The GPU's rules (docs/findings.md gives each its threshold and source): each appends a finding
 * per cause it sees on the step's path, only where its change shortens the path.
 */

//! `Memcpy HtoD (Pageable -> Device)` on the path: the copies at half their time (pinned).
void findPageableCopies(const CriticalPathAnalysis &path, std::vector<StepFinding> &out);
//! Communication kernels on the path, by name: each at no time (fully overlapped).
void findExposedCommunication(const CriticalPathAnalysis &path, std::vector<StepFinding> &out);
//! fp32 SIMT GEMMs (`sgemm`) on the path of a device with TF32 tensor cores: each at the rate
//! ratio of its vector_fp32 and matrix_tf32 peaks.
void findFp32Gemms(const CriticalPathAnalysis &path,
    const OpEfficiency &efficiency,
    std::vector<StepFinding> &out);

//! The share of its roofline an op is held to (the stated fraction of docs/findings.md).
inline constexpr double kRooflineTarget = 0.5;

//! Modelled ops (by name) under kRooflineTarget of their roofline: their GPU work at the time
//! that share would take.
void findBelowRoofline(const CriticalPathAnalysis &path,
    const OpEfficiency &efficiency,
    std::vector<StepFinding> &out);

} // namespace ks
