// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/memory/memoryindex.h"
#include "export/celltable.h"
#include "export/table.h"

namespace ks {

/*!
 * `--export-memory`: one row per allocation of a MemoryIndex, in time order: `device` ("cuda:0",
 * "cpu"), `addr`, `bytes`, `alloc_ts`, `free_ts` (µs with 3 decimals on the file's clock; empty if
 * never freed), `alloc_op`, `free_op` (the innermost cpu_op around each), `side` (as
 * `--export-kernels` names it), `pair_fwd_name`, `pair_fwd_ts` (the allocating op's pair row),
 * `step`.
 */
class AllocationTable : public Table {
public:
    enum Column {
        Device,
        Addr,
        Bytes,
        AllocTs,
        FreeTs,
        AllocOp,
        FreeOp,
        Side,
        PairFwdName,
        PairFwdTs,
        Step,
        ColumnCount
    };
    explicit AllocationTable(const MemoryIndex &index);

    size_t rowCount() const override { return m_index.allocations().size(); }
    std::span<const ColumnSpec> columns() const override;
    std::string text(size_t row, size_t column) const override;
    double number(size_t row, size_t column) const override;

private:
    const MemoryIndex &m_index;
};

/*!
 * The memory statistics per op name (opMemoryStats): `op`, `calls`, `allocations`,
 * `self_allocations`, `allocated_bytes`, `self_allocated_bytes`, `increase_bytes`,
 * `self_increase_bytes`.
 */
CellTable opMemoryTable(const MemoryIndex &index);

} // namespace ks
