// SPDX-License-Identifier: MIT
#pragma once

#include "link/gpuside.h"

#include <array>
#include <vector>

namespace ks {

//! One kernel name's launches, as Nsight's "CUDA GPU Kernel Summary" and the TensorBoard plugin's
//! Kernel View count them.
struct KernelSummaryRow {
    StringId name = 0; //!< as the file writes it
    StringId displayName = 0; //!< as the timeline shows it (demangled, maybe shortened)
    uint64_t count = 0;
    TimeNs total = 0;
    TimeNs min = 0;
    TimeNs max = 0;
    std::array<TimeNs, 6> bySide {}; //!< total time by GpuSide of the launch
    //! The host ops that launched it (their names) with how many launches each, most first.
    std::vector<std::pair<StringId, uint64_t>> ops;
};

struct KernelSummary {
    std::vector<KernelSummaryRow> rows; //!< by total time, largest first (ties by name)
    TimeNs kernelTime = 0; //!< all kernels' time in scope: what pct_gpu divides by
};

/*!
 * The kernels (not memcpys or memsets) of \a graph's trace summed by their name as the file
 * writes it (TraceModel::writtenName(): two kernels demangled to one name stay apart); only those
 * whose runtime launch lies in ProfilerStep#\a step unless it is kNoValue (then every kernel,
 * launched in the trace or not).
 */
KernelSummary kernelSummary(const OpGraph &graph, int64_t step = kNoValue);

} // namespace ks
