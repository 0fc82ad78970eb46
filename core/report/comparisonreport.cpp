// SPDX-License-Identifier: MIT
// The report of a comparison (comparisonReport()).
#include "report/reportcontent.h"

#include "report/reportcells.h"
#include "report/traceparts.h"

#include "export/difftable.h"

namespace ks {

ReportContent comparisonReport(const ComparedTraces &compared)
{
    ReportContent out;
    out.title = "Kinetoscope report: " + fileName(compared.candidate->model->path) + " against "
        + fileName(compared.base->model->path);
    out.subtitle = compared.base->model->path + " → " + compared.candidate->model->path;
    ReportPart headline;
    headline.id = "comparison";
    headline.title = "The comparison";
    headline.text = comparisonHeadline(*compared.diff)
        + " (forward + backward GPU time of every pair, base → candidate).";
    out.parts.push_back(std::move(headline));
    addTraceParts(*compared.candidate, "Candidate: ", out);
    const DiffTable diff(*compared.diff, DiffOrder::ByChange);
    std::vector<size_t> rows;
    for (size_t r = 0; r < diff.rowCount() && rows.size() < kTopRows; ++r)
        rows.push_back(r);
    if (!rows.empty()) {
        ReportPart part;
        part.id = "changes";
        part.title = "The pairs that changed most";
        part.text = "Pairs matched by step-relative position, module path, op name and input dims, "
                    "by the change in forward + backward GPU time (as --export-diff has them).";
        std::vector<size_t> columns
            = {DiffTable::Status, DiffTable::FwdName, DiffTable::ModuleBase};
        for (const DiffMetric metric : {DiffMetric::FwdGpu, DiffMetric::BwdGpu}) {
            const size_t first = DiffTable::metricColumn(metric);
            for (size_t c = first; c < first + 3; ++c)
                columns.push_back(c); // base, candidate, delta
        }
        part.tables.push_back({"Rows of --export-diff.", select(diff, rows, columns)});
        out.parts.push_back(std::move(part));
    }
    chooseTimeline(*compared.candidate, "Candidate: ", {}, out);
    return out;
}

} // namespace ks
