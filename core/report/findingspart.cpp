// SPDX-License-Identifier: MIT
#include "report/findingspart.h"

#include "base/unitstext.h"

namespace ks {

void addFindings(const LoadedTrace &trace, ReportContent &out)
{
    if (!trace.graph->steps().empty())
        addFindings(trace.criticalPath(), trace.stepFindings(), "findings", out);
}

void addFindings(const CriticalPathAnalysis &analysis,
    const std::vector<StepFinding> &findings,
    const std::string &id,
    ReportContent &out)
{
    const CriticalPath &path = analysis.path();
    if (!path.problem.empty())
        return;
    if (!analysis.tracesAtHand()) {
        ReportPart none;
        none.id = id;
        none.title = "What to fix first";
        none.text = kFindingsNeedTraces;
        out.parts.push_back(std::move(none));
        return;
    }
    const std::string step
        = path.step == kNoValue ? "the whole trace" : "ProfilerStep#" + std::to_string(path.step);
    ReportPart part;
    part.id = id;
    part.title = "What to fix first";
    part.text = "What slows " + step + (analysis.ranks().size() > 1 ? " across the ranks" : "")
        + ", by the time each change would save on its critical path (" + microsText(path.length)
        + " µs, the step model; as --findings writes it). docs/findings.md gives each rule.";
    CellTable table;
    table.addColumn("saving_us", Cell::Number, "Saving (µs)");
    table.addColumn("saving_pct", Cell::Number, "% of the path");
    table.addColumn("title", Cell::Text, "Finding");
    table.addColumn("how", Cell::Text, "Change");
    table.addColumn("fix", Cell::Text, "What to do");
    for (const StepFinding &f : findings) {
        table.addRow();
        table.add(f.saving ? microsText(*f.saving) : std::string());
        table.add(
            f.saving ? percentText(double(*f.saving), double(path.length), 2) : std::string());
        table.add(f.title);
        table.add(f.how);
        table.add(f.fix + " (" + f.doc + ")");
    }
    part.tables.push_back({"The findings, largest saving first.", std::move(table),
        "None: no rule of docs/findings.md sees its cause on the step's critical path."});
    out.parts.push_back(std::move(part));
}

} // namespace ks
