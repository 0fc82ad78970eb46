// SPDX-License-Identifier: MIT
#pragma once

#include "export/table.h"

#include <deque>

namespace ks {

/*!
 * A Table whose cells are computed once and kept as text: for the small tables of a run (one
 * row per rank, collective or matched pair), whose columns depend on the run (one per rank).
 */
class CellTable : public Table {
public:
    CellTable() = default;
    // The columns' views point into m_names: a copy would point into the original. Moves keep
    // the deque's blocks, and with them the views (a vector of tables moves them as well).
    CellTable(const CellTable &) = delete;
    CellTable &operator=(const CellTable &) = delete;
    CellTable(CellTable &&) = default;
    CellTable &operator=(CellTable &&) = default;

    //! Adds a column; \a name and \a title are copied.
    void addColumn(std::string_view name, Cell cell, std::string_view title);
    //! Starts a new row; cells are then appended left to right with add().
    void addRow() { m_rows.emplace_back(); }
    void add(std::string text) { m_rows.back().push_back(std::move(text)); }

    size_t rowCount() const override { return m_rows.size(); }
    std::span<const ColumnSpec> columns() const override { return m_columns; }
    std::string text(size_t row, size_t column) const override { return m_rows[row][column]; }
    bool textView(size_t row, size_t column, std::string_view &out) const override
    {
        out = m_rows[row][column];
        return true;
    }

private:
    std::deque<std::string> m_names; //!< stable storage for the columns' views
    std::vector<ColumnSpec> m_columns;
    std::vector<std::vector<std::string>> m_rows;
};

} // namespace ks
