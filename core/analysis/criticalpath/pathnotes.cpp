// SPDX-License-Identifier: MIT
#include "analysis/criticalpath/pathnotes.h"

#include "analysis/criticalpath/criticalpath.h"
#include "base/kernelname.h"
#include "base/unitstext.h"

#include <set>

namespace ks {

namespace {

constexpr size_t kMostNotes = 3;

//! The stream of \a event's device busiest until \a end among those other than its own that had
//! work in [\a from, \a end): the one whose work there ended last; -1 if none.
int32_t busyStreamBeside(const OpGraph &graph, SliceId event, TimeNs from, TimeNs end)
{
    const TraceModel &m = graph.model();
    const GpuInfo &own = *m.gpu(event);
    int32_t busy = -1;
    TimeNs lastEnd = 0;
    for (SliceId k : graph.gpuEvents()) {
        const GpuInfo &g = *m.gpu(k);
        if (g.device != own.device || g.stream == own.stream)
            continue;
        const TimeNs kEnd = m.slices.end(k);
        if (kEnd > from && m.slices.start[k] < end && std::min(kEnd, end) > lastEnd) {
            lastEnd = std::min(kEnd, end);
            busy = g.stream;
        }
    }
    return busy;
}

} // namespace

std::vector<std::string> unrecordedDependencies(
    const CriticalPath &path, const std::vector<PathRankInput> &ranks)
{
    std::vector<std::string> notes;
    std::set<std::tuple<uint32_t, int32_t, int32_t>> told; // (rank, device, stream)
    for (size_t i = 0; i < path.segments.size() && notes.size() < kMostNotes; ++i) {
        const PathSegment &seg = path.segments[i];
        const OpGraph &graph = *ranks[seg.rank].graph;
        const TraceModel &m = graph.model();
        if (seg.event == kNoSlice || !isGpuWork(m.slices.kind[seg.event]))
            continue;
        // The wait before a GPU event: idle on its stream, a launch delay too long to be one, or
        // in HTA's model nothing at all before the path.
        const bool idle = seg.bound == PathBound::Idle
            || (seg.kind == PathEdgeKind::LaunchDelay && seg.dur >= kKernelKernelThreshold);
        const bool first = i == 0 && path.model == PathModel::Hta && seg.kind == PathEdgeKind::Span;
        if (!idle && !first)
            continue;
        const TimeNs from = idle ? seg.start : path.ranks[seg.rank].windowStart;
        const TimeNs until = idle ? seg.start + seg.dur : seg.start;
        const GpuInfo &g = *m.gpu(seg.event);
        const int32_t busy = busyStreamBeside(graph, seg.event, from, until);
        if (busy < 0 || !told.insert({seg.rank, g.device, g.stream}).second)
            continue;
        std::string note = ranks.size() > 1 ? "rank " + std::to_string(ranks[seg.rank].rank) + ": "
                                            : std::string();
        note += "GPU " + std::to_string(g.device) + " stream " + std::to_string(g.stream)
            + " waited " + durationText(double(until - from)) + " before "
            + shortKernelName(m.sliceName(seg.event))
            + " with nothing recorded to wait for, while stream " + std::to_string(busy)
            + " was busy: no event record and wait in the trace joins the two streams (common on "
              "ROCm), so whether it waited for that work is unknown. --assume-stream-order "
              "joins each GPU event to the work launched before it on its device.";
        notes.push_back(std::move(note));
    }
    return notes;
}

} // namespace ks
