// SPDX-License-Identifier: MIT
#pragma once

#include "export/pairtable.h"

namespace ks {

/*!
 * Pair rows grouped by forward op name and input dims (unpaired nodes by their node names):
 * count, and total / mean / max of each time column. "Which op kind costs most, forward and
 * backward?" is answered by sorting this table.
 */
class PairGroupTable : public Table {
public:
    enum Column {
        FwdName,
        InputDims,
        Count,
        Link,
        BwdNames,
        FwdDurTotal,
        FwdDurMean,
        FwdDurMax,
        BwdDurTotal,
        BwdDurMean,
        BwdDurMax,
        FwdGpuUsTotal,
        FwdGpuUsMean,
        FwdGpuUsMax,
        BwdGpuUsTotal,
        BwdGpuUsMean,
        BwdGpuUsMax,
        FwdGpuEvents,
        BwdGpuEvents,
        RecomputeGpuUsTotal, //!< forward work re-run inside the group's backward nodes
        RecomputedGpuUsTotal, //!< what re-running the group's forward ops cost (checkpointing)
        ColumnCount
    };

    struct Group {
        std::vector<uint32_t> rows; //!< pair rows, in time order
        TimeNs fwdDur[2] = {0, 0}; //!< total, max
        TimeNs bwdDur[2] = {0, 0};
        TimeNs fwdGpu[2] = {0, 0};
        TimeNs bwdGpu[2] = {0, 0};
        TimeNs recomputeGpu[2] = {0, 0};
        TimeNs recomputedGpu[2] = {0, 0};
        uint64_t fwdGpuEvents = 0;
        uint64_t bwdGpuEvents = 0;
        bool anyFlow = false;
        bool anySequence = false;
        bool paired = true;
    };

    //! Its pair table computes its memory and efficiency columns itself (PairTable(graph)).
    explicit PairGroupTable(const OpGraph &graph);
    //! With those columns given, as PairTable takes them (a trace's tables share them).
    PairGroupTable(const OpGraph &graph,
        std::vector<PairMemory> memory,
        std::vector<PairEfficiency> efficiency);

    size_t rowCount() const override { return m_groups.size(); }
    std::span<const ColumnSpec> columns() const override;
    std::string text(size_t row, size_t column) const override;
    double number(size_t row, size_t column) const override;

    const std::vector<Group> &groups() const { return m_groups; }
    const OpGraph &graph() const { return m_pairs.graph(); }
    //! The group holding pair row \a pairRow.
    uint32_t groupOf(uint32_t pairRow) const { return m_groupOfRow[pairRow]; }

private:
    //! Gathers the pair table's rows into groups (both constructors).
    void groupRows();
    TimeNs value(const Group &g, size_t column) const;
    PairTable m_pairs;
    std::vector<Group> m_groups;
    std::vector<uint32_t> m_groupOfRow;
};

} // namespace ks
