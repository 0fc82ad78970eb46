// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/health/tracecheck.h"
#include "analysis/ranks/collectives.h"
#include "analysis/ranks/rankpairs.h"
#include "analysis/time/gputime.h"
#include "export/runtables.h"
#include "session/loadedtrace.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks {

//! The path graph a rank's database holds: of the step `--export-db` chose, or why it has none.
struct StoredRankPath {
    int64_t step = kNoValue; //!< its ProfilerStep; kNoValue: the whole trace
    PathRankGraph graph; //!< graph null, problem set: the database says why it has none
};

/*!
 * What the one open of a rank's database read besides its facts, when the run asked for it
 * (RunOptions::pairs, RunOptions::pathGraph): handed over to the run as it is assembled. An
 * error here leaves the rank in the run; the run says what could not be read.
 */
struct AlsoRead {
    std::optional<RankPairRows> pairRows; //!< keyed in the pool the reading shared
    PairRowTexts pairTexts; //!< kept for the ranks that may be numbered first
    std::string pairsError; //!< "PATH: …" when its pairs could not be read
    std::optional<StoredRankPath> path;
    std::string pathError; //!< "PATH: …" when its path graph could not be read
};

/*!
 * One rank of a run as the run's analyses know it, read from its trace (rankSourceOf()) or
 * from its `--export-db` database (readRankDatabase()): who it is, its clock, its row of the
 * rank table, its steps, its communication kernels and its own health findings. A trace's pair
 * rows are worked out when a run asks for them (pairRowsOf()); a database's are read with the
 * rest (alsoRead). Frozen once made.
 */
struct RankSource {
    //! Its database; empty for a rank whose trace is loaded.
    std::string database;
    //! Its trace, loaded; null for a rank read from its database.
    std::shared_ptr<const LoadedTrace> trace;
    //! Its trace file: a loaded trace's path, or where its database says it was read from.
    std::string traceFile;
    int traceRank = -1; //!< its trace's `distributedInfo.rank`, -1 when the trace did not say
    std::string traceId; //!< its trace's `trace_id`, empty when it has none
    TimeNs clockBase = 0; //!< added to its times gives epoch ns (`baseTimeNanoseconds`)
    TimeNs traceStart = 0; //!< its first event, on its file's clock
    TimeNs traceEnd = 0; //!< its last event's end
    RankSummary summary; //!< its row of the rank table, numbered as the run numbers it
    std::vector<int64_t> steps; //!< its ProfilerSteps' numbers, in order
    std::vector<StepGpuTime> stepGpuTime; //!< gpuTimePerStep() of its trace
    std::vector<CommRecord> kernels; //!< its communication kernels, in start order
    std::vector<Finding> findings; //!< checkTrace()'s, of its trace
    std::string dataLost; //!< dataLoss() of its trace: what its load lost; empty: nothing
    AlsoRead alsoRead; //!< a database's, until the run is assembled

    //! The file the run opened for it: its database, or its trace.
    const std::string &path() const { return trace ? traceFile : database; }
    //! Its earliest event on the epoch clock: the run's common zero is the least of these.
    TimeNs clockZero() const { return clockBase + traceStart; }
};

//! \a trace as a rank of a run (works out its summary and kernels, and with \a details its
//! findings and steps' GPU time: a loading thread's work). Throws std::bad_alloc when memory runs
//! out.
RankSource rankSourceOf(std::shared_ptr<const LoadedTrace> trace, bool details = true);

//! What one row of the rank table says of \a trace's rank (RankSummary::rank left 0).
RankSummary rankSummary(const LoadedTrace &trace);

/*!
 * The pair rows of \a trace, keyed in \a keys; \a texts, when given, gets each row's fwd_name,
 * input_dims, step and module as the pair table writes them.
 */
RankPairRows pairRowsOf(const LoadedTrace &trace, StringPool &keys, PairRowTexts *texts);

} // namespace ks
