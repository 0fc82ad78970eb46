// SPDX-License-Identifier: MIT
#include "export/apisummarytable.h"

#include "base/unitstext.h"

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
        t.add(meanMicrosText(row.total, row.count));
        t.add(microsText(row.median));
        t.add(microsText(row.min));
        t.add(microsText(row.max));
        t.add(percentText(double(row.total), double(summary.apiTime), 2));
        t.add(std::to_string(row.gpuEvents));
    }
    return t;
}

} // namespace ks
