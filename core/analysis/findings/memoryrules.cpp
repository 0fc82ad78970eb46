// SPDX-License-Identifier: MIT
#include "analysis/findings/memoryrules.h"

#include "analysis/findings/ruletools.h"
#include "base/unitstext.h"

#include <algorithm>

namespace ks {

namespace {

//! A device's peak: what its allocator reserved, else what it allocated; kNoValue: not told.
int64_t peakOf(const MemoryDevice &d)
{
    return d.peakReserved != kNoValue ? d.peakReserved : d.peakAllocated;
}

//! The memory of GPU \a d as the trace's `deviceProperties` give it; 0 when not given.
int64_t deviceMemory(const MemoryDevice &d, const std::vector<OpEfficiency::Device> &devices)
{
    for (const OpEfficiency::Device &device : devices)
        if (d.deviceType != 0 && device.trace.id == d.deviceId)
            return device.trace.totalMemory;
    return 0;
}

//! The GPU work recomputed in rank \a rank's window of \a path, and all its GPU work there (as
//! HTA's window: launched in it).
std::pair<TimeNs, TimeNs> recomputeGpuShare(const CriticalPathAnalysis &path, uint32_t rank)
{
    const OpGraph &graph = *path.ranks()[rank].graph;
    const SliceTable &slices = graph.model().slices;
    const RankOnPath &window = path.path().ranks[rank];
    TimeNs recomputed = 0, all = 0;
    for (SliceId s = 0; s < slices.size(); ++s) {
        if (!isGpuWork(slices.kind[s]))
            continue;
        const SliceId launch = graph.launchOf(s);
        const TimeNs at = slices.start[launch == kNoSlice ? s : launch];
        if (at < window.windowStart || at >= window.windowEnd)
            continue;
        all += slices.dur[s];
        if (graph.recomputationOf(s) >= 0)
            recomputed += slices.dur[s];
    }
    return {recomputed, all};
}

bool nearLimit(int64_t peak, int64_t total)
{
    return total > 0 && peak != kNoValue && double(peak) >= (1 - kNearLimit) * double(total);
}

} // namespace

void findFragmentation(const MemoryIndex &memory, std::vector<StepFinding> &out)
{
    for (const MemoryDevice &d : memory.devices()) {
        // A GPU's caching allocator: the CPU's reports no cached blocks to reuse.
        if (d.deviceType == 0 || d.peakAllocated == kNoValue || d.peakReserved == kNoValue
            || d.peakAllocated <= 0
            || double(d.peakReserved) <= kReservedOverAllocated * double(d.peakAllocated))
            continue;
        StepFinding f;
        f.rule = "memory_fragmentation";
        f.title = memoryDeviceName(d.deviceType, d.deviceId) + " reserved "
            + bytesText(double(d.peakReserved)) + " at most for "
            + bytesText(double(d.peakAllocated))
            + " allocated at most: " + bytesText(double(d.peakReserved - d.peakAllocated))
            + " held in cached blocks (fragmentation), which bounds the batch that fits.";
        f.how = "not a change of the step's work: it frees memory, not time";
        f.fix = "Let the caching allocator grow segments instead of splitting them: "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; allocate tensors of "
                "varying size less often (pad sequence lengths to buckets).";
        f.doc = "https://pytorch.org/docs/stable/notes/"
                "cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf";
        out.push_back(std::move(f));
    }
}

void findMemoryNearLimit(const MemoryIndex &memory,
    const std::vector<OpEfficiency::Device> &devices,
    std::vector<StepFinding> &out)
{
    for (const MemoryDevice &d : memory.devices()) {
        const int64_t total = deviceMemory(d, devices);
        const int64_t peak = peakOf(d);
        if (!nearLimit(peak, total))
            continue;
        StepFinding f;
        f.rule = "memory_near_limit";
        f.title = memoryDeviceName(d.deviceType, d.deviceId) + " held up to "
            + bytesText(double(peak)) + " of its " + bytesText(double(total)) + " ("
            + percentText(double(peak), double(total), 1)
            + " %): a larger batch, a longer sequence or a fragmented cache runs out of memory.";
        f.how = "not a change of the step's work: it is memory, not time";
        f.fix
            = "Make room before growing the work: activation checkpointing "
              "(torch.utils.checkpoint), bf16 with torch.autocast, optimizer states sharded "
              "(FSDP, ZeroRedundancyOptimizer), PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.";
        f.doc = "https://pytorch.org/docs/stable/torch_cuda_memory.html";
        out.push_back(std::move(f));
    }
}

void findRecompute(const CriticalPathAnalysis &path,
    const MemoryIndex *memory,
    const std::vector<OpEfficiency::Device> &devices,
    std::vector<StepFinding> &out)
{
    const auto recomputed = causes(path, [&](const PathSegment &seg) {
        return path.ranks()[seg.rank].graph->recomputationOf(seg.event) >= 0
            ? std::string("recompute")
            : std::string();
    });
    if (recomputed.empty())
        return;
    const Cause &cause = recomputed.begin()->second;
    std::string room;
    for (const MemoryDevice &d : memory ? memory->devices() : std::vector<MemoryDevice>()) {
        const int64_t total = deviceMemory(d, devices);
        const int64_t peak = peakOf(d);
        if (total <= 0 || peak == kNoValue)
            continue;
        if (nearLimit(peak, total))
            return; // no room to keep the activations
        room.append(room.empty() ? "; " : ", ")
            .append(memoryDeviceName(d.deviceType, d.deviceId))
            .append(" peaks at ")
            .append(bytesText(double(peak)))
            .append(" of ")
            .append(bytesText(double(total)))
            .append(", ")
            .append(bytesText(double(total - peak)))
            .append(" free");
    }
    const auto [gpu, stepGpu] = recomputeGpuShare(path, cause.events.front().rank);
    StepFinding f;
    f.rule = "recompute";
    f.title = "Recomputing checkpointed activations takes " + microsOf(cause.onPath)
        + " of the critical path of " + stepText(path) + " (its GPU work " + microsOf(gpu) + ", "
        + percentText(double(gpu), double(stepGpu), 1) + " % of the step's)"
        + (room.empty() ? std::string("; the device's memory is not known") : room) + ".";
    f.fix = "Checkpoint fewer layers while memory allows (torch.utils.checkpoint on every other "
            "block, or selective checkpointing that saves the matmuls' outputs): each layer kept "
            "costs its activations' memory and saves its recompute.";
    f.doc = "https://pytorch.org/docs/stable/checkpoint.html";
    addIfShorter(path, {WhatIfChange::Kind::NoRecompute}, cause, std::move(f), out);
}

} // namespace ks
