// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalgraph.h"
#include "analysis/criticalpath/joinedgraph.h"
#include "analysis/criticalpath/stepmodel.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks {

//! One stretch of the path that takes time, in the user's terms.
struct PathSegment {
    SliceId event = kNoSlice; //!< whose time it is (a launch delay: the GPU event launched)
    PathEdgeKind kind = PathEdgeKind::Span;
    PathBound bound = PathBound::None;
    TimeNs start = 0; //!< in its rank's model times
    TimeNs dur = 0;
    int row = -1; //!< the pair row the event belongs to, -1 if none
    //! forward, backward, backward_other, recompute, other, communication; idle for idle time
    //! and late starts
    std::string_view side;
    uint32_t rank = 0; //!< index of the rank whose event it is (0 for a single trace)
    int collective = -1; //!< index of the collective whose kernel it is (CollectiveMatch), -1
    uint32_t fromRank = 0; //!< the rank it is entered from: a collective's last arriver
};

//! One rank's share of the path.
struct RankOnPath {
    std::string problem; //!< why the rank has no part (no such step), empty when it has one
    TimeNs windowStart = 0; //!< its step's window, in its model's times
    TimeNs windowEnd = 0;
    TimeNs time = 0; //!< its events' time on the path
    //! How much later the rank's work could run without lengthening the step. The step model:
    //! the least room of any of its events (kNoValue: a rank without a window). HTA's model: its
    //! least wait at the collectives the path passes through (0 for a last arriver), kNoValue
    //! when the path passes none of its collectives.
    TimeNs slack = kNoValue;
    //! How long after the earliest rank it began the step (step model; 0 for a single trace).
    TimeNs lateStart = 0;
    std::vector<TimeNs> rowTime; //!< per pair row: its events' time on the path
};

struct CriticalPath {
    std::string problem; //!< why there is no path (empty when there is one)
    int64_t step = kNoValue; //!< N of the ProfilerStep#N analysed, kNoValue: the whole trace
    PathModel model = PathModel::Step;
    //! The step's window on the run clock: the earliest rank's step start to the end of the last
    //! work launched in a step. The step model's length is its length.
    TimeNs windowStart = 0;
    TimeNs windowEnd = 0;
    TimeNs length = 0;
    std::array<TimeNs, kPathBounds> byBound {};
    std::vector<PathSegment> segments; //!< in path order, those with time
    std::vector<RankOnPath> ranks; //!< by rank index (one for a single trace)
    //! Time on the path by side, in the order of first appearance.
    std::vector<std::pair<std::string_view, TimeNs>> bySide;
    //! What the trace cannot tell: dependencies it does not record (`critical_path.notes`).
    std::vector<std::string> notes;
};

/*!
 * A what-if as users write it (`--what-if`, the Critical path page, a finding's `how`;
 * docs/critical-path.md):
 * - "NAME:FACTOR": NAME's GPU work (GPU events named so, or launched inside an op named so: a
 *   pair's forward op) at FACTOR of its time;
 * - "no wait: NAME": the blocking calls named NAME return at once (their waits for the GPU gone);
 * - "no time: NAME": the events named NAME take no time, nor does anything inside them on their
 *   thread (TimeCut);
 * - "no launch: NAME": the launch calls named NAME take no time and the kernels they launched
 *   run back to back, no launch delay before them and no gap after the GPU work before them (as
 *   a CUDA graph replays them);
 * - "no recompute": the forward work re-run inside backward nodes (checkpointing) takes no time;
 * - "on time: rank R": rank R's step begins with the earliest rank's (its late start gone).
 */
struct WhatIfChange {
    enum class Kind : uint8_t { Scale, NoWait, NoTime, NoLaunch, NoRecompute, OnTime };
    WhatIfChange() = default;
    WhatIfChange(Kind k, std::string n = {}, double f = 1, int r = 0)
        : kind(k)
        , name(std::move(n))
        , factor(f)
        , rank(r)
    {
    }

    Kind kind = Kind::Scale;
    std::string name; //!< Scale, NoWait, NoTime, NoLaunch
    double factor = 1; //!< Scale
    int rank = 0; //!< OnTime: the rank's number
};
//! The change as parseWhatIf() reads it back ("aten::linear:0.5", "no wait: cudaFree").
std::string whatIfText(const WhatIfChange &change);

