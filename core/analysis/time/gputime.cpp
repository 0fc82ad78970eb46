// SPDX-License-Identifier: MIT
#include "analysis/time/gputime.h"

#include "link/opnames.h"

#include <algorithm>
#include <limits>

namespace ks {

namespace {

using Interval = std::pair<TimeNs, TimeNs>;
//! Disjoint intervals in ascending order.
using IntervalSet = std::vector<Interval>;

IntervalSet merged(std::vector<Interval> iv)
{
    std::sort(iv.begin(), iv.end());
    IntervalSet out;
    for (const Interval &i : iv) {
        if (!out.empty() && i.first <= out.back().second)
            out.back().second = std::max(out.back().second, i.second);
        else
            out.push_back(i);
    }
    return out;
}

IntervalSet unite(const IntervalSet &a, const IntervalSet &b)
{
    std::vector<Interval> all(a);
    all.insert(all.end(), b.begin(), b.end());
    return merged(std::move(all));
}

TimeNs length(const IntervalSet &s)
{
    TimeNs n = 0;
    for (const auto &[a, b] : s)
        n += b - a;
    return n;
}

//! |a − b| for disjoint sorted sets: a's length less its overlap with b (a two-pointer sweep).
TimeNs lengthOutside(const IntervalSet &a, const IntervalSet &b)
{
    TimeNs overlap = 0;
    size_t j = 0;
    for (const auto &[a0, a1] : a) {
        while (j < b.size() && b[j].second <= a0)
            ++j;
        for (size_t k = j; k < b.size() && b[k].first < a1; ++k)
            overlap += std::min(a1, b[k].second) - std::max(a0, b[k].first);
    }
    return length(a) - overlap;
}

constexpr size_t kClasses = 3;

//! Collects the counted GPU events by class and reduces them to a breakdown.
class BreakdownBuilder {
public:
    void add(GpuWork c, TimeNs start, TimeNs end)
    {
        m_intervals[size_t(c)].emplace_back(start, end);
        m_first = m_events == 0 ? start : std::min(m_first, start);
        m_last = m_events == 0 ? end : std::max(m_last, end);
        ++m_events;
    }

