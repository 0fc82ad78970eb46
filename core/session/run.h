// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/findings/stepfinding.h"
#include "analysis/ranks/collectives.h"
#include "analysis/ranks/rankpairs.h"
#include "export/checkreport.h"
#include "session/ranksource.h"

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

//! A rank of a run that could not be read: its trace or its database.
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
 * they overlap (Run::unrelated).
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
 * The ranks of one distributed job opened together, read from their traces or from their
 * `--export-db` databases (RankSource): put on a common clock, their collectives and op pairs
 * matched across ranks, their critical path found through the collectives. Frozen once made;
 * shared read-only between views and threads.
 */
struct RunOptions;

struct Run {
    //! By rank, as ranks. Every rank's trace is loaded, or every rank was read from a database.
    std::vector<std::shared_ptr<const RankSource>> sources;
    //! By rank: its number, file and clock; its graph where its trace is loaded (else null).
    RankTraces ranks;
    std::vector<RunFailure> failures;
    std::vector<std::string> warnings; //!< duplicate ranks, world sizes that disagree, matching
    CollectiveMatch collectives;
    //! What makes the run's cross-rank numbers untrustworthy (checkRun(), `--check`).
    std::vector<Finding> findings;
    RankPairs pairs; //!< once matched (RunOptions::pairs)
    PairRowTexts firstPairRows; //!< the first rank's pair rows as the pairs across ranks name them
    //! Why the pairs could not be matched (a database's cannot be read); empty when they were
    //! or were not asked for.
    std::string pairsProblem;
    TimeNs commonZero = 0; //!< absolute ns of the run clock's zero
    double seconds = 0; //!< wall time of the whole open
    //! The job's world_size when the ranks agree on one, else 0.
    int worldSize = 0;
    /*!
     * Why these ranks do not look like one job, naming the files: their times do not overlap
     * on the common clock (and their `trace_id`s, where both have one, differ). Empty when they
     * do. Headless commands refuse such a run; the window asks.
     */
    std::string unrelated;

    //! Read from databases: no timelines, no what-ifs.
    bool fromDatabases() const { return !sources.empty() && !sources.front()->trace; }
    //! Fewer ranks than the job's world_size: skew and last-arriver cover these ranks only.
    bool partial() const { return partialRun(ranks.size(), worldSize); }
    //! "2 of 8 ranks (world_size 8)", or "8 ranks".
    std::string rankCountText() const;
    //! Index of rank number \a rank in ranks, -1 if none.
    int indexOfRank(int rank) const;
    std::vector<int> rankNumbers() const;
    std::vector<RankSummary> summaries() const;

    /*!
     * The critical path across the ranks (their graphs joined by the collectives) as \a query
     * asks; the default one's is found once and kept. From databases, their stored graphs
     * (readPathGraph()): null with \a error ("PATH: …") when one cannot be read, or when
     * \a query asks for what only `--export-db` decides (data loading, stream order).
     */
    std::shared_ptr<const CriticalPathAnalysis> criticalPath(
        const PathQuery &query = {}, std::string *error = nullptr) const;
    //! What to fix first in the default path's step (findStepFindings with the run's
    //! collectives; docs/findings.md), found once and kept; empty without a path or the traces.
    const std::vector<StepFinding> &stepFindings() const;

    /*!
     * Rank \a index's trace: loaded, or loaded now from the file its database was digested
     * from; null with \a error when that file is gone or cannot be loaded.
     */
    std::shared_ptr<const LoadedTrace> rankTrace(size_t index, std::string &error) const;

private:
    friend std::shared_ptr<Run> assembleRun(
        std::vector<RankSource>, std::vector<RunFailure>, const RunOptions &);
    //! \a query's path; from databases, the first takes the graphs their opens read.
    std::shared_ptr<const CriticalPathAnalysis> findPath(
        const PathQuery &query, std::string &error) const;

    //! By rank, what each database's open read besides its facts (its path graph), until taken.
    mutable std::vector<AlsoRead> m_alsoRead;
    mutable std::mutex m_alsoReadTaken;
    mutable std::once_flag m_criticalPathFound;
    mutable std::shared_ptr<const CriticalPathAnalysis> m_criticalPath;
    mutable std::string m_criticalPathError;
    mutable std::once_flag m_findingsFound;
    mutable std::vector<StepFinding> m_findings;
};

//! Why a run from databases refuses a path query asking for data loading or stream order.
inline constexpr std::string_view kPathOptionsOfDigest
    = "a database's path graph was made by --export-db: give --data-loading and "
      "--assume-stream-order there";

//! `--check` of \a run: each rank's findings with its file and rank, then the run's own (with
//! the rank they name, if any).
CheckReport checkReport(const Run &run);

struct RunOptions {
    unsigned parallel = 0; //!< ranks loaded or read at once; 0: usableCores()
    //! Called from loading threads as each rank finishes: (ranks done, ranks in all).
    std::function<void(size_t done, size_t total)> progress;
    const std::atomic<bool> *cancel = nullptr;
    //! The pairs across ranks are matched (the rank-pair table, the window).
    bool pairs = true;
    //! Each rank's health findings and steps' GPU time are read from its database or worked out
    //! from its trace (`--check`, the window's charts, `--export-db`).
    bool rankDetails = true;
    //! Each rank's timeline is also made ready for a window (LoadedTrace::prepareForWindow()),
    //! and the run's critical path found.
    bool forWindow = false;
    //! Each database's stored path graph is read in its one open, for the run's first critical
    //! path (`--export-critical-path`; the window's always is).
    bool pathGraph = false;
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
 * Whether a run's arguments name databases rather than traces: files ending in `.sqlite`, or
 * folders holding `*.sqlite` and no trace; \a databases gets them (a folder's sorted by name),
 * and nothing when they are not.
 */
bool runDatabases(const std::vector<std::string> &args, std::vector<std::string> &databases);

/*!
 * Opens the ranks \a args name as one run: trace files, rank databases (`--export-db` of one
 * rank each), or folders of either (runFiles(), runDatabases()). Traces load in parallel
 * (RunOptions::parallel at a time, each with the ordinary loader and linker, so memory is about
 * the sum of the single loads); databases are read side by side. A rank that fails is listed in
 * failures and the others still open. Null (with \a error) only when no rank opened.
 *
 * Rank numbers come from each trace's `distributedInfo.rank`; when a trace lacks one, or two
 * traces claim the same rank, every rank is numbered by its file's position instead (with a
 * warning). The common clock: each rank's times plus its `baseTimeNanoseconds` (0 for epoch
 * clocks), less the earliest such time over all ranks.
 */
std::shared_ptr<Run> openRun(
    const std::vector<std::string> &args, const RunOptions &options, std::string &error);

/*!
 * Puts ranks already read together as a run (in the order given; failures as given): ranks,
 * clock, matching, pairs as \a options asks. What openRun does after reading. Throws
 * std::bad_alloc when memory runs out.
 */
std::shared_ptr<Run> assembleRun(
    std::vector<RankSource> ranks, std::vector<RunFailure> failures, const RunOptions &options);
//! The same for loaded traces (tests use it on inline traces).
std::shared_ptr<Run> assembleRun(std::vector<std::shared_ptr<const LoadedTrace>> traces,
    std::vector<RunFailure> failures,
    unsigned threads = 1,
    const std::atomic<bool> *cancel = nullptr);

} // namespace ks
