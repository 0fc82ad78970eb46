// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/time/stepbreakdown.h"

#include <string_view>
#include <vector>

namespace ks {

/*!
 * What ran inside a time range [begin, end) — the timeline's range selection, as Perfetto's
 * area selection — every duration clipped to the range:
 * - per lane, busy time: the union of its work (host threads: ops and runtime calls, not Python
 *   frames or annotations such as ProfilerStep#N, which cover everything; GPU streams: kernels,
 *   memcpys and memsets);
 * - the GPU's busy time split as a step's is (stepBreakdown(): counted GPU events, computation
 *   first), idle being the rest of the range;
 * - GPU events by name and host ops by name (outermost ops: an op inside another op is part of
 *   it), with their time inside the range and how many overlap it, dearest first.
 */
struct RangeStats {
    TimeNs begin = 0;
    TimeNs end = 0;

    struct LaneBusy {
        LaneId lane;
        TimeNs busy;
    };
    std::vector<LaneBusy> lanes; //!< lanes with work in the range, in lane order

    bool gpu = false; //!< the trace has counted GPU events: the GPU figures mean something
    TimeNs gpuBusy = 0;
    std::array<TimeNs, kStepCategories> gpuParts {};
    TimeNs gpuIdle() const { return end - begin - gpuBusy; }
    TimeNs gpuPart(WorkPart part) const { return gpuParts[size_t(part)]; }

    struct NamedTime {
        std::string_view name;
        TimeNs time = 0;
        uint64_t count = 0;
    };
    std::vector<NamedTime> kernels;
    std::vector<NamedTime> ops;
};

RangeStats rangeStats(const OpGraph &graph, TimeNs begin, TimeNs end);

} // namespace ks
