// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/memory/memoryindex.h"
#include "link/opgraph.h"

#include <string>

namespace ks {

//! Counts of a loaded trace, computed once for `--summary` and the window's status line.
struct TraceCounts {
    uint64_t cpuOps = 0;
    uint64_t gpuEvents = 0;
    uint64_t steps = 0;
};
TraceCounts countTrace(const TraceModel &model, const OpGraph &graph);

/*!
 * The `--summary` JSON object of cli.md, pretty-printed, ending with a newline; its critical path
 * is the one \a path asks for, with \a whatIf's length.
 */
std::string summaryJson(const TraceModel &model,
    const OpGraph &graph,
    double loadSeconds,
    const PathQuery &path = {},
    const std::optional<WhatIfChange> &whatIf = std::nullopt);

//! Loader and linker diagnostics together (counts and examples), for the summary and the banner.
Diagnostics allDiagnostics(const TraceModel &model, const OpGraph &graph);
//! The same with the memory index built already (the summary needs it for its own keys too).
Diagnostics allDiagnostics(
    const TraceModel &model, const OpGraph &graph, const MemoryIndex &memory);

} // namespace ks