    GpuTimeBreakdown result() const
    {
        GpuTimeBreakdown b;
        if (m_events == 0)
            return b;
        const IntervalSet comp = merged(m_intervals[size_t(GpuWork::Computation)]);
        const IntervalSet comm = merged(m_intervals[size_t(GpuWork::Communication)]);
        const IntervalSet copy = merged(m_intervals[size_t(GpuWork::Memcpy)]);
        const IntervalSet compOrComm = unite(comp, comm);
        b.events = m_events;
        b.computation = length(comp);
        b.totalComm = length(comm);
        b.totalMemcpy = length(copy);
        b.exposedComm = lengthOutside(comm, comp);
        b.exposedMemcpy = lengthOutside(copy, compOrComm);
        b.busy = length(unite(compOrComm, copy));
        b.total = m_last - m_first;
        b.idle = b.total - b.computation - b.exposedComm - b.exposedMemcpy;
        return b;
    }

private:
    std::vector<Interval> m_intervals[kClasses];
    TimeNs m_first = 0;
    TimeNs m_last = 0;
    uint64_t m_events = 0;
};

} // namespace

void forEachGpuEvent(const OpGraph &graph, const std::function<void(SliceId, SliceId, GpuWork)> &f)
{
    const TraceModel &m = graph.model();
    CommunicationNames communication(m);
    const std::vector<SliceId> &events = graph.gpuEvents();
    for (size_t i = 0; i < events.size(); ++i) {
        const SliceId g = events[i];
        GpuWork c = GpuWork::Computation;
        if (m.slices.kind[g] == EventKind::Memcpy)
            c = GpuWork::Memcpy;
        else if (m.slices.kind[g] == EventKind::Kernel && communication(g))
            c = GpuWork::Communication;
        f(g, graph.gpuLaunches()[i], c);
    }
}

void forEachCountedGpuEvent(
    const OpGraph &graph, const std::function<void(SliceId, SliceId, GpuWork)> &f)
{
    forEachGpuEvent(graph, [&](SliceId g, SliceId launch, GpuWork work) {
        if (launch != kNoSlice)
            f(g, launch, work);
    });
}

std::array<std::pair<std::string_view, TimeNs>, 8> gpuTimeFields(const GpuTimeBreakdown &b)
{
    return {{{"computation_us", b.computation}, {"exposed_comm_us", b.exposedComm},
        {"exposed_memcpy_us", b.exposedMemcpy}, {"busy_us", b.busy}, {"idle_us", b.idle},
        {"total_us", b.total}, {"total_comm_us", b.totalComm}, {"total_memcpy_us", b.totalMemcpy}}};
}

GpuTimeBreakdown gpuTimeOfFields(const std::array<TimeNs, 8> &f)
{
    GpuTimeBreakdown b;
    b.computation = f[0];
    b.exposedComm = f[1];
    b.exposedMemcpy = f[2];
    b.busy = f[3];
    b.idle = f[4];
    b.total = f[5];
    b.totalComm = f[6];
    b.totalMemcpy = f[7];
    return b;
}

TimeNs busyTime(std::vector<std::pair<TimeNs, TimeNs>> intervals)
{
    return length(merged(std::move(intervals)));
}

GpuTimeBreakdown gpuTimeBreakdown(const OpGraph &graph)
{
    const SliceTable &t = graph.model().slices;
    BreakdownBuilder builder;
    forEachCountedGpuEvent(
        graph, [&](SliceId g, SliceId, GpuWork c) { builder.add(c, t.start[g], t.end(g)); });
    return builder.result();
}

std::vector<StepWindow> stepGpuWindows(const OpGraph &graph)
{
    const SliceTable &t = graph.model().slices;
    std::vector<StepWindow> out(graph.steps().size());
    std::vector<TimeNs> workEnd(out.size(), 0);
    forEachCountedGpuEvent(graph, [&](SliceId g, SliceId launch, GpuWork) {
        const int si = graph.stepIndexAt(t.start[launch]);
        if (si < 0)
            return;
        StepWindow &w = out[size_t(si)];
        w.start = w.events == 0 ? t.start[g] : std::min(w.start, t.start[g]);
        workEnd[size_t(si)] = w.events == 0 ? t.end(g) : std::max(workEnd[size_t(si)], t.end(g));
        ++w.events;
    });
    TimeNs previousEnd = std::numeric_limits<TimeNs>::min();
    for (size_t i = 0; i < out.size(); ++i) {
        StepWindow &w = out[i];
        if (w.events == 0)
            continue;
        w.start = std::max(w.start, previousEnd);
        const auto next = std::find_if(out.begin() + ptrdiff_t(i) + 1, out.end(),
            [](const StepWindow &n) { return n.events > 0; });
        w.end = std::max(w.start, next == out.end() ? workEnd[i] : next->start);
        previousEnd = w.end;
    }
    return out;
}

std::vector<StepGpuTime> gpuTimePerStep(const OpGraph &graph)
{
    const SliceTable &t = graph.model().slices;
    const auto &steps = graph.steps();
    const std::vector<StepWindow> windows = stepGpuWindows(graph);
    std::vector<BreakdownBuilder> builders(steps.size());
    std::vector<std::pair<TimeNs, size_t>> starts; // the windows, by start, for the search
    for (size_t i = 0; i < windows.size(); ++i)
        if (windows[i].events > 0)
            starts.emplace_back(windows[i].start, i);
    // Each event's time in each window it overlaps (the windows are disjoint, in time order).
    forEachCountedGpuEvent(graph, [&](SliceId g, SliceId, GpuWork c) {
        auto it = std::upper_bound(starts.begin(), starts.end(), std::pair(t.start[g], ~size_t(0)));
        if (it != starts.begin())
            --it;
        for (; it != starts.end() && it->first < t.end(g); ++it) {
            const StepWindow &w = windows[it->second];
            const TimeNs start = std::max(t.start[g], w.start), end = std::min(t.end(g), w.end);
            if (start < end)
                builders[it->second].add(c, start, end);
        }
    });
    std::vector<StepGpuTime> out;
    for (size_t i = 0; i < steps.size(); ++i) {
        GpuTimeBreakdown b = builders[i].result();
        b.events = windows[i].events;
        if (windows[i].events > 0) { // the window, idle included at its ends
            b.total = windows[i].end - windows[i].start;
            b.idle = b.total - b.busy;
        }
        out.push_back({steps[i].number, b});
    }
    return out;
}

} // namespace ks
