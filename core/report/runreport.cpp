// SPDX-License-Identifier: MIT
// The report of a run (runReport()): rank 0's trace parts, the ranks, collectives and path.
#include "report/reportcontent.h"

#include "report/criticalpathpart.h"
#include "report/findingspart.h"
#include "report/reportcells.h"
#include "report/traceparts.h"

#include "export/runtables.h"

namespace ks {

namespace {

//! The critical path across the ranks, or why there is none.
void addRunPath(const Run &run, ReportContent &out)
{
    std::string error;
    if (const auto path = run.criticalPath({}, &error)) {
        addCriticalPath(*path, true, out);
        return;
    }
    ReportPart none;
    none.id = "run-critical-path";
    none.title = "The critical path";
    none.text = "No critical path: " + error;
    out.parts.push_back(std::move(none));
}

/*!
 * What the run's numbers lack — ranks that could not be opened, ranks read in part, ranks
 * missing from the collectives, a run short of its world — as every command opening the run says
 * it on stderr: first, since every part after it is computed without what is missing.
 */
void addRunWarnings(const Run &run, ReportContent &out)
{
    if (run.warnings.empty() && run.failures.empty())
        return;
    ReportPart part;
    part.id = "run-warnings";
    part.title = "What the run lacks";
    part.text = "Every part below is computed from what could be read: ranks left out or read in "
                "part count only as far as they were read.";
    CellTable t;
    t.addColumn("warning", Cell::Text, {});
    for (const RunFailure &f : run.failures) {
        t.addRow();
        t.add("not opened: " + f.error);
    }
    for (const std::string &w : run.warnings) {
        t.addRow();
        t.add(w);
    }
    part.tables.push_back({"The run's warnings, as the command line prints them.", std::move(t)});
    out.parts.push_back(std::move(part));
}

} // namespace

ReportContent runReport(const Run &run, const LoadedTrace *first, const std::string &whyNoTrace)
{
    ReportContent out;
    out.title = "Kinetoscope report: a run of " + run.rankCountText();
    for (const RankTrace &r : run.ranks)
        out.subtitle += (out.subtitle.empty() ? "" : ", ") + fileName(r.file);
    if (run.ranks.empty())
        return out; // nothing loaded: the title says so
    // What the run lacks, what to fix first across the ranks, then the first rank's trace parts,
    // the run's, then the timeline.
    addRunWarnings(run, out);
    if (const auto path = run.criticalPath())
        addFindings(*path, run.stepFindings(), "run-findings", out);
    const std::string prefix = "Rank " + std::to_string(run.ranks[0].rank) + ": ";
    if (first) {
        addTraceParts(*first, prefix, out);
    } else {
        ReportPart missing;
        missing.id = "trace";
        missing.title = prefix + "the trace";
        missing.text
            = "Its own parts and the timeline need its trace, which is not at hand: " + whyNoTrace;
        out.parts.push_back(std::move(missing));
    }
    ReportPart ranks;
    ranks.id = "ranks";
    ranks.title = "The ranks";
    ranks.text = "Each rank's GPU time breakdown over its whole trace (as --export-ranks has it).";
    ReportChart chart;
    chart.caption
        = "GPU time per rank, µs: computation, exposed communication, exposed memcpy, idle.";
    chart.unit = "µs";
    chart.series = {"computation", "exposed communication", "exposed memcpy", "idle"};
    chart.parts
        = {WorkPart::Computation, WorkPart::Communication, WorkPart::Memcpy, WorkPart::Idle};
    if (run.ranks.size() > kChartBars)
        chart.caption += " The first " + std::to_string(kChartBars) + " of "
            + std::to_string(run.ranks.size()) + " ranks; the table has them all.";
    const std::vector<RankSummary> summaries = run.summaries();
    for (const RankSummary &r : summaries) {
        if (chart.labels.size() == kChartBars)
            break;
        const GpuTimeBreakdown b = gpuTimeOfFields(r.gpuTime);
        chart.labels.push_back(
            "rank " + std::to_string(r.rank) + (r.gpuUnknown ? " (GPU work missing)" : ""));
        chart.values.push_back({double(b.computation) / 1e3, double(b.exposedComm) / 1e3,
            double(b.exposedMemcpy) / 1e3, double(b.idle) / 1e3});
    }
    ranks.charts.push_back(std::move(chart));
    ranks.tables.push_back({"One row per rank (--export-ranks).", rankTable(summaries)});
    out.parts.push_back(std::move(ranks));

    const CellTable collectives = collectiveTable(run.rankNumbers(), run.collectives);
    size_t skewColumn = 0;
    for (size_t c = 0; c < collectives.columnCount(); ++c) {
        if (collectives.columnName(c) == "skew_us")
            skewColumn = c;
    }
    const std::vector<size_t> top = topRows(collectives.rowCount(), kTopRows,
        [&](size_t r) { return collectives.number(r, skewColumn); });
    if (!top.empty()) {
        ReportPart part;
        part.id = "collectives";
        part.title = "Collectives with the largest skew";
        part.text = "Collectives matched across the ranks, by how much later the last rank "
                    "arrived than the first: the others wait that long for it.";
        if (run.partial())
            part.text += " Only " + run.rankCountText()
                + " were opened: a rank left out may arrive later still.";
        std::vector<size_t> columns;
        for (const std::string_view name : {"collective", "name", "process_group", "skew_us",
                 "last_rank", "min_dur_us", "max_dur_us"}) {
            for (size_t c = 0; c < collectives.columnCount(); ++c) {
                if (collectives.columnName(c) == name)
                    columns.push_back(c);
            }
        }
        part.tables.push_back({"Rows of --export-collectives.", select(collectives, top, columns)});
        out.parts.push_back(std::move(part));
    }
    if (run.ranks.size() > 1)
        addRunPath(run, out);
    if (first)
        chooseTimeline(*first, prefix, {}, out);
    return out;
}

} // namespace ks
