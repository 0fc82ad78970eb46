// SPDX-License-Identifier: MIT
#include "export/steptable.h"

#include "base/unitstext.h"

namespace ks {

CellTable stepTable(const std::vector<StepBreakdown> &steps)
{
    CellTable t;
    t.addColumn("step", Cell::Integer, "Step");
    t.addColumn("cpu_start_us", Cell::Number, "CPU start (µs)");
    t.addColumn("cpu_dur_us", Cell::Number, "CPU duration (µs)");
    t.addColumn("gpu_start_us", Cell::Number, "GPU start (µs)");
    t.addColumn("gpu_end_us", Cell::Number, "GPU end (µs)");
    t.addColumn("busy_us", Cell::Number, "GPU busy (µs)");
    t.addColumn("idle_us", Cell::Number, "GPU idle (µs)");
    for (size_t c = 0; c < kStepCategories; ++c) {
        const std::string name(workPartName(WorkPart(c)));
        t.addColumn(name + "_us", Cell::Number, name + " (µs)");
    }
    for (const StepBreakdown &s : steps) {
        t.addRow();
        t.add(std::to_string(s.step));
        t.add(microsText(s.cpuStart));
        t.add(microsText(s.cpuEnd - s.cpuStart));
        t.add(s.events ? microsText(s.gpuStart) : std::string());
        t.add(s.events ? microsText(s.gpuEnd) : std::string());
        // A step without GPU work has no window: its GPU cells are empty, not 0.
        const auto gpu = [&](TimeNs v) { return s.events ? microsText(v) : std::string(); };
        t.add(gpu(s.busy));
        t.add(gpu(s.idle()));
        for (TimeNs part : s.parts)
            t.add(gpu(part));
    }
    return t;
}

} // namespace ks
