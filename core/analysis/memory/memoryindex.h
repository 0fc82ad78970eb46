// SPDX-License-Identifier: MIT
#pragma once

#include "link/gpuside.h"

#include <string>
#include <vector>

namespace ks {

//! One device's allocator, as its `[memory]` events say.
struct MemoryDevice {
    int64_t deviceType = 0; //!< 0 CPU, 1 CUDA, …
    int64_t deviceId = -1;
    uint64_t events = 0; //!< `[memory]` events
    uint64_t allocations = 0; //!< events with Bytes > 0
    int64_t peakAllocated = kNoValue; //!< largest `Total Allocated`; kNoValue when never given
    int64_t peakReserved = kNoValue; //!< largest `Total Reserved`
};

//! One allocation, with the free that ends it.
struct Allocation {
    uint32_t event = 0; //!< index into TraceModel::memory
    int64_t freeEvent = -1; //!< the matching free, -1 when never freed (or no `Addr` to match)
    SliceId op = kNoSlice; //!< innermost host op around the allocation on its thread
    SliceId freeOp = kNoSlice; //!< … around the free
    GpuSide side = GpuSide::Other; //!< of op (sideOfHostWork), Other without one
    int row = -1; //!< the pair row of op, -1 if none
};

/*!
 * The memory events of a trace tied to its op graph (issue: memory):
 * - each allocation (Bytes > 0) is matched to its free: the next free (Bytes < 0) with the same
 *   device and `Addr`; an allocation never freed stays open to the end of the trace. Traces
 *   without `Addr` (1.9) cannot be matched: every allocation stays open, and noAddress says how
 *   many. A free with no open allocation at its address is counted as a diagnostic.
 * - each allocation and free is attributed to the innermost host op (cpu_op) around it on its
 *   thread, and through the op graph to a side (forward op of a pair, backward node, backward
 *   other, other, recompute) and a pair row.
 */
class MemoryIndex {
public:
    explicit MemoryIndex(const OpGraph &graph);

    const OpGraph &graph() const { return m_graph; }
    //! In (type, id) order.
    const std::vector<MemoryDevice> &devices() const { return m_devices; }
    //! In time order.
    const std::vector<Allocation> &allocations() const { return m_allocations; }
    uint64_t memoryEvents() const { return m_memoryEvents; } //!< `[memory]` events
    uint64_t outOfMemoryEvents() const { return m_outOfMemory; }
    uint64_t unmatchedFrees() const { return m_orphanFrees.size(); }
    //! The frees with no allocation in the trace (their blocks predate it), in time order.
    const std::vector<uint32_t> &orphanFrees() const { return m_orphanFrees; }
    uint64_t noAddress() const { return m_noAddress; } //!< allocations without `Addr`
    //! Frees without allocation, allocations reusing an open address, `[OutOfMemory]` events.
    const Diagnostics &diagnostics() const { return m_diagnostics; }
    //! PyTorch's name of an event's device: "cpu", "cuda:0", else "type<T>:<id>".
    std::string deviceName(uint32_t event) const;

private:
    const OpGraph &m_graph;
    std::vector<MemoryDevice> m_devices;
    std::vector<Allocation> m_allocations;
    uint64_t m_memoryEvents = 0;
    uint64_t m_outOfMemory = 0;
    std::vector<uint32_t> m_orphanFrees;
    uint64_t m_noAddress = 0;
    Diagnostics m_diagnostics;
};

//! The largest totals a trace reports, kNoValue where it reports none.
struct AllocatorPeaks {
    int64_t allocated = kNoValue;
    int64_t reserved = kNoValue;
};
//! Over the accelerators' `[memory]` events (the CPU's when the trace has no other device): no
//! matching needed, so a run's ranks get it cheaply.
AllocatorPeaks allocatorPeaks(const MemoryTable &memory);

//! Innermost cpu_op around memory event \a event on its thread (TraceModel::instantOwner's
//! rule: an op's end included), kNoSlice if none.
SliceId memoryEventOp(const TraceModel &model, uint32_t event);

//! PyTorch's name of a device: "cpu", "cuda:0", else "type<T>:<id>" (no ":<id>" without one).
std::string memoryDeviceName(int64_t type, int64_t id);

/*!
 * Memory by op name, as the TensorBoard plugin's memory statistics had it: for the `[memory]`
 * events inside ops of that name, with children (anywhere in the op's subtree) and self (the op is
 * the innermost cpu_op around the event). An event counts once per name even where ops of one
 * name nest.
 */
struct OpMemoryStats {
    StringId name = 0;
    uint64_t calls = 0; //!< cpu_op slices of this name in the trace
    uint64_t allocations = 0, selfAllocations = 0;
    int64_t allocatedBytes = 0, selfAllocatedBytes = 0;
    int64_t increase = 0, selfIncrease = 0; //!< bytes allocated less bytes freed
};
//! Every op name with memory events inside it, by allocated bytes (with children), largest first.
std::vector<OpMemoryStats> opMemoryStats(const MemoryIndex &index);

} // namespace ks
