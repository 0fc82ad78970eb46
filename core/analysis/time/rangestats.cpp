// SPDX-License-Identifier: MIT
#include "analysis/time/rangestats.h"

#include <algorithm>
#include <unordered_map>

namespace ks {

namespace {

//! Work a lane's busy time counts: ops and runtime calls on a thread, GPU work on a stream.
bool countsAsBusy(EventKind k)
{
    return k == EventKind::CpuOp || k == EventKind::Runtime || isGpuWork(k);
}

//! Whether an ancestor of \a s satisfies \a test.
template<typename Test> bool underAny(const SliceTable &t, SliceId s, Test test)
{
    for (SliceId p = t.parent[s]; p != kNoSlice; p = t.parent[p]) {
        if (test(t.kind[p]))
            return true;
    }
    return false;
}

//! Calls \a visit(s) for each slice of \a lane overlapping [a, b), in pre-order.
template<typename Visit>
void forEachOverlapping(const TraceModel &m, LaneId lane, TimeNs a, TimeNs b, Visit visit)
{
    // The slices enclosing a (outermost first), then those starting inside the range.
    std::vector<SliceId> enclosing;
    for (SliceId s = m.innermostAt(lane, a); s != kNoSlice; s = m.slices.parent[s]) {
        if (m.slices.start[s] < a)
            enclosing.push_back(s);
    }
    std::reverse(enclosing.begin(), enclosing.end());
    for (SliceId s : enclosing)
        visit(s);
    const SliceId first = m.firstStartingAtOrAfter(lane, a);
    if (first == kNoSlice)
        return;
    for (SliceId s = first; s < m.lanes[lane].sliceEnd && m.slices.start[s] < b; ++s)
        visit(s);
}

void addNamed(std::unordered_map<StringId, RangeStats::NamedTime> &byName,
    const TraceModel &m,
    SliceId s,
    TimeNs time)
{
    RangeStats::NamedTime &n = byName[m.slices.name[s]];
    n.name = m.sliceName(s);
    n.time += time;
    ++n.count;
}

std::vector<RangeStats::NamedTime> dearestFirst(
    const std::unordered_map<StringId, RangeStats::NamedTime> &byName)
{
    std::vector<RangeStats::NamedTime> out;
    out.reserve(byName.size());
    for (const auto &[id, n] : byName)
        out.push_back(n);
    std::sort(out.begin(), out.end(), [](const auto &x, const auto &y) {
        return x.time != y.time ? x.time > y.time : x.name < y.name;
    });
    return out;
}

} // namespace

RangeStats rangeStats(const OpGraph &graph, TimeNs begin, TimeNs end)
{
    const TraceModel &m = graph.model();
    const SliceTable &t = m.slices;
    RangeStats out;
    out.begin = begin;
    out.end = std::max(begin, end);
    const auto clipped = [&](SliceId s) {
        return std::max<TimeNs>(0, std::min(t.end(s), out.end) - std::max(t.start[s], begin));
    };
    std::unordered_map<StringId, RangeStats::NamedTime> kernels, ops;
    for (LaneId lane = 0; lane < m.lanes.size(); ++lane) {
        TimeNs busy = 0, coveredUntil = begin;
        forEachOverlapping(m, lane, begin, out.end, [&](SliceId s) {
            if (t.kind[s] == EventKind::CpuOp
                && !underAny(t, s, [](EventKind k) { return k == EventKind::CpuOp; }))
                addNamed(ops, m, s, clipped(s));
            if (isGpuWork(t.kind[s]))
                addNamed(kernels, m, s, clipped(s));
            if (!countsAsBusy(t.kind[s]) || underAny(t, s, countsAsBusy))
                return;
            // Outermost work comes in start order; a malformed overlap is counted once.
            const TimeNs from = std::max({t.start[s], begin, coveredUntil});
            const TimeNs to = std::min(t.end(s), out.end);
            if (to > from) {
                busy += to - from;
                coveredUntil = to;
            }
        });
        if (busy > 0)
            out.lanes.push_back({lane, busy});
    }
    out.kernels = dearestFirst(kernels);
    out.ops = dearestFirst(ops);
    std::vector<WorkEdge> edges;
    forEachCountedGpuEvent(graph, [&](SliceId g, SliceId launch, GpuWork work) {
        out.gpu = true;
        const TimeNs from = std::max(t.start[g], begin), to = std::min(t.end(g), out.end);
        if (to <= from)
            return;
        const WorkPart part = workPartOf(graph, launch, work);
        edges.push_back({from, 1, part});
        edges.push_back({to, -1, part});
    });
    splitBusy(edges, out.gpuBusy, out.gpuParts);
    return out;
}

} // namespace ks
