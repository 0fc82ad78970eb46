// SPDX-License-Identifier: MIT
#pragma once

#include "export/table.h"

#include <deque>
#include <functional>

namespace ks {

/*!
 * Another table's rows and columns, some left out, the columns renamed: what --export-parquet
 * writes of a table (one rank's rows of a run's table, without the rank its folder names, each
 * column named with its unit). Reads through to the table, which must outlive it.
 */
class TableView : public Table {
public:
    //! Every row of \a base but those \a keep refuses (none when null), every column but
    //! \a dropped (none when empty), each named by \a rename (as it is when null).
    TableView(const Table &base,
        const std::function<bool(size_t row)> &keep,
        std::string_view dropped,
        const std::function<std::string(const ColumnSpec &)> &rename);

    size_t rowCount() const override { return m_rows.size(); }
    std::span<const ColumnSpec> columns() const override { return m_columns; }
    std::string text(size_t row, size_t column) const override
    {
        return m_base.text(m_rows[row], m_from[column]);
    }
    bool textView(size_t row, size_t column, std::string_view &out) const override
    {
        return m_base.textView(m_rows[row], m_from[column], out);
    }

private:
    const Table &m_base;
    std::vector<size_t> m_rows; //!< the base's row of each
    std::vector<size_t> m_from; //!< the base's column of each
    std::deque<std::string> m_names; //!< what the columns' views point into
    std::vector<ColumnSpec> m_columns;
};

} // namespace ks
