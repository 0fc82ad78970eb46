// SPDX-License-Identifier: MIT
#include "analysis/livememory.h"

#include "base/saturating.h"
#include "link/opnames.h"

#include <algorithm>

namespace ks {

std::string_view liveCategoryName(LiveCategory category)
{
    switch (category) {
    case LiveCategory::Activation:
        return "activation";
    case LiveCategory::Gradient:
        return "gradient";
    case LiveCategory::Optimizer:
        return "optimizer";
    case LiveCategory::Temporary:
        return "temporary";
    case LiveCategory::BeforeWindow:
        return "before_window";
    case LiveCategory::Other:
    case LiveCategory::Count:
        break;
    }
    return "other";
}

LiveMemory::LiveMemory(const MemoryIndex &index)
    : m_index(index)
{
    const BackwardPasses passes(index.graph());
    m_categories.reserve(index.allocations().size());
    for (const Allocation &a : index.allocations())
        m_categories.push_back(categorize(a, passes));
}

LiveCategory LiveMemory::categorize(const Allocation &a, const BackwardPasses &passes) const
{
    const OpGraph &g = m_index.graph();
    const TraceModel &m = g.model();
    const MemoryTable &t = m.memory;
    const bool freed = a.freeEvent >= 0;
    const TimeNs freeTime = freed ? t.time[size_t(a.freeEvent)] : 0;
    bool optimizer = false, accumulate = false;
    SliceId node = kNoSlice; // the backward node (its evaluate_function wrapper) around it
    for (SliceId s = m.instantOwner(t.lane[a.event], t.time[a.event]); s != kNoSlice;
         s = m.slices.parent[s]) {
        const std::string_view name = m.sliceName(s);
        optimizer = optimizer || isOptimizerScope(name);
        accumulate = accumulate || name.find("AccumulateGrad") != std::string_view::npos;
        if (const int n = g.nodeOf(s); n >= 0 && node == kNoSlice)
            node = g.nodes()[size_t(n)].outer;
    }
    // Freed inside the one op that allocated it (a node: its wrapper), by pre-order ids.
    const SliceId scope = node != kNoSlice ? node : a.op;
    if (freed && scope != kNoSlice && a.freeOp >= scope && a.freeOp < m.slices.subtreeEnd[scope])
        return LiveCategory::Temporary;
    if (optimizer)
        return LiveCategory::Optimizer;
    switch (a.side) {
    case GpuSide::Forward:
    case GpuSide::Recompute: {
        const TimeNs pass = passes.startAfter(m.slices.end(a.op));
        if (!freed || (pass != kNoValue && freeTime >= pass))
            return LiveCategory::Activation;
        break;
    }
    case GpuSide::Backward:
    case GpuSide::BackwardOther:
        if (accumulate || !freed || (node != kNoSlice && freeTime > m.slices.end(node)))
            return LiveCategory::Gradient;
        break;
    case GpuSide::Other:
    case GpuSide::Unattributed:
        break;
    }
    return LiveCategory::Other;
}

std::vector<LiveBlock> LiveMemory::at(TimeNs time) const
{
    const MemoryTable &t = m_index.graph().model().memory;
    std::vector<LiveBlock> out;
    if (!known())
        return out;
    const std::vector<Allocation> &all = m_index.allocations();
    for (size_t i = 0; i < all.size(); ++i) {
        const Allocation &a = all[i];
        if (t.time[a.event] > time)
            break; // in time order
        if (a.freeEvent >= 0 && t.time[size_t(a.freeEvent)] <= time)
            continue;
        out.push_back({a.event, int64_t(i), t.bytes[a.event], m_categories[i]});
    }
    for (uint32_t e : m_index.orphanFrees()) {
        if (t.time[e] > time)
            out.push_back({e, -1, -t.bytes[e], LiveCategory::BeforeWindow});
    }
    std::stable_sort(out.begin(), out.end(),
        [](const LiveBlock &a, const LiveBlock &b) { return a.bytes > b.bytes; });
    return out;
}

std::optional<std::pair<int64_t, int64_t>> LiveMemory::peakDevice() const
{
    std::optional<std::pair<int64_t, int64_t>> best;
    int64_t most = kNoValue;
    for (const MemoryDevice &d : m_index.devices()) {
        if (d.peakAllocated != kNoValue && d.peakAllocated > most) {
            most = d.peakAllocated;
            best = std::pair(d.deviceType, d.deviceId);
        }
    }
    return best;
}

TimeNs LiveMemory::peakTime(std::pair<int64_t, int64_t> device, TimeNs from, TimeNs to) const
{
    const MemoryTable &t = m_index.graph().model().memory;
    TimeNs when = kNoValue;
    int64_t most = kNoValue;
    for (size_t e = 0; e < t.size(); ++e) {
        if (t.time[e] < from || t.time[e] > to || t.totalAllocated[e] == kNoValue
            || std::pair(t.deviceType[e], t.deviceId[e]) != device)
            continue;
        if (t.totalAllocated[e] > most) {
            most = t.totalAllocated[e];
            when = t.time[e];
        }
    }
    return when;
}

std::vector<PeakComposition> LiveMemory::peaks() const
{
    const auto device = peakDevice();
    if (!device || !known())
        return {};
    const OpGraph &g = m_index.graph();
    auto peakIn = [&](int64_t step, TimeNs from, TimeNs to) {
        PeakComposition p;
        p.step = step;
        p.at = peakTime(*device, from, to);
        if (p.at != kNoValue)
            p.bytes = composition(at(p.at), *device);
        return p;
    };
    std::vector<PeakComposition> out {peakIn(kNoValue, g.model().minTime, g.model().maxTime)};
    for (const ProfilerStep &s : g.steps())
        out.push_back(peakIn(s.number, s.start, s.end));
    return out;
}

CategoryBytes LiveMemory::composition(
    const std::vector<LiveBlock> &blocks, std::pair<int64_t, int64_t> device) const
{
    const MemoryTable &t = m_index.graph().model().memory;
    CategoryBytes out {};
    for (const LiveBlock &b : blocks) {
        if (std::pair(t.deviceType[b.event], t.deviceId[b.event]) == device)
            addSaturating(out[size_t(b.category)], b.bytes);
    }
    return out;
}

} // namespace ks
