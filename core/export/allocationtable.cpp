// SPDX-License-Identifier: MIT
#include "export/allocationtable.h"

#include "export/pairtable.h"

namespace ks {

namespace {
constexpr ColumnSpec kAllocationColumns[] = {
    {"device", Cell::Text, "Device"},
    {"addr", Cell::Number, "Address"},
    {"bytes", Cell::Number, "Bytes"},
    {"alloc_ts", Cell::Number, "Allocated at (µs)"},
    {"free_ts", Cell::Number, "Freed at (µs)"},
    {"alloc_op", Cell::Text, "Allocating op"},
    {"free_op", Cell::Text, "Freeing op"},
    {"side", Cell::Text, "Side"},
    {"pair_fwd_name", Cell::Text, "Pair (forward op)"},
    {"pair_fwd_ts", Cell::Timestamp, "Pair start"},
    {"step", Cell::Number, "Step"},
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

} // namespace ks
