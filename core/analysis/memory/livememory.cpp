// SPDX-License-Identifier: MIT
#include "analysis/memory/livememory.h"

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
    case LiveCategory::BeforeTrace:
        return "before_trace";
    case LiveCategory::Unexplained:
        return "unexplained";
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
    m_starts = deviceStarts();
}

namespace {
bool counted(const MemoryTable &t, size_t e)
{
    return !t.outOfMemory[e] && t.bytes[e] != kNoValue;
}
} // namespace

std::vector<LiveMemory::DeviceStart> LiveMemory::deviceStarts() const
{
    const MemoryTable &t = m_index.graph().model().memory;
    std::vector<DeviceStart> out;
    std::vector<int64_t> bytesSoFar; // per device, up to its first total
    auto startOf = [&](size_t e) -> size_t {
        const std::pair device(t.deviceType[e], t.deviceId[e]);
        for (size_t d = 0; d < out.size(); ++d) {
            if (out[d].device == device)
                return d;
        }
        out.push_back({device, uint32_t(e), kNoValue});
        bytesSoFar.push_back(0);
        return out.size() - 1;
    };
    for (size_t e = 0; e < t.size(); ++e) {
        if (!counted(t, e))
            continue;
        const size_t d = startOf(e);
        if (out[d].beforeTrace != kNoValue)
            continue; // its first total is found
        addSaturating(bytesSoFar[d], t.bytes[e]);
        if (t.totalAllocated[e] != kNoValue)
            out[d].beforeTrace = t.totalAllocated[e] - bytesSoFar[d];
    }
    for (uint32_t e : m_index.orphanFrees()) { // listed as BeforeWindow blocks: not counted twice
        for (DeviceStart &s : out) {
            if (s.beforeTrace != kNoValue && s.device == std::pair(t.deviceType[e], t.deviceId[e]))
                addSaturating(s.beforeTrace, t.bytes[e]);
        }
    }
    for (DeviceStart &s : out) {
        if (s.beforeTrace != kNoValue)
            s.beforeTrace = std::max<int64_t>(s.beforeTrace, 0); // a shortfall is unexplained
    }
    return out;
}

int64_t LiveMemory::beforeTrace(std::pair<int64_t, int64_t> device) const
{
    for (const DeviceStart &s : m_starts) {
        if (s.device == device)
            return s.beforeTrace;
    }
    return kNoValue;
}

