// SPDX-License-Identifier: MIT
#pragma once

#include "report/reportcontent.h"
#include "session/loadedtrace.h"

namespace ks {

/*!
 * The report's first part, "What to fix first" (issue #58, docs/findings.md): the findings of the
 * first step's critical path as `--findings` writes them, ranked by the time each would save, with
 * the change and the fix. Only for a trace with steps, as the window's Findings page.
 */
void addFindings(const LoadedTrace &trace, ReportContent &out);
//! What a run from databases says in the findings' place: their changes replay on the traces.
inline constexpr std::string_view kFindingsNeedTraces
    = "The findings need the ranks' traces, where their changes replay: open the run from the "
      "traces, or run kinetoscope --findings OUT.json on them.";

//! The same part, \a id, for \a findings of \a path (a run's across its ranks); without the
//! traces at hand, kFindingsNeedTraces in their place.
void addFindings(const CriticalPathAnalysis &path,
    const std::vector<StepFinding> &findings,
    const std::string &id,
    ReportContent &out);

} // namespace ks
