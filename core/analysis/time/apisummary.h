// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"

#include <vector>

namespace ks {

//! One runtime or driver call name's calls, as Nsight Systems' "CUDA API Summary" counts them.
struct ApiSummaryRow {
    StringId name = 0; //!< `cudaLaunchKernel`, `hipExtModuleLaunchKernel`, …
    StringId category = 0; //!< as written: `cuda_runtime`, `cuda_driver`, `Runtime`
    uint64_t count = 0;
    TimeNs total = 0;
    TimeNs min = 0;
    TimeNs median = 0; //!< of an even count, the mean of the two middle calls, rounded down
    TimeNs max = 0;
    uint64_t gpuEvents = 0; //!< the kernels, memcpys and memsets its calls launched
};

struct ApiSummary {
    std::vector<ApiSummaryRow> rows; //!< by total time, largest first (ties by name)
    TimeNs apiTime = 0; //!< all calls' time in scope: what a row's share divides by
};

/*!
 * The runtime and driver API calls of \a graph's trace (EventKind::Runtime: `cuda_runtime`,
 * `cuda_driver`, ROCm's) summed by name; only those that start in ProfilerStep#\a step unless it
 * is kNoValue. A call's GPU events are those it launched (OpGraph::gpuLaunches()).
 */
ApiSummary apiSummary(const OpGraph &graph, int64_t step = kNoValue);

} // namespace ks
