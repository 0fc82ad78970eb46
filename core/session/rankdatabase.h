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

//! What readRankDatabase() reads of a rank besides its facts, in the same open.
struct RankReading {
    bool details = true; //!< its `findings` and `step_gpu_time` (`--check`, the run's charts)
    StringPool *pairKeys = nullptr; //!< set: its pair rows, keyed here (AlsoRead::pairRows)
    bool pairTexts = false; //!< with pairKeys: each row's texts as well
    bool pathGraph = false; //!< its stored path graph (AlsoRead::path)
};

/*!
 * Reads one rank's database in one open: what a run needs of it (RankSource, its database set),
 * and what \a reading asks besides (RankSource::alsoRead: an error there leaves the rank read).
 * nullopt with \a error ("PATH: …") when it is no SQLite database, another program's, of a format
 * this version does not read, or of several ranks; nullopt with \a gathered set (and no error) when
 * it is tools/digest-run.sh's gathering of other databases (meta `gathered_from`).
 */
std::optional<RankSource> readRankDatabase(
    const std::string &path, bool &gathered, std::string &error, const RankReading &reading = {});

/*!
 * \a stored, of \a rank, as the graph of ProfilerStep#\a step (the whole trace when the rank has
 * no steps), or the problem that keeps the rank off the path (no such step; its database holds
 * another step's graph).
 */
PathRankGraph pathOfStep(StoredRankPath stored, const RankSource &rank, int64_t step);

/*!
 * \a rank's graph of ProfilerStep#\a step read from its database again (a path of another step
 * than the run's first). False with \a error ("PATH: …") when it cannot be read.
 */
bool readPathGraph(const RankSource &rank, int64_t step, PathRankGraph &out, std::string &error);

} // namespace ks
