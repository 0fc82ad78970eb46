// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/efficiency/opefficiency.h"
#include "analysis/memory/pairmemory.h"
#include "base/unitstext.h"
#include "export/table.h"
#include "link/gpuside.h"
#include "link/opgraph.h"

namespace ks {

/*!
 * The op-pair table of cli.md (`--export-pairs`): one row per display-level forward op that
 * owns backward nodes, plus one per backward node whose forward op is missing.
 */
class PairTable : public Table {
public:
    enum Column {
        FwdName,
        FwdPid,
        FwdTid,
        FwdTs,
        FwdDur,
        InputDims,
        SequenceNumbers,
        Link,
        BwdNames,
        BwdPid,
        BwdTid,
        BwdTs,
        BwdDur,
        FwdGpuEvents,
        FwdGpuUs,
        BwdGpuEvents,
        BwdGpuUs,
        Step,
        Module,
        RecomputeGpuEvents,
        RecomputeGpuUs,
        RecomputedGpuUs,
        FwdAllocBytes, //!< PairMemory::forwardAllocated; empty without memory events
        HeldBytes, //!< PairMemory::held
        BwdAllocBytes, //!< PairMemory::backwardAllocated
        HeldUntil, //!< PairMemory::heldUntil
        FwdTflops, //!< PairEfficiency: TFLOP/s of the forward side's modelled ops
        BwdTflops,
        FwdPctRoofline, //!< % of roofline of the forward side
        BwdPctRoofline,
        Bound, //!< compute | memory: which holds the larger part of both sides' roofline time
        CriticalUs, //!< CriticalPath::rowTime: the pair's time on the first step's critical path
        ColumnCount
    };

    //! Computes the memory, efficiency and critical-path columns itself (a MemoryIndex, an
    //! OpEfficiency of \a graph against PeakTable::current(), a CriticalPathAnalysis).
    explicit PairTable(const OpGraph &graph);
    //! With the memory columns given (pairMemory() of the trace's index, empty without events),
    //! the efficiency ones (OpEfficiency::pairs()) and the time on the critical path
    //! (CriticalPath::rowTime, empty when there is no path).
    PairTable(const OpGraph &graph,
        std::vector<PairMemory> memory,
        std::vector<PairEfficiency> efficiency,
        std::vector<TimeNs> critical);

    size_t rowCount() const override { return m_graph.rows().size(); }
    std::span<const ColumnSpec> columns() const override;
    std::string text(size_t row, size_t column) const override;
    bool textView(size_t row, size_t column, std::string_view &out) const override;
    double number(size_t row, size_t column) const override;
    void appendJson(std::string &out, size_t row, size_t column) const override;

    const OpGraph &graph() const { return m_graph; }

private:
    int64_t memoryCell(size_t row, size_t column) const;
    //! A GPU column of a trace whose GPU events the cut lost: empty, not 0.
    bool gpuUnknown(size_t column) const;
    const OpGraph &m_graph;
    std::vector<std::string> m_bwdCombos; //!< distinct bwd_names texts
    std::vector<uint32_t> m_bwdNames; //!< per row: index into m_bwdCombos
    std::vector<PairMemory> m_memory; //!< per row; empty when the trace has no memory events
    std::vector<PairEfficiency> m_efficiency; //!< per row
    std::vector<TimeNs> m_critical; //!< per row, or empty
};

/*!
 * One row per GPU event (`--export-kernels`) with its launch, launching op, the side it
 * belongs to and its pair.
 */
class KernelTable : public Table {
public:
    enum Column {
        Name,
        Kind,
        Device,
        Stream,
        Ts,
        Dur,
        Correlation,
        LaunchName,
        LaunchTs,
        OpName,
        OpTs,
        Side,
        PairFwdName,
        PairFwdTs,
        Step,
        Communication,
        GraphId,
        GraphNodeId,
        ColumnCount
    };

    explicit KernelTable(const OpGraph &graph);

    size_t rowCount() const override { return m_graph.gpuEvents().size(); }
    std::span<const ColumnSpec> columns() const override;
    std::string text(size_t row, size_t column) const override;
    double number(size_t row, size_t column) const override;

private:
    //! The slice whose start a timestamp column shows, or kNoSlice (none, or not such a column).
    SliceId timedSlice(size_t row, size_t column) const;

    const OpGraph &m_graph;
};

//! "ts" text of a slice exactly as the file wrote it.
std::string writtenTs(const TraceModel &model, SliceId slice);

} // namespace ks