//! "If CHANGE were made, the step would take LENGTH".
struct WhatIf {
    WhatIfChange change;
    TimeNs length = 0;
};

/*!
 * A change to a step's work, as the path replays it: the time of each event \a scale gives a
 * factor for (GPU work or a host op; nullopt: unchanged), the blocking calls \a noWait names no
 * longer waiting for the GPU (the step model's sync waits dropped; HTA's model keeps them), and
 * the rank \a onTime (an index into the ranks) starting its step with the earliest rank (the step
 * model's late start gone), and the host events \a cut accepts taking no time, nor any gap
 * inside them (TimeCut: their thread runs on without them), and the GPU events \a noGap accepts
 * starting with no launch delay and no gap after the GPU work before them. Any may be empty.
 */
struct PathChange {
    std::function<std::optional<double>(uint32_t rank, SliceId event)> scale;
    std::function<bool(uint32_t rank, SliceId call)> noWait;
    std::optional<uint32_t> onTime;
    std::function<bool(uint32_t rank, SliceId event)> cut;
    std::function<bool(uint32_t rank, SliceId gpuEvent)> noGap;
};

//! What is asked of a path.
struct PathQuery {
    int64_t step = kNoValue; //!< N of ProfilerStep#N; kNoValue: the first step
    //! Which event names are data loading (HTA's data_load_events; `--data-loading` passes a
    //! regular expression's search); empty: none. Asked once per distinct name, from one thread.
    NameTest dataLoading;
    PathModel model = PathModel::Step; //!< `--critical-path-model`
    //! Join each GPU event to the work launched before it on its device (`--assume-stream-order`).
    bool assumeStreamOrder = false;
};

//! A rank of a run, as the path sees it: its linked graph and its clock.
struct PathRankInput {
    const OpGraph *graph = nullptr;
    TimeNs clockOffset = 0; //!< added to its model's times to give the run's clock
    int rank = 0; //!< its rank number (`distributedInfo.rank`)
};

//! A rank's graph for a run's path: made from its trace, or read back from its database.
struct PathRankGraph {
    std::unique_ptr<PathGraph> graph; //!< null: the rank has no window (problem says why)
    std::string problem;
    TimeNs windowStart = 0; //!< its step's window, in its model's times
    TimeNs windowEnd = 0;
};

//! What keeps a rank without ProfilerStep#\a step off the path (RankOnPath::problem).
std::string missingStepProblem(int64_t step);

/*!
 * The step a run's path is of (CriticalPath::step): \a asked, else the first step of the first
 * rank that has steps; kNoValue when no rank has steps (each rank's whole trace is walked).
 * \a firstSteps: each rank's first ProfilerStep number, kNoValue for a rank without steps.
 */
int64_t runPathStep(int64_t asked, const std::vector<int64_t> &firstSteps);

//! Parses a what-if (WhatIfChange): "NAME:FACTOR" split at the last colon (op names hold "::");
//! nullopt if malformed, FACTOR not a number from 0 to 100, or R not a rank number.
std::optional<WhatIfChange> parseWhatIf(std::string_view spec);
//! "step" or "hta" (`--critical-path-model`); nullopt for anything else.
std::optional<PathModel> pathModelNamed(std::string_view name);
//! Why \a change names nothing of \a graphs (null: not at hand), ranks \a rankNumbers: "no
//! event named 'X'; close: …", "no rank 9"; empty when it does.
std::string whatIfProblem(const std::vector<const OpGraph *> &graphs,
    const std::vector<int> &rankNumbers,
    const WhatIfChange &change);
//! Whether some event of \a m is named \a name (a what-if of another name is an error).
bool traceHasEventNamed(const TraceModel &m, std::string_view name);
//! Up to 8 names of \a models' host ops and GPU events close to \a name, closest first.
std::vector<std::string> eventNamesCloseTo(
    const std::vector<const TraceModel *> &models, std::string_view name);

