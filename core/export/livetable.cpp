// SPDX-License-Identifier: MIT
#include "export/livetable.h"

#include "export/pairtable.h"

#include <limits>

namespace ks {

namespace {
constexpr ColumnSpec kLiveColumns[] = {
    {"device", Cell::Text, "Device"},
    {"addr", Cell::Integer, "Address"},
    {"bytes", Cell::Bytes, "Bytes"},
    {"category", Cell::Text, "Category"},
    {"alloc_ts", Cell::Timestamp, "Allocated at"},
    {"free_ts", Cell::Timestamp, "Freed at"},
    {"alloc_op", Cell::Text, "Allocating op"},
    {"module", Cell::Text, "Module"},
    {"pair_fwd_name", Cell::Text, "Pair (forward op)"},
    {"pair_fwd_ts", Cell::Timestamp, "Pair start"},
    {"step", Cell::Integer, "Step"},
    {"python_stack", Cell::Text, "Python stack"},
};
static_assert(std::size(kLiveColumns) == LiveTable::ColumnCount);
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
} // namespace

LiveTable::LiveTable(const LiveMemory &live, std::vector<LiveBlock> blocks)
    : m_live(live)
    , m_blocks(std::move(blocks))
{
}

std::span<const ColumnSpec> LiveTable::columns() const
{
    return kLiveColumns;
}

const Allocation *LiveTable::allocation(size_t row) const
{
    const int64_t a = m_blocks[row].allocation;
    return a < 0 ? nullptr : &m_live.index().allocations()[size_t(a)];
}

std::string LiveTable::pythonStack(const LiveBlock &b) const
{
    const TraceModel &m = m_live.index().graph().model();
    const MemoryTable &t = m.memory;
    std::string out;
    for (SliceId s = m.instantOwner(t.lane[b.event], t.time[b.event]); s != kNoSlice;
         s = m.slices.parent[s]) {
        if (m.slices.kind[s] != EventKind::PythonFunction)
            continue;
        if (!out.empty())
            out += "; ";
        out += m.sliceName(s);
    }
    return out;
}

double LiveTable::number(size_t row, size_t column) const
{
    const LiveBlock &b = m_blocks[row];
    const Allocation *a = allocation(row);
    const OpGraph &g = m_live.index().graph();
    const MemoryTable &t = g.model().memory;
    switch (Column(column)) {
    case Bytes:
        return b.bytes == kNoValue ? kNaN : double(b.bytes);
    case AllocTs: // model times, so that views show them from the trace's start
        return a ? double(t.time[b.event]) : kNaN;
    case FreeTs:
        return isDeviceFigure(b.category) ? kNaN
            : !a                          ? double(t.time[b.event])
            : a->freeEvent < 0            ? kNaN
                                          : double(t.time[size_t(a->freeEvent)]);
    case PairFwdTs: {
        const SliceId f = !a || a->row < 0 ? kNoSlice : g.rows()[size_t(a->row)].forward;
        return f == kNoSlice ? kNaN : double(g.model().slices.start[f]);
    }
    default:
        return Table::number(row, column);
    }
}

std::string LiveTable::text(size_t row, size_t column) const
{
    const LiveBlock &b = m_blocks[row];
    const Allocation *a = allocation(row);
    const OpGraph &g = m_live.index().graph();
    const TraceModel &m = g.model();
    const MemoryTable &t = m.memory;
    const SliceId op = a ? a->op : kNoSlice;
    const SliceId pairForward = !a || a->row < 0 ? kNoSlice : g.rows()[size_t(a->row)].forward;
    auto name
        = [&](SliceId s) { return s == kNoSlice ? std::string() : std::string(m.sliceName(s)); };
    switch (Column(column)) {
    case Device:
        return m_live.index().deviceName(b.event);
    case Addr:
        return t.addr[b.event] == kNoValue || isDeviceFigure(b.category)
            ? std::string()
            : std::to_string(t.addr[b.event]);
    case Bytes:
        return b.bytes == kNoValue ? std::string() : std::to_string(b.bytes);
    case Category:
        return std::string(liveCategoryName(b.category));
    case AllocTs:
        return a ? microsText(t.time[b.event]) : std::string();
    case FreeTs:
        return isDeviceFigure(b.category) ? std::string()
            : !a                          ? microsText(t.time[b.event])
            : a->freeEvent < 0            ? std::string()
                                          : microsText(t.time[size_t(a->freeEvent)]);
    case AllocOp:
        return name(op);
    case Module:
        return op == kNoSlice ? std::string() : name(g.moduleOf(op));
    case PairFwdName:
        return name(pairForward);
    case PairFwdTs:
        return pairForward == kNoSlice ? std::string() : writtenTs(m, pairForward);
    case Step: {
        const int64_t step = a ? g.stepAt(t.time[b.event]) : kNoValue;
        return step == kNoValue ? std::string() : std::to_string(step);
    }
    case PythonStack:
        return a ? pythonStack(b) : std::string();
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace ks
