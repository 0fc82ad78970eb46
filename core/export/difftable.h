// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/compare/tracediff.h"
#include "export/table.h"

namespace ks {

//! Row order of the diff tables.
enum class DiffOrder : uint8_t {
    ByChange, //!< largest |Δ fwd GPU| + |Δ bwd GPU| first, then CPU, then structural order
    Structural, //!< TraceDiff::entries() / groups() order
};

/*!
 * The per-pair comparison (`--export-diff`): one row per DiffEntry of a TraceDiff, matched or
 * present on one side only. Times in µs (3 decimals), `rel_*` = delta / base (empty when the
 * base is absent or zero), kernel counts are GPU events (kernels, memcpys, memsets) as in the
 * pair table. A side that is absent has empty value columns and counts as 0 in the deltas, so
 * the deltas of all rows add up to the change of the total.
 */
class DiffTable : public Table {
public:
    enum Column {
        Status, //!< matched | shape_changed | changed | only_base | only_candidate
        Changes, //!< what differs: input_dims;module;bwd_names;recompute
        FwdName,
        BwdNamesBase,
        BwdNamesCandidate,
        InputDimsBase,
        InputDimsCandidate,
        ModuleBase,
        ModuleCandidate,
        StepBase,
        StepCandidate,
        NBase, //!< rows folded into the side (steps averaged in mean mode), 0 when absent
        NCandidate,
        FwdTsBase, //!< ts of the forward op as written (first occurrence in mean mode)
        FwdTsCandidate,
        FirstMetric, //!< then the metric columns: see metricColumn()
        ColumnCount = FirstMetric + 22
    };

    explicit DiffTable(const TraceDiff &diff, DiffOrder order = DiffOrder::ByChange);

    size_t rowCount() const override { return m_order.size(); }
    std::span<const ColumnSpec> columns() const override;
    std::string text(size_t row, size_t column) const override;
    bool textView(size_t row, size_t column, std::string_view &out) const override;
    double number(size_t row, size_t column) const override;

    //! The entry shown in \a row.
    const DiffEntry &entry(size_t row) const { return m_diff.entries()[m_order[row]]; }
    //! The first column of \a metric's `base_`, `cand_`, `delta_` (and `rel_`) columns.
    static size_t metricColumn(DiffMetric metric);
    const TraceDiff &diff() const { return m_diff; }

private:
    const TraceDiff &m_diff;
    std::vector<uint32_t> m_order;
};

/*!
 * The comparison rolled up (TraceDiff::groups): one row per op group (op name + input dims),
 * module path or module class, with the item counts of each side, the entries of each status,
 * and per metric the base total, candidate total, delta and relative change. Columns as in
 * DiffTable from `count_base` on; the leading key columns depend on the grouping:
 * `fwd_name, input_dims, bwd_names` (Op), `module` (Module), `module_type` (ModuleType).
 */
class DiffGroupTable : public Table {
public:
    DiffGroupTable(
        const TraceDiff &diff, DiffGrouping grouping, DiffOrder order = DiffOrder::ByChange);

    size_t rowCount() const override { return m_order.size(); }
    std::span<const ColumnSpec> columns() const override { return m_columns; }
    std::string text(size_t row, size_t column) const override;
    bool textView(size_t row, size_t column, std::string_view &out) const override;
    double number(size_t row, size_t column) const override;

    const DiffGroup &group(size_t row) const { return groups()[m_order[row]]; }
    DiffGrouping grouping() const { return m_grouping; }
    //! Column of the first of `count_base`, `count_candidate`, then one per DiffStatus.
    size_t countColumn() const { return m_keyColumns; }
    //! The first column of \a metric's `base_`, `cand_`, `delta_` (and `rel_`) columns.
    size_t metricColumn(DiffMetric metric) const;

private:
    const std::vector<DiffGroup> &groups() const { return m_diff.groups(m_grouping); }
    const TraceDiff &m_diff;
    DiffGrouping m_grouping;
    size_t m_keyColumns;
    std::vector<ColumnSpec> m_columns; //!< the key columns depend on the grouping
    std::vector<uint32_t> m_order;
};

/*!
 * The comparison in one line, as the window's header and the report open with it: "12 matched ·
 * 1 changed shape · 0 only in base · 2 only in candidate · GPU 326.6 ms → 645.9 ms" (forward +
 * backward GPU time of every pair).
 */
std::string comparisonHeadline(const TraceDiff &diff);

} // namespace ks
