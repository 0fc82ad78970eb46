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

} // namespace ks