/*!
 * The critical path of one step (docs/critical-path.md) through CriticalGraph: the step model's
 * (StepModel), which accounts for the step's wall time, or HTA's lightweight critical path, the
 * longest path by weight, classified as HTA classifies it; told in pairs and sides. What-ifs
 * recompute the same model on the same graph with some GPU work scaled. Over a run, through the
 * ranks' graphs joined by their collectives (JoinedGraph), each rank in its own ProfilerStep#N.
 */
class CriticalPathAnalysis {
public:
    //! The path of \a query's step (the whole trace if it has none).
    explicit CriticalPathAnalysis(const OpGraph &graph, const PathQuery &query = {});
    /*!
     * The path of a run: \a match over the same ranks. No step asked: the first step of the
     * first rank with steps, then the step of that number on every rank.
     */
    CriticalPathAnalysis(const std::vector<PathRankInput> &ranks,
        const CollectiveMatch &match,
        const PathQuery &query = {});
    /*!
     * The path of a run through graphs made beforehand (a run from databases): \a graphs by rank
     * index as \a ranks (whose OpGraphs may be null), of ProfilerStep#\a step (kNoValue: whole
     * traces). What-ifs need the traces' OpGraphs: without them there are none.
     */
    CriticalPathAnalysis(const std::vector<PathRankInput> &ranks,
        std::vector<PathRankGraph> graphs,
        int64_t step,
        const CollectiveMatch &match,
        PathModel model = PathModel::Step);
    ~CriticalPathAnalysis();

    const CriticalPath &path() const { return m_path; }
    //! Rank \a rank's graph, null when it has no window.
    const PathGraph *graph(uint32_t rank) const { return m_graphs[rank].get(); }
    //! The path's length with the GPU work of \a name (GPU events named so, or launched inside
    //! an op named so: a pair's forward op) taking \a factor of its time; 0 without the traces.
    //! Factor 1, or a name whose work is not in the window: the path's length exactly.
    TimeNs lengthIf(std::string_view name, double factor) const;
    //! The path's length with \a change made, in the same model on the same graph; 0 without
    //! the traces. An empty change: the path's length exactly.
    TimeNs lengthWith(const PathChange &change) const;
    //! The same for a what-if as users write it.
    TimeNs lengthOf(const WhatIfChange &change) const;
    //! Why \a change names nothing of the traces ("no event named 'X' …", "no rank 9"); empty
    //! when it does.
    std::string whatIfProblem(const WhatIfChange &change) const;
    /*!
     * The \a count changes that shorten the path most: the GPU work of each outermost op with
     * GPU time on the path (a pair's forward op) at half its time, each collective on it at no
     * time, each recomputed and listed only if it shortens the path, best first. Empty without
     * the traces' OpGraphs.
     */
    std::vector<WhatIf> bestChanges(size_t count = 10) const;

    //! Whether every rank has its OpGraph (what-ifs walk its ops): not for a run from databases.
    bool tracesAtHand() const;

    //! The ranks, by rank index (the segments' PathSegment::rank).
    const std::vector<PathRankInput> &ranks() const { return m_ranks; }

private:
    void analyse(const CollectiveMatch *match, const PathQuery &query);
    void walk(std::vector<PathRankGraph> graphs,
        int64_t step,
        const CollectiveMatch *match,
        PathModel model);
    //! The segments of HTA's longest path, \a edges in order.
    std::vector<PathSegment> htaSegments(const std::vector<uint32_t> &edges);
    //! The segments of the step model's path.
    std::vector<PathSegment> stepSegments();
    //! Fills in the segments' pairs and sides, and the totals.
    void tell(std::vector<PathSegment> segments);
    void findSlack(const CollectiveMatch &match);
    std::vector<TimeNs> weightsWith(const PathChange &change) const;
    //! \a change (not Scale) as the replay takes it.
    PathChange pathChangeOf(const WhatIfChange &change) const;
    //! Per edge of the step model: whether \a change drops it (a wait it removes).
    std::vector<bool> droppedBy(const PathChange &change) const;

    std::vector<PathRankInput> m_ranks;
    std::vector<std::unique_ptr<PathGraph>> m_graphs; //!< by rank; null: no window
    std::unique_ptr<JoinedGraph> m_joined; //!< null when there is no path
    std::unique_ptr<StepModel> m_step; //!< with m_joined
    CriticalPath m_path;
};

} // namespace ks
