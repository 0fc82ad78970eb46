// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/gemmwork.h"
#include "link/opgraph.h"

#include <optional>

namespace ks {

/*!
 * An op instance's kernel time as TraceLens measures it (AMD-AGI/TraceLens 171dd747
 * `TraceLens/TreePerf/tree_perf.py` l. 370–380, `_compute_subtree_kernel_time_us`): the length of
 * the union of the kernels, memcpys and memsets launched from its subtree, overlaps counted once.
 */
TimeNs subtreeKernelTime(const OpGraph &graph, SliceId op);

//! What an instance achieved, with TraceLens's units (tree_perf.py l. 387–470).
struct OpRates {
    double gflops = 0; //!< FLOPs / 1e9
    std::optional<double> tflopsPerS; //!< (GFLOPS / 1e3) / (kernel µs / 1e6); none without time
    std::optional<double> dataMovedMiB; //!< "Data Moved (MB)": bytes / 2^20
    std::optional<double> flopsPerByte; //!< arithmetic intensity
    std::optional<double> tbPerS; //!< (bytes / 1e12) / (kernel µs / 1e6)
};
OpRates ratesOf(const OpWork &work, TimeNs kernelTime);

} // namespace ks
