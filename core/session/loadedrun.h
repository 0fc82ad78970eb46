// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/collectives.h"
#include "analysis/rankpairs.h"
#include "session/loadedtrace.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ks {

//! Where a trace sits in its distributed job, as its `distributedInfo` says.
struct RankInfo {
    int rank = -1; //!< -1 when the trace does not say
    int worldSize = 0; //!< 0 when the trace does not say
};
RankInfo rankInfo(const TraceModel &model);
//! Its trace's `trace_id` (as the file wrote it), empty when it has none.
std::string traceIdOf(const TraceModel &model);

//! A trace of a run that could not be loaded.
struct RunFailure {
    std::string file;
    std::string error; //!< "FILE: byte OFFSET: reason", as a single load says it
};

//! A rank's time on the run clock, as far as telling one job from another needs it.
struct RankSpan {
    std::string file;
    TimeNs start = 0, end = 0; //!< its first and last event on the run clock
    std::string traceId; //!< its trace's `trace_id`, empty when it has none
};

/*!
 * Why ranks of these spans do not look like one job, naming the files: the first gap between
 * their spans on the common clock, unless the two sides' `trace_id`s name one job. Empty when
 * they overlap (LoadedRun::unrelated).
 */
std::string unrelatedSpans(std::vector<RankSpan> spans);

//! Whether \a ranks fall short of a \a worldSize that the traces say (0: they do not).
inline bool partialRun(size_t ranks, int worldSize)
{
    return worldSize > 0 && ranks < size_t(worldSize);
}
//! "2 of 8 ranks (world_size 8)" when \a ranks fall short of \a worldSize, else "8 ranks".
std::string rankCountText(size_t ranks, int worldSize);
//! What a run of fewer ranks than its world_size warns: "only 2 of 8 ranks (…): …".
std::string partialRunWarning(size_t ranks, int worldSize);

/*!
 * Several traces of one distributed job (one per rank) opened together: each loaded and linked
 * as alone, put on a common clock, their collectives and op pairs matched across ranks. Frozen
 * once made; shared read-only between views and threads.
 */
struct LoadedRun {
    std::vector<std::shared_ptr<const LoadedTrace>> traces; //!< by rank, as ranks()
    RankTraces ranks; //!< sorted by rank; graphs and trees point into traces
    std::vector<RunFailure> failures;
    std::vector<std::string> warnings; //!< duplicate ranks, world sizes that disagree, matching
    CollectiveMatch collectives;
    //! What makes the run's cross-rank numbers untrustworthy (checkRun(), `--check`).
    std::vector<Finding> findings;
    RankPairs pairs;
    TimeNs commonZero = 0; //!< absolute ns of the run clock's zero
    double seconds = 0; //!< wall time of the whole open
    //! The job's world_size when the traces agree on one, else 0.
    int worldSize = 0;
    /*!
     * Why these traces do not look like one job, naming the files: their times do not overlap
     * on the common clock (and their `trace_id`s, where both have one, differ). Empty when they
     * do. Headless commands refuse such a run; the window asks.
     */
    std::string unrelated;

    //! Fewer ranks than the job's world_size: skew and last-arriver cover these ranks only.
    bool partial() const { return partialRun(ranks.size(), worldSize); }
    //! "2 of 8 ranks (world_size 8)", or "8 ranks".
    std::string rankCountText() const;

    //! Index of rank number \a rank in ranks, -1 if none.
    int indexOfRank(int rank) const;

    //! The critical path across the ranks (their graphs joined by the collectives) as \a query
    //! asks; the default one's is found once and kept.
    std::shared_ptr<const CriticalPathAnalysis> criticalPath(const PathQuery &query = {}) const;

private:
    mutable std::once_flag m_criticalPathFound;
    mutable std::shared_ptr<const CriticalPathAnalysis> m_criticalPath;
};

struct RunOptions {
    unsigned parallel = 0; //!< ranks loaded at once; 0: usableCores()
    //! Called from loading threads as each rank finishes: (files done, files in all).
    std::function<void(size_t done, size_t total)> progress;
    const std::atomic<bool> *cancel = nullptr;
    //! Each rank's timeline is also made ready for a window (LoadedTrace::prepareForWindow()),
    //! and the run's critical path found.
    bool forWindow = false;
};

//! A trace's file name: `*.json` or `*.json.gz`.
bool isTraceFileName(const std::string &name);

/*!
 * The trace files a run's arguments name: files as given, folders expanded to the trace files
 * directly inside them (`*.json`, `*.json.gz`, sorted by name). False with \a error when an
 * argument does not exist or a folder holds no trace.
 */
bool runFiles(
    const std::vector<std::string> &args, std::vector<std::string> &files, std::string &error);

/*!
 * Opens \a files as one run. Ranks load in parallel (RunOptions::parallel at a time, each with
 * the ordinary loader and linker, so memory is about the sum of the single loads); a rank that
 * fails is listed in failures and the others still open. Null (with \a error) only when no
 * rank loaded.
 *
 * Rank numbers come from each trace's `distributedInfo.rank`; when a trace lacks one, or two
 * traces claim the same rank, every rank is numbered by its file's position instead (with a
 * warning). The common clock: each rank's times plus its `baseTimeNanoseconds` (0 for epoch
 * clocks), less the earliest such time over all ranks.
 */
std::shared_ptr<LoadedRun> openRun(
    const std::vector<std::string> &files, const RunOptions &options, std::string &error);

/*!
 * Puts already loaded traces (\a files in the same order) together as a run: ranks, clock,
 * matching. What openRun does after loading; tests use it on inline traces. Once \a cancel is
 * set, pairs are no longer matched across ranks (the caller drops the run).
 */
std::shared_ptr<LoadedRun> assembleRun(std::vector<std::shared_ptr<const LoadedTrace>> traces,
    std::vector<RunFailure> failures,
    unsigned threads = 1,
    const std::atomic<bool> *cancel = nullptr);

} // namespace ks
