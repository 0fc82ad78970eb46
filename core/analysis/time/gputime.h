// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"

#include <array>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace ks {

/*!
 * Where a device's time went, with TraceLens's definitions so that the numbers compare across
 * tools. The GPU events counted are the kernels, memcpys and memsets whose runtime launch is in
 * the trace (work launched before the profiling window has no launch, so nothing says what it
 * belongs to). Communication = NCCL/RCCL kernels, memcpy = memcpys, computation = every other
 * kernel and memset. All figures are lengths of unions of intervals over every stream and device:
 * - computation = |∪ computation|, totalComm = |∪ communication|, totalMemcpy = |∪ memcpy|;
 * - exposedComm = |∪ communication − ∪ computation|;
 * - exposedMemcpy = |∪ memcpy − ∪ computation − ∪ communication|;
 * - busy = |∪ all|, total = end of the last event − start of the first;
 * - idle = total − computation − exposedComm − exposedMemcpy (= total − busy).
 */
struct GpuTimeBreakdown {
    TimeNs computation = 0;
    TimeNs exposedComm = 0;
    TimeNs exposedMemcpy = 0;
    TimeNs busy = 0;
    TimeNs idle = 0;
    TimeNs total = 0;
    TimeNs totalComm = 0;
    TimeNs totalMemcpy = 0;
    uint64_t events = 0; //!< GPU events counted
};

/*!
 * The eight figures with their export names (`computation_us`, …, in the order of `--summary`'s
 * `gpu_time` and `--export-ranks`' columns), ns.
 */
std::array<std::pair<std::string_view, TimeNs>, 8> gpuTimeFields(const GpuTimeBreakdown &b);
//! The breakdown of eight figures in gpuTimeFields()' order (read back from a database).
GpuTimeBreakdown gpuTimeOfFields(const std::array<TimeNs, 8> &fields);

//! What a counted GPU event is (see GpuTimeBreakdown).
enum class GpuWork : uint8_t { Computation, Communication, Memcpy };
//! Calls \a f(event, launch, work) for every counted GPU event, in gpuEvents() order.
void forEachCountedGpuEvent(
    const OpGraph &graph, const std::function<void(SliceId, SliceId, GpuWork)> &f);
//! The same over every GPU event, those without a launch in the trace too (launch kNoSlice).
void forEachGpuEvent(const OpGraph &graph, const std::function<void(SliceId, SliceId, GpuWork)> &f);

//! The breakdown of every counted GPU event of \a graph's trace.
GpuTimeBreakdown gpuTimeBreakdown(const OpGraph &graph);
//! The length of the union of \a intervals ([start, end) each): the time any of them runs.
TimeNs busyTime(std::vector<std::pair<TimeNs, TimeNs>> intervals);

/*!
 * A ProfilerStep's GPU window: from the first start of the counted GPU work launched inside it
 * (however late it ran) to where the next step's such work begins — the last step's, to its
 * work's last end — never before the previous window's end. The windows partition the GPU's
 * timeline even where the GPU lags and steps' work overlaps. A step without GPU work has none
 * (events == 0).
 */
struct StepWindow {
    TimeNs start = 0;
    TimeNs end = 0;
    uint64_t events = 0; //!< counted GPU events launched inside the step
};
//! Each ProfilerStep's window, in step order.
std::vector<StepWindow> stepGpuWindows(const OpGraph &graph);

//! One step's breakdown over its window (StepWindow): every counted GPU event's time in it,
//! total = the window; events = the GPU events launched inside the step.
struct StepGpuTime {
    int64_t step = 0;
    GpuTimeBreakdown time;
};
//! The breakdown of each ProfilerStep, in step order.
std::vector<StepGpuTime> gpuTimePerStep(const OpGraph &graph);

} // namespace ks
