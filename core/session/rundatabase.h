// SPDX-License-Identifier: MIT
#pragma once

#include "session/run.h"

#include <functional>
#include <string>

namespace ks {

/*!
 * The version of the database's layout (meta's format_version, `schema`'s version);
 * docs/cli.md "--export-db". 6: each rank's `step_gpu_time` and `findings`, what a run from
 * databases draws and checks; 5: each table a view over NAME_rows and `strings`, with `pair_keys`,
 * each rank's critical-path graph, `efficiency`, `live`, counts and ids INTEGER and the tables
 * `schema` and `schema_columns`; 5 (no `step_gpu_time`, `findings`), 4 (counts REAL), 3 (no
 * graphs), 2 (no `pair_keys`) and 1 (plain tables) are not read.
 */
constexpr int kDatabaseFormat = 6;

/*!
 * Writes `--export-db`'s SQLite database of \a run (one trace is a run of one) to \a path,
 * atomically: every rank's tables with a leading `rank` column (pairs, pair_keys, kernels,
 * kernel_summary, modules, memory, steps, efficiency, live at the peak, summary as
 * key/value/json rows, diagnostics, collective_kernels, step_gpu_time, findings, and the
 * critical-path graph of \a query's step: path_nodes, path_edges, path_events), the run's tables
 * (ranks, collectives, rank_pairs, critical_path), meta (format and tool version; per rank its
 * source file, size, sha256, world size and clock base), schema and schema_columns, and indexes on
 * rank, step and names. \a sha256 gives a file's hex digest (fileSha256(), from the caller, which
 * may hash on a thread of its own), asked for each rank after its tables are built, so that the
 * hashing runs beside them. False
 * with \a error set on failure.
 */
bool writeRunDatabase(const Run &run,
    const std::string &path,
    const PathQuery &query,
    const std::function<std::string(const std::string &file)> &sha256,
    std::string &error);

} // namespace ks
