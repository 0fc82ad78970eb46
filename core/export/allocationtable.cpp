// SPDX-License-Identifier: MIT
#include "export/allocationtable.h"

#include "export/pairtable.h"

#include <limits>

namespace ks {

namespace {
constexpr ColumnSpec kAllocationColumns[] = {
    {"device", Cell::Text, "Device"},
    {"addr", Cell::Integer, "Address"},
    {"bytes", Cell::Bytes, "Bytes"},
    {"alloc_ts", Cell::Timestamp, "Allocated at"},
    {"free_ts", Cell::Timestamp, "Freed at"},
    {"alloc_op", Cell::Text, "Allocating op"},
    {"free_op", Cell::Text, "Freeing op"},
    {"side", Cell::Text, "Side"},
    {"pair_fwd_name", Cell::Text, "Pair (forward op)"},
    {"pair_fwd_ts", Cell::Timestamp, "Pair start"},
    {"step", Cell::Integer, "Step"},
};
static_assert(std::size(kAllocationColumns) == AllocationTable::ColumnCount);
} // namespace

AllocationTable::AllocationTable(const MemoryIndex &index)
    : m_index(index)
{
}

std::span<const ColumnSpec> AllocationTable::columns() const
{
    return kAllocationColumns;
}

double AllocationTable::number(size_t row, size_t column) const
{
    const Allocation &a = m_index.allocations()[row];
    const MemoryTable &t = m_index.graph().model().memory;
    // Times are model times, so that views show them from the trace's start.
    if (column == AllocTs)
        return double(t.time[a.event]);
    if (column == FreeTs)
        return a.freeEvent < 0 ? std::numeric_limits<double>::quiet_NaN()
                               : double(t.time[size_t(a.freeEvent)]);
    if (column == PairFwdTs) {
        const SliceId f = a.row < 0 ? kNoSlice : m_index.graph().rows()[size_t(a.row)].forward;
        return f == kNoSlice ? std::numeric_limits<double>::quiet_NaN()
                             : double(m_index.graph().model().slices.start[f]);
    }
    return Table::number(row, column);
}

std::string AllocationTable::text(size_t row, size_t column) const
{
    const Allocation &a = m_index.allocations()[row];
    const OpGraph &g = m_index.graph();
    const TraceModel &m = g.model();
    const MemoryTable &t = m.memory;
    auto opName
        = [&](SliceId s) { return s == kNoSlice ? std::string() : std::string(m.sliceName(s)); };
    const SliceId pairForward = a.row < 0 ? kNoSlice : g.rows()[size_t(a.row)].forward;
    switch (Column(column)) {
    case Device:
        return m_index.deviceName(a.event);
    case Addr:
        return t.addr[a.event] == kNoValue ? std::string() : std::to_string(t.addr[a.event]);
    case Bytes:
        return std::to_string(t.bytes[a.event]);
    case AllocTs:
        return microsText(t.time[a.event]);
    case FreeTs:
        return a.freeEvent < 0 ? std::string() : microsText(t.time[size_t(a.freeEvent)]);
    case AllocOp:
        return opName(a.op);
    case FreeOp:
        return opName(a.freeOp);
    case Side:
        return std::string(gpuSideName(a.side));
    case PairFwdName:
        return opName(pairForward);
    case PairFwdTs:
        return pairForward == kNoSlice ? std::string() : writtenTs(m, pairForward);
    case Step: {
        const int64_t step = g.stepAt(t.time[a.event]);
        return step == kNoValue ? std::string() : std::to_string(step);
    }
    case ColumnCount:
        break;
    }
    return {};
}

CellTable opMemoryTable(const MemoryIndex &index)
{
    CellTable t;
    t.addColumn("op", Cell::Text, "Op");
    t.addColumn("calls", Cell::Integer, "Calls");
    t.addColumn("allocations", Cell::Integer, "Allocations");
    t.addColumn("self_allocations", Cell::Integer, "Self allocations");
    t.addColumn("allocated_bytes", Cell::Bytes, "Allocated");
    t.addColumn("self_allocated_bytes", Cell::Bytes, "Self allocated");
    t.addColumn("increase_bytes", Cell::Bytes, "Net increase");
    t.addColumn("self_increase_bytes", Cell::Bytes, "Self net increase");
    const TraceModel &m = index.graph().model();
    for (const OpMemoryStats &o : opMemoryStats(index)) {
        t.addRow();
        t.add(std::string(m.str(o.name)));
        for (const int64_t v :
            {int64_t(o.calls), int64_t(o.allocations), int64_t(o.selfAllocations), o.allocatedBytes,
                o.selfAllocatedBytes, o.increase, o.selfIncrease})
            t.add(std::to_string(v));
    }
    return t;
}

} // namespace ks
