// SPDX-License-Identifier: MIT
#include "analysis/stepbreakdown.h"

#include <algorithm>

namespace ks {

std::vector<StepBreakdown> stepBreakdown(const OpGraph &graph)
{
    const TraceModel &m = graph.model();
    const SliceTable &t = m.slices;
    const auto &steps = graph.steps();
    std::vector<StepBreakdown> out(steps.size());
    std::vector<std::vector<std::pair<TimeNs, TimeNs>>> intervals(steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
        out[i].step = steps[i].number;
        out[i].span = steps[i].end - steps[i].start;
    }
    const std::vector<SliceId> &events = graph.gpuEvents();
    for (size_t k = 0; k < events.size(); ++k) {
        const SliceId g = events[k];
        const SliceId launch = graph.gpuLaunches()[k];
        if (launch != kNoSlice) {
            const int si = graph.stepIndexAt(t.start[launch]);
            if (si >= 0) {
                StepBreakdown &b = out[size_t(si)];
                switch (gpuSideOfLaunch(graph, launch)) {
                case GpuSide::Forward:
                    b.forward += t.dur[g];
                    break;
                case GpuSide::Backward:
                    b.backward += t.dur[g];
                    break;
                case GpuSide::BackwardOther:
                    b.backwardOther += t.dur[g];
                    break;
                case GpuSide::Recompute:
                    b.recompute += t.dur[g];
                    break;
                case GpuSide::Other:
                case GpuSide::Unattributed:
                    b.other += t.dur[g];
                    break;
                }
            }
        }
        // Busy time is about the device, whoever launched it: clip to each step it overlaps.
        auto first = std::upper_bound(steps.begin(), steps.end(), t.start[g],
            [](TimeNs v, const ProfilerStep &s) { return v < s.start; });
        if (first != steps.begin())
            --first;
        for (size_t i = size_t(first - steps.begin());
             i < steps.size() && steps[i].start < t.end(g); ++i) {
            const TimeNs a = std::max(t.start[g], steps[i].start);
            const TimeNs b = std::min(t.end(g), steps[i].end);
            if (a < b)
                intervals[i].emplace_back(a, b);
        }
    }
    for (size_t i = 0; i < steps.size(); ++i) {
        auto &iv = intervals[i];
        std::sort(iv.begin(), iv.end());
        TimeNs busy = 0, curA = 0, curB = 0;
        bool open = false;
        for (const auto &[a, b] : iv) {
            if (!open || a > curB) {
                if (open)
                    busy += curB - curA;
                curA = a;
                curB = b;
                open = true;
            } else {
                curB = std::max(curB, b);
            }
        }
        if (open)
            busy += curB - curA;
        out[i].busy = busy;
    }
    return out;
}

} // namespace ks
