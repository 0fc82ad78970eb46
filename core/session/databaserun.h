// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath.h"
#include "session/loadedrun.h"
#include "session/rankdatabase.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks {

/*!
 * Ranks read from their databases and matched as openRun() matches traces (numbered by file
 * order when a trace named no rank or two named one, on the common clock of the earliest zero):
 * the rank table and the collectives of `--export-ranks` and `--export-collectives` over
 * `*.sqlite`, and once readRankPairs() has read them the pairs of `--export-rank-pairs`, equal to
 * those of the traces.
 */
struct DatabaseRun {
    std::vector<RankDatabase> ranks; //!< by rank number
    std::vector<RunFailure> failures; //!< databases that could not be read
    std::vector<std::string> warnings;
    //! Why the ranks do not look like one job (LoadedRun::unrelated), from the databases that
    //! say when their traces ran; empty when they overlap.
    std::string unrelated;
    CollectiveMatch collectives;
    RankPairs pairs; //!< the pairs across ranks, once readRankPairs() has read them
    //! Their table (rankPairTable(), `--export-rank-pairs`), made where they are read: with
    //! thousands of ranks and pairs it is large, no work for a window's UI thread.
    std::shared_ptr<const CellTable> pairTable;

    std::vector<int> rankNumbers() const;
    std::vector<RankSummary> summaries() const;
};
//! The databases are read on up to \a threads threads. When memory runs out: no rank, and one
//! failure saying so.
DatabaseRun openDatabaseRun(const std::vector<std::string> &paths, unsigned threads = 1);

/*!
 * Reads \a run's pairs across ranks from each database's `pairs` and `pair_keys` (on up to
 * \a threads threads) and matches them as from the traces (matchRankPairs(), \a threads and
 * \a cancel as there), into DatabaseRun::pairs and their table. False with \a error ("PATH: …")
 * when a database's pairs cannot be read (the first such in rank order), "cancelled", or when
 * memory runs out.
 */
bool readRankPairs(DatabaseRun &run,
    unsigned threads,
    std::string &error,
    const std::atomic<bool> *cancel = nullptr);

//! The critical path across a database run's ranks (readRankPaths()).
struct DatabaseRunPath {
    std::shared_ptr<const CriticalPathAnalysis> analysis;
    //! Its segments (criticalSegmentTable(), `--export-critical-path`), made where it is found.
    std::shared_ptr<const CellTable> table;
};

/*!
 * \a run's critical path across the ranks from the graphs their databases hold, as from the
 * traces (CriticalPathAnalysis over the same graphs): ProfilerStep#\a step, kNoValue for the
 * first step of the first rank with steps. A database holds one step's graph (`--export-db
 * --critical-path-step N`, the first by default): a rank that has the step but whose database
 * holds another is left off the path, its problem saying so. nullopt with \a error ("PATH: …")
 * when a database's graph cannot be read (the first such in rank order), \a cancel is set, or
 * memory runs out.
 * Reads every database again, on up to \a threads threads: seconds for a thousand. \a model: the
 * path's model over the stored graphs.
 */
std::optional<DatabaseRunPath> readRankPaths(const DatabaseRun &run,
    int64_t step,
    unsigned threads,
    std::string &error,
    const std::atomic<bool> *cancel = nullptr,
    PathModel model = PathModel::Step);

/*!
 * Whether a run's arguments name databases rather than traces: files ending in `.sqlite`, or
 * folders holding `*.sqlite` and no trace; \a databases gets them (a folder's sorted by name),
 * and nothing when they are not.
 */
bool runDatabases(const std::vector<std::string> &args, std::vector<std::string> &databases);

} // namespace ks
