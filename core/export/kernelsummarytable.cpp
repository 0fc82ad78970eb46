// SPDX-License-Identifier: MIT
#include "export/kernelsummarytable.h"

#include "base/unitstext.h"

#include <algorithm>

namespace ks {

namespace {

constexpr size_t kOpsShown = 5;

std::string opsText(const KernelSummaryRow &row, const TraceModel &model)
{
    std::string out;
    for (size_t i = 0; i < row.ops.size() && i < kOpsShown; ++i)
        out += (i ? "; " : "") + std::string(model.str(row.ops[i].first)) + " ×"
            + std::to_string(row.ops[i].second);
    if (row.ops.size() > kOpsShown)
        out += "; …";
    return out;
}

} // namespace

CellTable kernelSummaryTable(const KernelSummary &summary, const TraceModel &model)
{
    CellTable t;
    t.addColumn("name", Cell::Text, "Kernel as written");
    t.addColumn("display_name", Cell::Text, "Kernel");
    t.addColumn("count", Cell::Integer, "Count");
    t.addColumn("total_us", Cell::Number, "Total (µs)");
    t.addColumn("mean_us", Cell::Number, "Mean (µs)");
    t.addColumn("min_us", Cell::Number, "Min (µs)");
    t.addColumn("max_us", Cell::Number, "Max (µs)");
    t.addColumn("pct_gpu", Cell::Number, "% of kernel time");
    for (size_t s = 0; s < 6; ++s) {
        const std::string side(gpuSideName(GpuSide(s)));
        std::string title = side + " (µs)";
        std::replace(title.begin(), title.end(), '_', ' ');
        t.addColumn(side + "_us", Cell::Number, title);
    }
    t.addColumn("ops", Cell::Text, "Launched by");
    for (const KernelSummaryRow &row : summary.rows) {
        t.addRow();
        t.add(std::string(model.str(row.name)));
        t.add(std::string(model.str(row.displayName)));
        t.add(std::to_string(row.count));
        t.add(microsText(row.total));
        t.add(meanMicrosText(row.total, row.count));
        t.add(microsText(row.min));
        t.add(microsText(row.max));
        t.add(percentText(double(row.total), double(summary.kernelTime), 2));
        for (TimeNs side : row.bySide)
            t.add(microsText(side));
        t.add(opsText(row, model));
    }
    return t;
}

} // namespace ks
