// SPDX-License-Identifier: MIT
#include "export/apisummarytable.h"

#include "base/unitstext.h"

#include <cstdio>

namespace ks {

CellTable apiSummaryTable(const ApiSummary &summary, const TraceModel &model)
{
    CellTable t;
    t.addColumn("name", Cell::Text, "Call");
    t.addColumn("category", Cell::Text, "Category");
    t.addColumn("count", Cell::Integer, "Count");
    t.addColumn("total_us", Cell::Number, "Total (µs)");
    t.addColumn("mean_us", Cell::Number, "Mean (µs)");
    t.addColumn("median_us", Cell::Number, "Median (µs)");
    t.addColumn("min_us", Cell::Number, "Min (µs)");
    t.addColumn("max_us", Cell::Number, "Max (µs)");
    t.addColumn("pct_api", Cell::Number, "% of API time");
    t.addColumn("gpu_events", Cell::Integer, "GPU events launched");
    for (const ApiSummaryRow &row : summary.rows) {
        t.addRow();
        t.add(std::string(model.str(row.name)));
        t.add(std::string(model.str(row.category)));
        t.add(std::to_string(row.count));
        t.add(microsText(row.total));
        const TimeNs count = TimeNs(row.count);
        t.add(microsText((2 * row.total + count) / (2 * count))); // rounded to the ns
        t.add(microsText(row.median));
        t.add(microsText(row.min));
        t.add(microsText(row.max));
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.2f",
            summary.apiTime > 0 ? 100.0 * double(row.total) / double(summary.apiTime) : 0.0);
        t.add(pct);
        t.add(std::to_string(row.gpuEvents));
    }
    return t;
}

} // namespace ks
