// SPDX-License-Identifier: MIT
#include "model/tracemodel.h"

#include <algorithm>
#include <tuple>

namespace ks {

FlowKind flowKindFromCategory(std::string_view c)
{
    if (c == "fwdbwd" || c == "forward_backward")
        return FlowKind::FwdBwd;
    // Names of the launch → GPU flow over the years: async (≤1.9), async_gpu (1.10),
    // async_cpu_to_gpu (to late 2022), ac2g.
    if (c == "ac2g" || c == "async" || c == "async_gpu" || c == "async_cpu_to_gpu")
        return FlowKind::LaunchToGpu;
    return FlowKind::Other;
}

const SeekPoint *GzipIndex::pointAtOrBefore(uint64_t textOffset) const
{
    auto it = std::upper_bound(points.begin(), points.end(), textOffset,
        [](uint64_t offset, const SeekPoint &p) { return offset < p.textOffset; });
    return it == points.begin() ? nullptr : &*(it - 1);
}

size_t GzipIndex::memoryUsage() const
{
    size_t n = points.capacity() * sizeof(SeekPoint);
    for (const SeekPoint &p : points)
        n += p.state.capacity();
    return n;
}

const GpuInfo *TraceModel::gpu(SliceId s) const
{
    const uint32_t x = slices.extra[s];
    return x != ~0u && hasGpuInfo(slices.kind[s]) ? &gpuInfo[x] : nullptr;
}

const CpuInfo *TraceModel::cpu(SliceId s) const
{
    const uint32_t x = slices.extra[s];
    return x != ~0u && !hasGpuInfo(slices.kind[s]) ? &cpuInfo[x] : nullptr;
}

SliceId TraceModel::innermostAt(LaneId laneId, TimeNs t) const
{
    const Lane &lane = lanes[laneId];
    auto first = slices.start.begin() + lane.sliceBegin;
    auto last = slices.start.begin() + lane.sliceEnd;
    // The last slice starting at or before t; anything enclosing t is it or one of its ancestors.
    auto it = std::upper_bound(first, last, t);
    if (it == first)
        return kNoSlice;
    SliceId s = SliceId(it - slices.start.begin()) - 1;
    while (s != kNoSlice) {
        if (slices.end(s) > t || slices.start[s] == t)
            return s;
        s = slices.parent[s];
    }
    return kNoSlice;
}

SliceId TraceModel::instantOwner(LaneId laneId, TimeNs t) const
{
    const Lane &lane = lanes[laneId];
    auto first = slices.start.begin() + lane.sliceBegin;
    auto last = slices.start.begin() + lane.sliceEnd;
    // The innermost slice around t among the ancestors of \a s (itself included).
    auto around = [&](SliceId s) {
        while (s != kNoSlice && slices.end(s) < t)
            s = slices.parent[s];
        return s;
    };
    auto after = std::upper_bound(first, last, t);
    if (after == first)
        return kNoSlice;
    SliceId owner = around(SliceId(after - slices.start.begin()) - 1);
    // Slices starting at t: the one ending at t lies just before the first of them.
    auto atT = std::lower_bound(first, after, t);
    if (atT != after && atT != first) {
        const SliceId ending = around(SliceId(atT - slices.start.begin()) - 1);
        if (ending != kNoSlice && (owner == kNoSlice || slices.depth[ending] > slices.depth[owner]))
            owner = ending;
    }
    return owner;
}

SliceId TraceModel::firstStartingAtOrAfter(LaneId laneId, TimeNs t) const
{
    const Lane &lane = lanes[laneId];
    auto first = slices.start.begin() + lane.sliceBegin;
    auto last = slices.start.begin() + lane.sliceEnd;
    auto it = std::lower_bound(first, last, t);
    return it == last ? kNoSlice : SliceId(it - slices.start.begin());
}

LaneId TraceModel::findLane(int64_t pid, int64_t tid, bool device) const
{
    const auto key = std::make_tuple(device, pid, tid);
    const auto it = std::lower_bound(lanes.begin(), lanes.end(), key,
        [](const Lane &l, const auto &k) { return std::make_tuple(l.device, l.pid, l.tid) < k; });
    return it != lanes.end() && std::make_tuple(it->device, it->pid, it->tid) == key
        ? LaneId(it - lanes.begin())
        : kNoLane;
}

std::string TraceModel::laneLabel(LaneId laneId) const
{
    const Lane &lane = lanes[laneId];
    if (lane.threadName != 0) {
        std::string name(str(lane.threadName));
        while (!name.empty() && name.back() == ' ')
            name.pop_back(); // kineto writes "stream 7 "
        return name;
    }
    const std::string tid(str(lane.tidText));
    if (lane.device)
        return tid.starts_with("stream") ? tid : "stream " + tid;
    return "thread " + tid;
}

StringId TraceModel::writtenName(SliceId s) const
{
    const auto it = std::lower_bound(
        writtenKernelNames.begin(), writtenKernelNames.end(), std::pair(s, StringId(0)));
    return it != writtenKernelNames.end() && it->first == s ? it->second : slices.name[s];
}

size_t TraceModel::memoryUsage() const
{
    auto bytes = [](const auto &v) { return v.capacity() * sizeof(v[0]); };
    const SliceTable &t = slices;
    size_t n = bytes(t.start) + bytes(t.dur) + bytes(t.name) + bytes(t.category) + bytes(t.kind)
        + bytes(t.flags) + bytes(t.lane) + bytes(t.depth) + bytes(t.parent) + bytes(t.subtreeEnd)
        + bytes(t.externalId) + bytes(t.correlation) + bytes(t.sequence) + bytes(t.fwdThread)
        + bytes(t.inputDims) + bytes(t.extra) + bytes(t.offset);
    n += bytes(gpuInfo) + bytes(cpuInfo) + bytes(flows) + bytes(lanes) + bytes(processes)
        + bytes(writtenKernelNames);
    n += bytes(instants.time) + bytes(instants.name) + bytes(instants.lane)
        + bytes(instants.offset);
    const MemoryTable &mt = memory;
    n += bytes(mt.time) + bytes(mt.lane) + bytes(mt.deviceType) + bytes(mt.deviceId)
        + bytes(mt.addr) + bytes(mt.bytes) + bytes(mt.totalAllocated) + bytes(mt.totalReserved)
        + bytes(mt.outOfMemory) + bytes(mt.offset);
    for (const CounterSeries &c : counters)
        n += bytes(c.time) + bytes(c.value);
    return n + strings.memoryUsage() + gzipIndex.memoryUsage();
}

} // namespace ks
