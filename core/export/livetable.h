// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/memory/livememory.h"
#include "export/table.h"

namespace ks {

/*!
 * `--export-live`: one row per block alive at a time (LiveMemory::at()), largest first: `device`,
 * `addr`, `bytes`, `category`, `alloc_ts`, `free_ts` (µs with 3 decimals, file clock; empty if
 * unknown), `alloc_op`, `module`, `pair_fwd_name`, `pair_fwd_ts`, `step`, `python_stack` (the
 * Python frames around the allocation, innermost first, "; " between them).
 */
class LiveTable : public Table {
public:
    enum Column {
        Device,
        Addr,
        Bytes,
        Category,
        AllocTs,
        FreeTs,
        AllocOp,
        Module,
        PairFwdName,
        PairFwdTs,
        Step,
        PythonStack,
        ColumnCount
    };
    LiveTable(const LiveMemory &live, std::vector<LiveBlock> blocks);

    size_t rowCount() const override { return m_blocks.size(); }
    std::span<const ColumnSpec> columns() const override;
    std::string text(size_t row, size_t column) const override;
    double number(size_t row, size_t column) const override;
    const LiveBlock &block(size_t row) const { return m_blocks[row]; }
    const std::vector<LiveBlock> &blocks() const { return m_blocks; }

private:
    //! The allocation of \a row, or nullptr before the window.
    const Allocation *allocation(size_t row) const;
    std::string pythonStack(const LiveBlock &b) const;

    const LiveMemory &m_live;
    std::vector<LiveBlock> m_blocks;
};

} // namespace ks
