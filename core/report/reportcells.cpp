// SPDX-License-Identifier: MIT
#include "report/reportcells.h"

#include "base/unitstext.h"

#include <cstdio>

namespace ks {

std::string msSinceStart(TimeNs t, TimeNs origin)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.3f ms", double(t - origin) / 1e6);
    return text;
}

CellTable select(const Table &from,
    const std::vector<size_t> &rows,
    const std::vector<size_t> &columns,
    TimeNs origin)
{
    CellTable t;
    for (size_t c : columns) {
        const ColumnSpec &spec = from.columns()[c];
        t.addColumn(spec.name, spec.cell, spec.title.empty() ? spec.name : spec.title);
    }
    for (size_t r : rows) {
        t.addRow();
        for (size_t c : columns) {
            std::string text = from.text(r, c);
            const Cell cell = from.columns()[c].cell;
            if (!text.empty() && cell == Cell::Bytes)
                text = bytesText(from.number(r, c));
            else if (!text.empty() && cell == Cell::Timestamp)
                text = msSinceStart(TimeNs(from.number(r, c)), origin);
            t.add(std::move(text));
        }
    }
    return t;
}

} // namespace ks
