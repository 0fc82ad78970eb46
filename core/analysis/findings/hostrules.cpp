// SPDX-License-Identifier: MIT
#include "analysis/findings/hostrules.h"

#include "analysis/findings/ruletools.h"
#include "model/slicewalk.h"

#include <algorithm>
#include <array>
#include <map>

namespace ks {

namespace {

//! The innermost op around \a s and the innermost Python frame, as "aten::item (train.py(9): f)".
std::string callerText(const TraceModel &m, SliceId s)
{
    std::string out;
    for (SliceId p = m.slices.parent[s]; p != kNoSlice; p = m.slices.parent[p])
        if (m.slices.kind[p] == EventKind::CpuOp) {
            out = std::string(m.sliceName(p));
            break;
        }
    const std::vector<SliceId> frames = pythonStack(m, s);
    if (!frames.empty())
        out.append(out.empty() ? "(" : " (").append(m.sliceName(frames.front())).append(")");
    return out;
}

//! A DataLoader iterator's step: torch.utils.data's record_function
//! `enumerate(DataLoader)#….__next__`, or its Python frame.
bool isLoaderStep(const TraceModel &m, SliceId s)
{
    const std::string_view name = m.sliceName(s);
    return name.starts_with("enumerate(DataLoader)")
        || (m.slices.kind[s] == EventKind::PythonFunction
            && name.find("dataloader.py") != std::string_view::npos && name.ends_with("__next__"));
}

//! \a m's outermost DataLoader steps by host lane, each lane's by start.
std::map<LaneId, std::vector<SliceId>> loaderSteps(const TraceModel &m)
{
    std::map<LaneId, std::vector<SliceId>> out;
    for (LaneId lane = 0; lane < m.lanes.size(); ++lane) {
        if (m.lanes[lane].device)
            continue;
        for (SliceId s = m.lanes[lane].sliceBegin; s < m.lanes[lane].sliceEnd; ++s)
            if (isLoaderStep(m, s)) {
                out[lane].push_back(s);
                s = m.slices.subtreeEnd[s] - 1; // what is inside it is its own
            }
    }
    return out;
}

bool isKernelLaunch(std::string_view name)
{
    return name.find("LaunchKernel") != std::string_view::npos;
}

} // namespace

void findHostSyncs(const CriticalPathAnalysis &path, std::vector<StepFinding> &out)
{
    const auto byCall = causes(path, [&](const PathSegment &seg) {
        return seg.bound == PathBound::SyncWait ? std::string(nameOf(path, seg)) : std::string();
    });
    for (auto [call, cause] : byCall) {
        const FindingEvidence &first = cause.events.front();
        const std::string caller = callerText(modelOf(path, first.rank), first.event);
        StepFinding f;
        f.rule = "host_sync";
        f.title = call;
        if (!caller.empty())
            f.title.append(" called from ").append(caller);
        f.title.append(" waits ")
            .append(microsOf(cause.onPath))
            .append(" for the GPU on the critical path of ")
            .append(stepText(path))
            .append(" (")
            .append(countOf(cause.events.size(), "call", "calls"))
            .append("): the host launches nothing meanwhile.");
        f.fix = "Keep values on the GPU inside the step: no .item(), .cpu(), .tolist() or "
                "printing of CUDA tensors there (log them every N steps), copies with "
                "non_blocking=True; torch.cuda.set_sync_debug_mode(\"warn\") names each sync.";
        f.doc = "https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html"
                "#avoid-unnecessary-cpu-gpu-synchronization";
        addIfShorter(path, {WhatIfChange::Kind::NoWait, call}, std::move(cause), std::move(f), out);
    }
}

void findDeviceFrees(const CriticalPathAnalysis &path, std::vector<StepFinding> &out)
{
    static constexpr std::array<std::string_view, 4> kFrees
        = {"cudaFree", "hipFree", "cudaFreeHost", "hipHostFree"};
    // The calls' own time: idle told under the call that waited after it is not the free's.
    const auto frees = causes(path, [&](const PathSegment &seg) {
        const std::string_view name = nameOf(path, seg);
        return seg.kind == PathEdgeKind::Span
                && std::find(kFrees.begin(), kFrees.end(), name) != kFrees.end()
            ? std::string(name)
            : std::string();
    });
    for (auto [name, cause] : frees) {
        StepFinding f;
        f.rule = "device_free";
        f.title = name;
        f.title.append(" gives device memory back on the critical path of ")
            .append(stepText(path))
            .append(": ")
            .append(microsOf(cause.onPath))
            .append(" in ")
            .append(countOf(cause.events.size(), "call", "calls"))
            .append(", each waiting for the device.");
        f.fix = "Let PyTorch's caching allocator keep its blocks: no torch.cuda.empty_cache() "
                "in the step, steady tensor shapes, "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True where fragmentation forces "
                "frees; free outside the step.";
        f.doc = "https://pytorch.org/docs/stable/notes/cuda.html#memory-management";
        addIfShorter(path, {WhatIfChange::Kind::NoTime, name}, std::move(cause), std::move(f), out);
    }
}

void findDataLoading(const CriticalPathAnalysis &path, std::vector<StepFinding> &out)
{
    // The path's time inside a DataLoader step on its thread: its ops, and the idle time a
    // record_function (no node of the graph) leaves between them.
    std::vector<std::map<LaneId, std::vector<SliceId>>> loaders;
    for (uint32_t r = 0; r < path.ranks().size(); ++r)
        loaders.push_back(loaderSteps(modelOf(path, r)));
    std::map<std::string, Cause> byName;
    for (const PathSegment &seg : path.path().segments) {
        if (seg.event == kNoSlice)
            continue;
        const TraceModel &m = modelOf(path, seg.rank);
        bool inside = false;
        if (const auto lane = loaders[seg.rank].find(m.slices.lane[seg.event]);
            lane != loaders[seg.rank].end())
            for (SliceId loader : lane->second) {
                const TimeNs overlap = std::min(seg.start + seg.dur, m.slices.end(loader))
                    - std::max(seg.start, m.slices.start[loader]);
                if (overlap <= 0)
                    continue;
                inside = true;
                Cause &c = byName[std::string(m.sliceName(loader))];
                c.onPath += overlap;
                if (std::none_of(c.events.begin(), c.events.end(),
                        [&](const FindingEvidence &e) { return e.event == loader; }))
                    c.events.push_back({seg.rank, loader});
            }
        if (!inside && seg.bound == PathBound::DataLoading) { // what --data-loading names
            Cause &c = byName[std::string(m.sliceName(seg.event))];
            c.onPath += seg.dur;
            c.events.push_back({seg.rank, seg.event});
        }
    }
    for (const auto &[name, cause] : byName) {
        StepFinding f;
        f.rule = "data_loading";
        f.title = "Loading the next batch (" + name + ") holds the critical path of "
            + stepText(path) + " for " + microsOf(cause.onPath) + ": the step waits for its data.";
        f.fix = "Load batches ahead of the step: DataLoader(num_workers=N, pin_memory=True, "
                "prefetch_factor=2 or more, persistent_workers=True); decode and augment in the "
                "workers or on the GPU.";
        f.doc = "https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html"
                "#enable-asynchronous-data-loading-and-augmentation";
        addIfShorter(path, {WhatIfChange::Kind::NoTime, name}, cause, std::move(f), out);
    }
}

void findLaunchBound(const CriticalPathAnalysis &path, std::vector<StepFinding> &out)
{
    // The launch calls on the path, and those of the kernels the path waits on: after their
    // launch delay, or after the gap HTA tells under the GPU event before them.
    const std::vector<PathSegment> &segments = path.path().segments;
    std::map<std::string, Cause> launches;
    for (size_t i = 0; i < segments.size(); ++i) {
        const PathSegment &seg = segments[i];
        const OpGraph &graph = *path.ranks()[seg.rank].graph;
        SliceId call = kNoSlice;
        if (seg.kind == PathEdgeKind::Span)
            call = seg.event;
        else if (seg.bound == PathBound::Launch)
            call = graph.launchOf(seg.event);
        else if (seg.bound == PathBound::KernelKernel && i + 1 < segments.size())
            call = graph.launchOf(segments[i + 1].event);
        const std::string_view name
            = call == kNoSlice ? std::string_view() : graph.model().sliceName(call);
        if (!isKernelLaunch(name))
            continue;
        Cause &c = launches[std::string(name)];
        c.onPath += seg.dur;
        if (std::none_of(c.events.begin(), c.events.end(),
                [&](const FindingEvidence &e) { return e.rank == seg.rank && e.event == call; }))
            c.events.push_back({seg.rank, call});
    }
    for (const auto &[name, cause] : launches) {
        TimeNs launched = 0, ran = 0;
        for (const FindingEvidence &e : cause.events) {
            const OpGraph &graph = *path.ranks()[e.rank].graph;
            launched += graph.model().slices.dur[e.event];
            for (SliceId g : graph.gpuEventsUnder(e.event))
                ran += graph.model().slices.dur[g];
        }
        if (ran >= launched) // the GPU is the slower: it is not waiting for the launches
            continue;
        StepFinding f;
        f.rule = "launch_bound";
        f.title = "The host launches kernels slower than the GPU runs them on the critical path of "
            + stepText(path) + ": " + countOf(cause.events.size(), name + " call", name + " calls")
            + " take " + microsOf(launched) + ", their kernels " + microsOf(ran) + " ("
            + microsOf(cause.onPath) + " of the path waits on them).";
        f.fix = "Launch less from Python: capture the step's steady part in a CUDA graph "
                "(torch.compile(mode=\"reduce-overhead\") or torch.cuda.graphs), fuse small ops "
                "(torch.compile), larger batches per kernel.";
        f.doc = "https://pytorch.org/docs/stable/notes/cuda.html#cuda-graphs";
        addIfShorter(path, {WhatIfChange::Kind::NoLaunch, name}, cause, std::move(f), out);
    }
}

} // namespace ks
