// SPDX-License-Identifier: MIT
#include "export/celltable.h"

namespace ks {

void CellTable::addColumn(std::string_view name, Cell cell, std::string_view title)
{
    const std::string &n = m_names.emplace_back(name);
    const std::string &t = m_names.emplace_back(title);
    m_columns.push_back({n, cell, t});
}

} // namespace ks
