// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/time/stepbreakdown.h"
#include "export/celltable.h"
#include "session/comparedtraces.h"
#include "session/run.h"

#include <string>
#include <vector>

namespace ks {

//! A horizontal bar chart of a report: one bar per label, one stacked segment per series.
struct ReportChart {
    std::string caption; //!< what the figure shows, in a sentence
    std::string unit; //!< of the values ("µs")
    std::vector<std::string> series; //!< the legend, one name per segment
    std::vector<WorkPart> parts; //!< what each series is (its colour), one per segment
    std::vector<std::string> labels; //!< one per bar, top to bottom
    std::vector<std::vector<double>> values; //!< [bar][series]
};

//! A table of a report: cells copied as text from an export's table, so they never disagree.
struct ReportTable {
    std::string caption;
    CellTable table;
    //! What the report says instead of a table with no rows: why there are none.
    std::string whyEmpty = "No rows.";
};

//! One part of a report (one heading; a page of its own in the PDF).
struct ReportPart {
    std::string id; //!< "trace", "gpu-time", "top-pairs", … (the HTML section's id)
    std::string title;
    std::string text; //!< a sentence or two above the figures
    std::vector<ReportChart> charts;
    std::vector<ReportTable> tables;
    bool timeline = false; //!< the picture of ReportContent::timelineStep goes here
};

/*!
 * What a report says (issue: report), without drawing it: the parts in their order, each only
 * when the trace has its data. Tables take their cells from the export tables (PairTable,
 * ModuleTable, the run tables, DiffTable), so the report and `--export-…` agree to the digit.
 */
struct ReportContent {
    std::string title;
    std::string subtitle; //!< the files
    std::vector<ReportPart> parts;
    //! The step (index into the first trace's steps) and pair row the timeline picture shows;
    //! -1 when there is nothing to show.
    int timelineStep = -1;
    int timelineRow = -1;
    std::string timelineCaption; //!< what the picture shows
};

//! Cells a report aligns right: numbers, numeric ids, timestamps.
inline bool isNumericCell(Cell cell)
{
    return cell == Cell::Number || cell == Cell::Integer || cell == Cell::NumberId
        || cell == Cell::Timestamp || cell == Cell::Bytes;
}

//! What the window shows when it exports a report: the timeline picture follows it.
struct ReportFocus {
    int64_t step = kNoValue; //!< N of the ProfilerStep chosen in the toolbar, kNoValue: none
    int row = -1; //!< the pair row of the selected event, -1: none
};

//! The report of one trace; its timeline picture shows \a focus when it names a step or a pair.
ReportContent traceReport(const LoadedTrace &trace, const ReportFocus &focus = {});
/*!
 * The report of a run: the first rank's trace parts, the ranks, the collectives, the critical
 * path, the timeline. \a first: the first rank's trace (Run::rankTrace()); null: its parts and
 * the timeline are left out, and the report says \a whyNoTrace.
 */
ReportContent runReport(
    const Run &run, const LoadedTrace *first, const std::string &whyNoTrace = {});
//! The report of a comparison: the candidate's trace parts, the pairs that changed most, the
//! candidate's timeline.
ReportContent comparisonReport(const ComparedTraces &compared);

} // namespace ks
