// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/time/gputime.h"
#include "link/opgraph.h"

#include <array>
#include <string_view>
#include <vector>

namespace ks {

/*!
 * The kinds of GPU work every chart, the timeline and the report tell apart, each in its own
 * colour (ui/common/palette.h). The first kStepCategories split a step's busy time
 * (docs/cli.md, `--export-steps`).
 */
enum class WorkPart : uint8_t {
    Forward,
    Backward,
    BackwardOther, //!< computation launched during backward by no paired node (AccumulateGrad)
    Recompute, //!< computation of forward work re-run during backward (checkpointing)
    Communication, //!< NCCL/RCCL kernels under no computation
    Memcpy, //!< memcpys under no computation or communication
    Other, //!< computation launched elsewhere (optimizer, data loading)
    Idle, //!< no GPU work
    Recomputed, //!< a pair's own re-run (its forward op recomputed during backward)
    Computation, //!< kernels and memsets, whoever launched them
};
constexpr size_t kStepCategories = 7;
//! "forward", "backward", "backward_other", "recompute", "communication", "memcpy", "other",
//! "idle", "recomputed", "computation".
std::string_view workPartName(WorkPart part);

/*!
 * One ProfilerStep's GPU time, the one definition the step chart, the report, `--summary` and
 * `--export-steps` share, over the step's GPU window (StepWindow: from the first start of the GPU
 * work launched inside the step to where the next step's begins; the windows partition the GPU's
 * timeline even when the GPU lags and steps' work overlaps). Busy is the
 * length of the union of all counted GPU work in the window (the GPU's, whichever step launched
 * it), idle = window − busy ≥ 0, and the sum over steps is at most the trace's GPU span. The
 * categories split busy exactly: each instant of it goes to computation if any computation runs
 * then (to the first of forward, backward, recompute, backward-other, other that runs), else to
 * communication, else to memcpy — so their sum is busy, and computation, communication and
 * memcpy are --summary's computation, exposed communication and exposed memcpy. A step without
 * GPU work has no window (events == 0).
 */
struct StepBreakdown {
    int64_t step = 0;
    TimeNs cpuStart = 0; //!< the ProfilerStep#N slice
    TimeNs cpuEnd = 0;
    uint64_t events = 0; //!< GPU events launched inside it
    TimeNs gpuStart = 0; //!< its GPU window (0 when events == 0)
    TimeNs gpuEnd = 0;
    TimeNs busy = 0;
    std::array<TimeNs, kStepCategories> parts {};

    TimeNs span() const { return gpuEnd - gpuStart; }
    TimeNs idle() const { return span() - busy; }
    TimeNs part(WorkPart c) const { return parts[size_t(c)]; }
};

//! The breakdown of each ProfilerStep, in step order.
std::vector<StepBreakdown> stepBreakdown(const OpGraph &graph);

//! The category of a counted GPU event launched by \a launch (computation by its launch's side).
WorkPart workPartOf(const OpGraph &graph, SliceId launch, GpuWork work);

//! A GPU interval's start (+1) or end (−1) in \a category, for splitBusy().
struct WorkEdge {
    TimeNs at;
    int delta;
    WorkPart category;
};

//! A stretch of time in which the GPU did one kind of work (splitIntervals()).
struct WorkInterval {
    TimeNs start;
    TimeNs end;
    WorkPart part;
};

/*!
 * The union of the intervals of \a edges (sorted here), each instant given to one category by
 * the precedence above (computation, then communication, then memcpy): stretches in time order
 * that do not overlap, neighbours of one category joined.
 */
std::vector<WorkInterval> splitIntervals(std::vector<WorkEdge> &edges);

//! The length of splitIntervals(\a edges) and its split by category, added to \a busy and
//! \a parts.
void splitBusy(
    std::vector<WorkEdge> &edges, TimeNs &busy, std::array<TimeNs, kStepCategories> &parts);

/*!
 * What the GPUs of a trace were doing, as one line (the run's one-line-per-rank view draws it):
 * splitIntervals() of every GPU event, those launched before the trace began too (the GPU time
 * figures do not count them; here their computation is "other").
 */
std::vector<WorkInterval> gpuWorkLine(const OpGraph &graph);

} // namespace ks
