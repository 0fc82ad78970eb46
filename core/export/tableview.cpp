// SPDX-License-Identifier: MIT
#include "export/tableview.h"

namespace ks {

TableView::TableView(const Table &base,
    const std::function<bool(size_t row)> &keep,
    std::string_view dropped,
    const std::function<std::string(const ColumnSpec &)> &rename)
    : m_base(base)
{
    for (size_t row = 0; row < base.rowCount(); ++row)
        if (!keep || keep(row))
            m_rows.push_back(row);
    for (size_t c = 0; c < base.columnCount(); ++c) {
        const ColumnSpec &spec = base.columns()[c];
        if (spec.name == dropped)
            continue;
        m_from.push_back(c);
        const std::string &name
            = m_names.emplace_back(rename ? rename(spec) : std::string(spec.name));
        m_columns.push_back({name, spec.cell, spec.title});
    }
}

} // namespace ks
