// SPDX-License-Identifier: MIT
// One rank's `--export-db` database read back: what a run from databases needs of it.
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/ranks/collectives.h"
#include "analysis/ranks/rankpairs.h"
#include "export/runtables.h"
#include "session/ranksource.h"

#include <optional>
#include <string>
#include <vector>

namespace ks {

/*!
 * Reads one rank's database: what a run needs of it first (RankSource, RankSource::database
 * set); its `findings` and `step_gpu_time` only with \a details (`--check`, the run's charts).
 * nullopt with \a error ("PATH: …") when it is no SQLite database, another program's, of a format
 * this version does not read, or of several ranks; nullopt with \a gathered set (and no error) when
 * it is tools/digest-run.sh's gathering of other databases (meta `gathered_from`).
 */
std::optional<RankSource> readRankDatabase(
    const std::string &path, bool &gathered, std::string &error, bool details = true);

/*!
 * One rank's pair rows from its `pairs` and `pair_keys` (row for row, in the rows' order), keyed
 * in \a keys as rankPairRows() keys a graph's; \a texts, when given, gets each row's texts.
 * False with \a error ("PATH: …") when they cannot be read.
 */
bool readPairRows(const std::string &path,
    StringPool &keys,
    RankPairRows &rows,
    PairRowTexts *texts,
    std::string &error);

/*!
 * \a rank's graph of ProfilerStep#\a step (the whole trace when the rank has no steps) from its
 * database, or its problem (no such step; its database holds another's graph). False with
 * \a error ("PATH: …") when it cannot be read.
 */
bool readPathGraph(const RankSource &rank, int64_t step, PathRankGraph &out, std::string &error);

} // namespace ks
