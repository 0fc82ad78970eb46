// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/compare/tracediff.h"
#include "analysis/criticalpath/criticalpath.h"
#include "exitcode.h"
#include "session/loadedtrace.h"
#include "session/run.h"
#include "session/traceexports.h"

#include <string>
#include <vector>

namespace ks {

//! Opens \a file; null, with the loader's message on stderr, when it cannot; throws
//! std::bad_alloc (exit 3) when that was for want of memory.
std::shared_ptr<const LoadedTrace> loadOrReport(const std::string &file);

//! `--summary FILE`: the JSON summary on stdout.
int runSummary(const std::string &file,
    const PathQuery &path = {},
    const std::optional<WhatIfChange> &whatIf = std::nullopt);
//! `--findings OUT FILE…|DIR`: the step's findings of a trace or a run of traces as JSON
//! (docs/findings.md), written atomically.
int runFindings(
    const std::string &out, const std::vector<std::string> &args, const PathQuery &path);
//! `--export-NAME OUT FILE` of kTraceExports: loads \a file, writes, says its notes on stderr.
int runTraceExport(TraceExportKind kind,
    const std::string &out,
    const std::string &file,
    const TraceExportOptions &options);

/*!
 * Opens the run \a args names (trace or database files and folders) with \a options for a
 * headless command, saying on stderr what it has: the ranks that failed to load, the run's
 * warnings (a partial run). Null, with the reason on stderr, when nothing loaded or the ranks are
 * of different jobs (Run::unrelated); throws std::bad_alloc (exit 3) when memory ran out.
 * \a oneTraceIsNoRun: when \a args is one trace file, it is not said to be a run short of
 * ranks.
 */
std::shared_ptr<const Run> openRunOrReport(const std::vector<std::string> &args,
    const RunOptions &options = {},
    bool oneTraceIsNoRun = false);

/*!
 * A run command's exit code once its output is written: 0, or 2 when a rank could not be read,
 * 3 when that was for want of memory (docs/cli.md).
 */
int runExitCode(const Run &run);

//! What `--export-ranks`, `--export-collectives` and `--export-rank-pairs` write.
enum class RunExport { Ranks, Collectives, RankPairs, CriticalPath, Database, Parquet };
/*!
 * Opens the run \a args names (files and folders) and writes \a what to \a out. Ranks that fail
 * to load are reported on stderr; the others are still written, and the exit code is then
 * ExitLoadFailed so that scripts notice. \a path: what RunExport::CriticalPath asks.
 */
int runRunExport(RunExport what,
    const std::string &out,
    const std::vector<std::string> &args,
    const PathQuery &path = {});

//! How `--compare` lines the two traces up and what `--export-diff` writes.
struct CompareRequest {
    std::string base, candidate, out;
    std::string diffBy = "pairs"; //!< pairs | ops | modules | module-types
    DiffOptions options;
};
//! `--compare BASE CANDIDATE --export-diff OUT`.
int runCompareExport(const CompareRequest &request);

} // namespace ks