int64_t LiveMemory::lastTotalEvent(int64_t event, std::pair<int64_t, int64_t> device) const
{
    const MemoryTable &t = m_index.graph().model().memory;
    for (int64_t e = std::min(event, int64_t(t.size()) - 1); e >= 0; --e) {
        if (counted(t, size_t(e)) && t.totalAllocated[size_t(e)] != kNoValue
            && std::pair(t.deviceType[size_t(e)], t.deviceId[size_t(e)]) == device)
            return e;
    }
    return -1;
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
    SliceId outermostOp = kNoSlice;
    for (SliceId s = m.instantOwner(t.lane[a.event], t.time[a.event]); s != kNoSlice;
         s = m.slices.parent[s]) {
        const std::string_view name = m.sliceName(s);
        optimizer = optimizer || isOptimizerScope(name);
        accumulate = accumulate || name.find("AccumulateGrad") != std::string_view::npos;
        if (const int n = g.nodeOf(s); n >= 0 && node == kNoSlice)
            node = g.nodes()[size_t(n)].outer;
        if (m.slices.kind[s] == EventKind::CpuOp)
            outermostOp = s;
    }
    // Freed inside the one op that allocated it: its outermost op (an aten::empty's caller;
    // in backward, the node's wrapper), by pre-order ids.
    const SliceId scope = node != kNoSlice ? node : outermostOp;
    if (freed && scope != kNoSlice && a.freeOp >= scope && a.freeOp < m.slices.subtreeEnd[scope])
        return LiveCategory::Temporary;
    if (optimizer)
        return LiveCategory::Optimizer;
    switch (a.side) {
    case GpuSide::Forward:
    case GpuSide::Recompute: {
        // The backward pass the op's pair feeds, as held_bytes takes it.
        const SliceId forward = a.row >= 0 && g.rows()[size_t(a.row)].forward != kNoSlice
            ? g.rows()[size_t(a.row)].forward
            : a.op;
        const TimeNs pass = passes.startAfter(m.slices.end(forward));
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

std::vector<LiveBlock> LiveMemory::afterEvent(int64_t event) const
{
    const MemoryTable &t = m_index.graph().model().memory;
    std::vector<LiveBlock> out;
    if (!known())
        return out;
    const std::vector<Allocation> &all = m_index.allocations();
    for (size_t i = 0; i < all.size() && int64_t(all[i].event) <= event; ++i) { // event order
        const Allocation &a = all[i];
        if (a.freeEvent < 0 || a.freeEvent > event)
            out.push_back({a.event, int64_t(i), t.bytes[a.event], m_categories[i]});
    }
    for (uint32_t e : m_index.orphanFrees()) {
        if (int64_t(e) > event)
            out.push_back({e, -1, -t.bytes[e], LiveCategory::BeforeWindow});
    }
    addDeviceFigures(event, out);
    std::stable_sort(out.begin(), out.end(),
        [](const LiveBlock &a, const LiveBlock &b) { return a.bytes > b.bytes; });
    return out;
}

void LiveMemory::addDeviceFigures(int64_t event, std::vector<LiveBlock> &blocks) const
{
    const MemoryTable &t = m_index.graph().model().memory;
    for (const DeviceStart &s : m_starts) {
        if (s.beforeTrace != 0)
            blocks.push_back({s.firstEvent, -1, s.beforeTrace, LiveCategory::BeforeTrace});
        const int64_t last = lastTotalEvent(event, s.device);
        if (last < 0)
            continue;
        int64_t listed = 0;
        for (int64_t bytes : composition(blocks, s.device))
            addSaturating(listed, bytes);
        if (const int64_t total = t.totalAllocated[size_t(last)]; listed != total)
            blocks.push_back({uint32_t(last), -1, total - listed, LiveCategory::Unexplained});
    }
}

std::vector<LiveBlock> LiveMemory::at(TimeNs time) const
{
    const std::vector<TimeNs> &times = m_index.graph().model().memory.time;
    const auto after = std::upper_bound(times.begin(), times.end(), time);
    return afterEvent(int64_t(after - times.begin()) - 1);
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

int64_t LiveMemory::peakEvent(std::pair<int64_t, int64_t> device, TimeNs from, TimeNs to) const
{
    const MemoryTable &t = m_index.graph().model().memory;
    const auto first = std::lower_bound(t.time.begin(), t.time.end(), from);
    const auto last = std::upper_bound(first, t.time.end(), to);
    int64_t best = -1;
    int64_t most = kNoValue;
    for (auto e = size_t(first - t.time.begin()); e < size_t(last - t.time.begin()); ++e) {
        if (t.totalAllocated[e] != kNoValue && t.totalAllocated[e] > most
            && std::pair(t.deviceType[e], t.deviceId[e]) == device) {
            most = t.totalAllocated[e];
            best = int64_t(e);
        }
    }
    return best;
}

std::vector<PeakComposition> LiveMemory::peaks() const
{
    const auto device = peakDevice();
    if (!device || !known())
        return {};
    const OpGraph &g = m_index.graph();
    std::vector<PeakComposition> out {
        {kNoValue, peakEvent(*device, g.model().minTime, g.model().maxTime), {}}};
    for (const ProfilerStep &s : g.steps())
        out.push_back({s.number, peakEvent(*device, s.start, s.end), {}});
    std::vector<int64_t> events;
    for (const PeakComposition &p : out) {
        if (p.event >= 0)
            events.push_back(p.event);
    }
    std::sort(events.begin(), events.end());
    events.erase(std::unique(events.begin(), events.end()), events.end());
    const std::vector<CategoryBytes> bytes = compositionsAfter(events, *device);
    for (PeakComposition &p : out) {
        if (p.event >= 0)
            p.bytes = bytes[size_t(
                std::lower_bound(events.begin(), events.end(), p.event) - events.begin())];
    }
    return out;
}

std::vector<CategoryBytes> LiveMemory::compositionsAfter(
    const std::vector<int64_t> &events, std::pair<int64_t, int64_t> device) const
{
    const MemoryTable &t = m_index.graph().model().memory;
    // What each event does to the device's bytes by category.
    std::vector<std::pair<LiveCategory, int64_t>> change(t.size(), {LiveCategory::Other, 0});
    CategoryBytes running {};
    const std::vector<Allocation> &all = m_index.allocations();
    for (size_t i = 0; i < all.size(); ++i) {
        const Allocation &a = all[i];
        if (std::pair(t.deviceType[a.event], t.deviceId[a.event]) != device)
            continue;
        change[a.event] = {m_categories[i], t.bytes[a.event]};
        if (a.freeEvent >= 0)
            change[size_t(a.freeEvent)] = {m_categories[i], -t.bytes[a.event]};
    }
    for (uint32_t e : m_index.orphanFrees()) {
        if (std::pair(t.deviceType[e], t.deviceId[e]) != device)
            continue;
        change[e] = {LiveCategory::BeforeWindow, t.bytes[e]};
        addSaturating(running[size_t(LiveCategory::BeforeWindow)], -t.bytes[e]); // alive at first
    }
    if (const int64_t before = beforeTrace(device); before != kNoValue)
        running[size_t(LiveCategory::BeforeTrace)] = before;
    std::vector<CategoryBytes> out;
    out.reserve(events.size());
    size_t next = 0;
    int64_t total = kNoValue; // the device's Total Allocated so far
    for (size_t e = 0; e < t.size() && next < events.size(); ++e) {
        addSaturating(running[size_t(change[e].first)], change[e].second);
        if (counted(t, e) && t.totalAllocated[e] != kNoValue
            && std::pair(t.deviceType[e], t.deviceId[e]) == device)
            total = t.totalAllocated[e];
        for (; next < events.size() && events[next] == int64_t(e); ++next) {
            CategoryBytes bytes = running;
            if (total != kNoValue) {
                int64_t listed = 0;
                for (int64_t b : running)
                    addSaturating(listed, b);
                bytes[size_t(LiveCategory::Unexplained)] = total - listed;
            }
            out.push_back(bytes);
        }
    }
    return out;
}

CategoryBytes LiveMemory::composition(
    const std::vector<LiveBlock> &blocks, std::pair<int64_t, int64_t> device) const
{
    const MemoryTable &t = m_index.graph().model().memory;
    CategoryBytes out {};
    for (const LiveBlock &b : blocks) {
        if (b.bytes != kNoValue && std::pair(t.deviceType[b.event], t.deviceId[b.event]) == device)
            addSaturating(out[size_t(b.category)], b.bytes);
    }
    return out;
}

} // namespace ks
