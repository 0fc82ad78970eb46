// SPDX-License-Identifier: MIT
// One rank's `--export-db` database read back: what a run from databases needs of it.
#pragma once

#include "analysis/collectives.h"
#include "analysis/criticalpath.h"
#include "analysis/rankpairs.h"
#include "export/runtables.h"

#include <optional>
#include <string>
#include <vector>

namespace ks {

//! A rank as its `--export-db` database tells it (a database of one rank's trace).
struct RankDatabase {
    std::string path;
    //! Not one rank's: tools/digest-run.sh's gathering of the others (meta `gathered_from`).
    bool gathered = false;
    int rank = 0; //!< as the database numbers it
    int traceRank = -1; //!< its trace's `distributedInfo.rank`, -1 when the trace did not say
    int worldSize = 0;
    std::string sourceFile;
    TimeNs clockBase = 0; //!< meta `clock_base_ns`: added to its times gives epoch ns
    TimeNs clockZero = 0; //!< meta `clock_zero_ns`: its earliest event, epoch ns
    TimeNs clockOffset = 0; //!< added to its times gives the run's clock (set by the run)
    //! meta `trace_start_ns`, `trace_end_ns`: its first and last event on the file's clock;
    //! kNoValue in a database written before they were.
    TimeNs traceStart = kNoValue, traceEnd = kNoValue;
    std::string traceId; //!< meta `trace_id`: its trace's, empty when it has none
    std::vector<int64_t> steps; //!< its ProfilerSteps' numbers (`steps`), in order
    std::vector<CommRecord> kernels; //!< `collective_kernels`, in start order
    RankSummary summary; //!< its row of the rank table (`ranks`), numbered as the run numbers it
};

/*!
 * Reads one rank's database; nullopt with \a error ("PATH: …") when it is no SQLite database,
 * another program's, of a format this version does not read, or of several ranks.
 */
std::optional<RankDatabase> readRankDatabase(const std::string &path, std::string &error);

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
bool readPathGraph(const RankDatabase &rank, int64_t step, PathRankGraph &out, std::string &error);

} // namespace ks
