// SPDX-License-Identifier: MIT
#include "analysis/time/stepbreakdown.h"

#include "link/gpuside.h"

#include <algorithm>

namespace ks {

namespace {

//! Which category an instant belongs to when several run: computation first, in this order.
constexpr std::array<WorkPart, kStepCategories> kPrecedence
    = {WorkPart::Forward, WorkPart::Backward, WorkPart::Recompute, WorkPart::BackwardOther,
        WorkPart::Other, WorkPart::Communication, WorkPart::Memcpy};

} // namespace

WorkPart workPartOf(const OpGraph &graph, SliceId launch, GpuWork work)
{
    if (work == GpuWork::Communication)
        return WorkPart::Communication;
    if (work == GpuWork::Memcpy)
        return WorkPart::Memcpy;
    switch (gpuSideOfLaunch(graph, launch)) {
    case GpuSide::Forward:
        return WorkPart::Forward;
    case GpuSide::Backward:
        return WorkPart::Backward;
    case GpuSide::BackwardOther:
        return WorkPart::BackwardOther;
    case GpuSide::Recompute:
        return WorkPart::Recompute;
    case GpuSide::Other:
    case GpuSide::Unattributed:
        break;
    }
    return WorkPart::Other;
}

std::vector<WorkInterval> splitIntervals(std::vector<WorkEdge> &edges)
{
    std::sort(edges.begin(), edges.end(),
        [](const WorkEdge &a, const WorkEdge &b) { return a.at < b.at; });
    std::vector<WorkInterval> out;
    std::array<int, kStepCategories> running {};
    for (size_t i = 0; i < edges.size();) {
        const TimeNs at = edges[i].at;
        for (; i < edges.size() && edges[i].at == at; ++i)
            running[size_t(edges[i].category)] += edges[i].delta;
        if (i == edges.size())
            break;
        const auto part = std::find_if(kPrecedence.begin(), kPrecedence.end(),
            [&](WorkPart c) { return running[size_t(c)] > 0; });
        if (part == kPrecedence.end())
            continue; // idle until the next start
        if (!out.empty() && out.back().end == at && out.back().part == *part)
            out.back().end = edges[i].at;
        else
            out.push_back({at, edges[i].at, *part});
    }
    return out;
}

void splitBusy(
    std::vector<WorkEdge> &edges, TimeNs &busy, std::array<TimeNs, kStepCategories> &parts)
{
    for (const WorkInterval &w : splitIntervals(edges)) {
        parts[size_t(w.part)] += w.end - w.start;
        busy += w.end - w.start;
    }
}

std::vector<WorkInterval> gpuWorkLine(const OpGraph &graph)
{
    const SliceTable &t = graph.model().slices;
    std::vector<WorkEdge> edges;
    forEachGpuEvent(graph, [&](SliceId g, SliceId launch, GpuWork work) {
        const WorkPart part = workPartOf(graph, launch, work);
        edges.push_back({t.start[g], 1, part});
        edges.push_back({t.end(g), -1, part});
    });
    return splitIntervals(edges);
}

std::string_view workPartName(WorkPart part)
{
    static constexpr std::array<std::string_view, 10> names
        = {"forward", "backward", "backward_other", "recompute", "communication", "memcpy", "other",
            "idle", "recomputed", "computation"};
    return names[size_t(part)];
}

std::vector<StepBreakdown> stepBreakdown(const OpGraph &graph)
{
    const SliceTable &t = graph.model().slices;
    const std::vector<ProfilerStep> &steps = graph.steps();
    const std::vector<StepWindow> windows = stepGpuWindows(graph);
    std::vector<StepBreakdown> out(steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
        out[i].step = steps[i].number;
        out[i].cpuStart = steps[i].start;
        out[i].cpuEnd = steps[i].end;
        out[i].events = windows[i].events;
        out[i].gpuStart = windows[i].start;
        out[i].gpuEnd = windows[i].end;
    }
    std::vector<WorkEdge> edges; // every counted GPU event's: the windows share the GPU's time
    forEachCountedGpuEvent(graph, [&](SliceId g, SliceId launch, GpuWork work) {
        const WorkPart c = workPartOf(graph, launch, work);
        edges.push_back({t.start[g], 1, c});
        edges.push_back({t.end(g), -1, c});
    });
    // The GPU's stretches of work, in time order, cut at the windows' bounds.
    const std::vector<WorkInterval> work = splitIntervals(edges);
    size_t w = 0;
    for (StepBreakdown &b : out) {
        if (b.events == 0)
            continue;
        while (w < work.size() && work[w].end <= b.gpuStart)
            ++w;
        for (size_t k = w; k < work.size() && work[k].start < b.gpuEnd; ++k) {
            const TimeNs length
                = std::min(work[k].end, b.gpuEnd) - std::max(work[k].start, b.gpuStart);
            b.parts[size_t(work[k].part)] += length;
            b.busy += length;
        }
    }
    return out;
}

} // namespace ks
