// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/memory/modulememory.h"
#include "analysis/modules/moduleflops.h"
#include "export/table.h"

namespace ks {

/*!
 * The module table (`--export-modules`): one row per module path of a ModuleTree, in tree
 * pre-order, the root "(all)" first. Times are µs with three decimals; "_self" columns exclude
 * the child modules, the others include them.
 *
 * The `step` column says what a row covers: empty for the whole trace, N for ProfilerStep#N.
 * A table holds one kind of row only, so a column can be summed without counting anything twice:
 * the whole trace (default), every step (step-major: the whole tree for the first step, then
 * the next; modules without work in a step get zero rows), or a single step (the UI's choice).
 */
class ModuleTable : public Table {
public:
    enum Column {
        Module, //!< the path ("ResNet_0/Conv2d_0"), "(all)" for the root
        Name, //!< the last path component
        Depth, //!< 0 for the root, 1 for top-level modules
        Step,
        Calls,
        FwdCpuUs, //!< summed durations of the module's slices
        FwdCpuSelfUs,
        FwdGpuUs,
        FwdGpuSelfUs,
        FwdGpuEvents,
        BwdGpuUs,
        BwdGpuSelfUs,
        BwdGpuEvents,
        BwdOtherGpuUs,
        BwdOtherGpuSelfUs,
        OtherGpuUs, //!< GPU work neither forward nor backward (optimizer, data loading, …)
        RecomputeGpuUs, //!< the module's forward work re-run during backward (checkpointing)
        RecomputeGpuSelfUs,
        RecomputeGpuEvents,
        FwdAllocBytes, //!< PairMemory of the pair rows the module holds, children included;
        HeldBytes, //!< empty for traces without memory events
        BwdAllocBytes,
        FwdTflops, //!< ModuleFlops: TFLOP/s of its modelled ops over fwd_gpu_us; empty if none
        BwdTflops, //!< … over bwd_gpu_us
        ColumnCount
    };
    enum class Rows {
        WholeTrace, //!< one row per module, step empty
        EachStep, //!< one row per (step, module)
    };

    //! Computes the memory and rate columns itself (a MemoryIndex and an OpEfficiency of the
    //! tree's graph).
    explicit ModuleTable(const ModuleTree &tree, Rows rows = Rows::WholeTrace);
    //! With the pair rows' memory given (LoadedTrace::pairMemory(), empty without events) and the
    //! trace's efficiency (LoadedTrace::efficiency()).
    ModuleTable(const ModuleTree &tree,
        Rows rows,
        const std::vector<PairMemory> &rowsMemory,
        const OpEfficiency &efficiency);
    //! Only the rows of ProfilerStep#\a stepNumber (none if the trace has no such step).
    ModuleTable(const ModuleTree &tree, int64_t stepNumber);

    size_t rowCount() const override { return m_rows.size(); }
    std::span<const ColumnSpec> columns() const override;
    std::string text(size_t row, size_t column) const override;
    bool textView(size_t row, size_t column, std::string_view &out) const override;
    double number(size_t row, size_t column) const override;

    const ModuleTree &tree() const { return m_tree; }
    //! The module node of \a row.
    ModuleId rowNode(size_t row) const { return m_rows[row].node; }
    //! The step index (into ModuleTree::steps()) of \a row, ModuleTree::kWholeTrace if none.
    int rowStepIndex(size_t row) const { return m_rows[row].step; }

private:
    struct Row {
        ModuleId node;
        int step;
    };
    void addStep(int stepIndex);
    const ModuleTimes &timesOf(size_t row) const;
    //! The memory cell of \a row (column FwdAllocBytes … BwdAllocBytes).
    int64_t memoryOf(size_t row, size_t column) const;

    const ModuleTree &m_tree;
    std::vector<Row> m_rows;
    ModuleMemory m_memory;
    ModuleFlops m_flops;
};

} // namespace ks
