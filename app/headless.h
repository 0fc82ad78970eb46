// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/compare/tracediff.h"
#include "analysis/criticalpath/criticalpath.h"
#include "exitcode.h"
#include "session/loadedtrace.h"
#include "session/run.h"

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
//! `--export-pairs OUT FILE` / `--export-kernels OUT FILE`.
int runExport(const std::string &out, const std::string &file, bool kernels);
//! `--export-memory OUT FILE`: one row per allocation.
int runExportMemory(const std::string &out, const std::string &file);
//! `--export-live`: the blocks alive at \a atUs (µs, file clock), or at the peak if \a atPeak.
int runExportLive(const std::string &out, const std::string &file, bool atPeak, double atUs);
//! `--export-modules OUT FILE [--per-step]`.
int runExportModules(const std::string &out, const std::string &file, bool perStep);

//! `--export-steps OUT FILE`: one row per ProfilerStep.
int runExportSteps(const std::string &out, const std::string &file);
//! `--export-kernel-summary OUT FILE`: one row per kernel name.
int runExportKernelSummary(const std::string &out, const std::string &file);
//! `--export-efficiency OUT FILE`: one row per modelled op instance.
int runExportEfficiency(const std::string &out, const std::string &file);

/*!
 * Opens the run \a args names (trace or database files and folders) with \a options for a
 * headless command, saying on stderr what it has: the ranks that failed to load, the run's
 * warnings (a partial run). Null, with the reason on stderr, when nothing loaded or the ranks are
 * of different jobs (Run::unrelated); throws std::bad_alloc (exit 3) when memory ran out.
 */
std::shared_ptr<const Run> openRunOrReport(
    const std::vector<std::string> &args, const RunOptions &options = {});

/*!
 * A run command's exit code once its output is written: 0, or 2 when a rank could not be read,
 * 3 when that was for want of memory (docs/cli.md).
 */
int runExitCode(const Run &run);

//! What `--export-ranks`, `--export-collectives` and `--export-rank-pairs` write.
enum class RunExport { Ranks, Collectives, RankPairs, CriticalPath, Database };
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
