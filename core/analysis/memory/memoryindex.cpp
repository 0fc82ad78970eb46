// SPDX-License-Identifier: MIT
#include "analysis/memory/memoryindex.h"

#include "base/saturating.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace ks {

namespace {
//! Where an allocation lives: device and address.
struct AddressKey {
    int64_t type, id, addr;
    bool operator==(const AddressKey &) const = default;
};
struct AddressKeyHash {
    size_t operator()(const AddressKey &k) const noexcept
    {
        // Unsigned: ids read from the file may be anything, and signed overflow is undefined.
        const uint64_t device = uint64_t(k.type) * 131 + uint64_t(k.id);
        return std::hash<int64_t>()(k.addr) ^ (std::hash<uint64_t>()(device) << 1);
    }
};
} // namespace

SliceId memoryEventOp(const TraceModel &m, uint32_t event)
{
    SliceId s = m.instantOwner(m.memory.lane[event], m.memory.time[event]);
    while (s != kNoSlice && m.slices.kind[s] != EventKind::CpuOp)
        s = m.slices.parent[s];
    return s;
}

AllocatorPeaks allocatorPeaks(const MemoryTable &t)
{
    AllocatorPeaks device, cpu;
    for (size_t e = 0; e < t.size(); ++e) {
        AllocatorPeaks &p = t.deviceType[e] == 0 ? cpu : device;
        if (t.totalAllocated[e] != kNoValue)
            p.allocated = std::max(p.allocated, t.totalAllocated[e]);
        if (t.totalReserved[e] != kNoValue)
            p.reserved = std::max(p.reserved, t.totalReserved[e]);
    }
    const bool accelerators = std::any_of(
        t.deviceType.begin(), t.deviceType.end(), [](int64_t type) { return type != 0; });
    return accelerators ? device : cpu;
}

std::string memoryDeviceName(int64_t type, int64_t id)
{
    if (type == 0)
        return "cpu";
    std::string name = type == 1 ? "cuda" : "type";
    if (type != 1)
        name += std::to_string(type);
    if (id != kNoValue) {
        name += ':';
        name += std::to_string(id);
    }
    return name;
}

std::string MemoryIndex::deviceName(uint32_t event) const
{
    const MemoryTable &t = m_graph.model().memory;
    return memoryDeviceName(t.deviceType[event], t.deviceId[event]);
}

MemoryIndex::MemoryIndex(const OpGraph &graph)
    : m_graph(graph)
{
    const MemoryTable &t = graph.model().memory;
    std::map<std::pair<int64_t, int64_t>, MemoryDevice> devices;
    // The allocations open at each address (the last one is the one a free ends).
    std::unordered_map<AddressKey, std::vector<uint32_t>, AddressKeyHash> open;
    for (uint32_t e = 0; e < t.size(); ++e) {
        MemoryDevice &d = devices[{t.deviceType[e], t.deviceId[e]}];
        d.deviceType = t.deviceType[e];
        d.deviceId = t.deviceId[e];
        if (t.totalAllocated[e] != kNoValue)
            d.peakAllocated = std::max(d.peakAllocated, t.totalAllocated[e]);
        if (t.totalReserved[e] != kNoValue)
            d.peakReserved = std::max(d.peakReserved, t.totalReserved[e]);
        if (t.outOfMemory[e]) {
            ++m_outOfMemory;
            const SliceId op = memoryEventOp(graph.model(), e);
            std::string where = "[OutOfMemory] on " + deviceName(e);
            if (op != kNoSlice)
                where.append(" in ").append(graph.model().sliceName(op));
            m_diagnostics.add(Diag::OutOfMemory, t.offset[e],
                where + ": an allocation of " + std::to_string(t.bytes[e]) + " bytes failed");
            continue;
        }
        ++d.events;
        ++m_memoryEvents;
        const int64_t bytes = t.bytes[e];
        if (bytes == kNoValue || bytes == 0)
            continue;
        const AddressKey key {t.deviceType[e], t.deviceId[e], t.addr[e]};
        if (bytes > 0) {
            ++d.allocations;
            Allocation a;
            a.event = e;
            a.op = memoryEventOp(graph.model(), e);
            if (a.op != kNoSlice) {
                a.side = sideOfHostWork(graph, a.op);
                a.row = graph.rowOf(a.op);
            }
            if (t.addr[e] == kNoValue) {
                ++m_noAddress;
            } else {
                auto &stack = open[key];
                if (!stack.empty())
                    m_diagnostics.add(Diag::AllocAddressReused, t.offset[e],
                        "allocation at an address still allocated (" + deviceName(e) + ")");
                stack.push_back(uint32_t(m_allocations.size()));
            }
            m_allocations.push_back(a);
            continue;
        }
        if (t.addr[e] == kNoValue)
            continue;
        auto it = open.find(key);
        if (it == open.end() || it->second.empty()) {
            m_orphanFrees.push_back(e);
            m_diagnostics.add(Diag::FreeWithoutAllocation, t.offset[e],
                "free of " + std::to_string(-bytes) + " bytes on " + deviceName(e)
                    + " with no allocation at its address in the trace");
            continue;
        }
        Allocation &a = m_allocations[it->second.back()];
        it->second.pop_back();
        a.freeEvent = e;
        a.freeOp = memoryEventOp(graph.model(), e);
    }
    for (const auto &[key, d] : devices)
        m_devices.push_back(d);
}

std::vector<OpMemoryStats> opMemoryStats(const MemoryIndex &index)
{
    const TraceModel &m = index.graph().model();
    const MemoryTable &t = m.memory;
    std::unordered_map<StringId, OpMemoryStats> byName;
    std::vector<StringId> names; // of the ops around one event, each once
    for (uint32_t e = 0; e < t.size(); ++e) {
        const int64_t bytes = t.bytes[e];
        if (t.outOfMemory[e] || bytes == kNoValue || bytes == 0)
            continue;
        const SliceId innermost = memoryEventOp(index.graph().model(), e);
        names.clear();
        for (SliceId s = innermost; s != kNoSlice; s = m.slices.parent[s]) {
            if (m.slices.kind[s] != EventKind::CpuOp)
                continue;
            const StringId name = m.slices.name[s];
            if (std::find(names.begin(), names.end(), name) != names.end())
                continue;
            names.push_back(name);
            OpMemoryStats &o = byName[name];
            o.name = name;
            const bool self = s == innermost;
            addSaturating(o.increase, bytes);
            addSaturating(o.selfIncrease, self ? bytes : 0);
            if (bytes > 0) {
                ++o.allocations;
                addSaturating(o.allocatedBytes, bytes);
                o.selfAllocations += self;
                addSaturating(o.selfAllocatedBytes, self ? bytes : 0);
            }
        }
    }
    for (SliceId s = 0; s < m.slices.size(); ++s) {
        if (m.slices.kind[s] != EventKind::CpuOp)
            continue;
        auto it = byName.find(m.slices.name[s]);
        if (it != byName.end())
            ++it->second.calls;
    }
    std::vector<OpMemoryStats> out;
    out.reserve(byName.size());
    for (auto &[name, stats] : byName)
        out.push_back(stats);
    std::sort(out.begin(), out.end(), [&](const OpMemoryStats &a, const OpMemoryStats &b) {
        return std::tie(b.allocatedBytes, a.name) < std::tie(a.allocatedBytes, b.name);
    });
    return out;
}

} // namespace ks
