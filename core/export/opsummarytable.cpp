// SPDX-License-Identifier: MIT
#include "export/opsummarytable.h"

#include "base/unitstext.h"

namespace ks {

CellTable opSummaryTable(const OpSummary &summary, const TraceModel &model)
{
    CellTable t;
    t.addColumn("name", Cell::Text, "Op");
    t.addColumn("input_dims", Cell::Text, "Input dims");
    t.addColumn("calls", Cell::Integer, "Calls");
    t.addColumn("host_total_us", Cell::Number, "Host total (µs)");
    t.addColumn("host_self_us", Cell::Number, "Host self (µs)");
    t.addColumn("device_total_us", Cell::Number, "Device total (µs)");
    t.addColumn("device_self_us", Cell::Number, "Device self (µs)");
    t.addColumn("bwd_calls", Cell::Integer, "Backward calls");
    t.addColumn("bwd_host_total_us", Cell::Number, "Backward host total (µs)");
    t.addColumn("bwd_device_total_us", Cell::Number, "Backward device total (µs)");
    for (const OpSummaryRow &row : summary.rows) {
        t.addRow();
        t.add(std::string(model.str(row.name)));
        t.add(row.inputDims ? std::string(model.str(row.inputDims)) : std::string());
        t.add(std::to_string(row.calls));
        t.add(microsText(row.hostTotal));
        t.add(microsText(row.hostSelf));
        t.add(microsText(row.deviceTotal));
        t.add(microsText(row.deviceSelf));
        t.add(std::to_string(row.backwardCalls));
        t.add(microsText(row.backwardHostTotal));
        t.add(microsText(row.backwardDeviceTotal));
    }
    return t;
}

} // namespace ks
