// SPDX-License-Identifier: MIT
#include "session/run.h"

#include "session/rankdatabase.h"

#include "analysis/findings/findings.h"

#include "base/jsonallocator.h"
#include "base/parallel.h"
#include "base/unitstext.h"
#include "base/usablecores.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <atomic>
#include <new>
#include <set>

namespace ks {

RankInfo rankInfo(const TraceModel &model)
{
    RankInfo info;
    auto it = model.metadata.find("distributedInfo");
    if (it == model.metadata.end())
        return info;
    JsonDocument doc;
    doc.Parse(it->second.data(), it->second.size());
    if (!doc.IsObject())
        return info;
    auto intMember = [&](const char *name, int &out) {
        if (doc.HasMember(name) && doc[name].IsInt() && doc[name].GetInt() >= 0)
            out = doc[name].GetInt();
    };
    intMember("rank", info.rank);
    intMember("world_size", info.worldSize);
    return info;
}

bool isTraceFileName(const std::string &name)
{
    auto endsWith = [&](std::string_view suffix) {
        return name.size() >= suffix.size()
            && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return endsWith(".json") || endsWith(".json.gz");
}

std::string traceIdOf(const TraceModel &model)
{
    const auto it = model.metadata.find("trace_id");
    return it == model.metadata.end() ? std::string() : it->second;
}

std::string unrelatedSpans(std::vector<RankSpan> spans)
{
    std::stable_sort(spans.begin(), spans.end(),
        [](const RankSpan &a, const RankSpan &b) { return a.start < b.start; });
    TimeNs reach = spans.empty() ? 0 : spans.front().end;
    size_t last = 0;
    for (size_t k = 1; k < spans.size(); ++k) {
        const RankSpan &a = spans[last], &b = spans[k];
        // Far apart but one job by its own word: still one run.
        if (b.start > reach && (a.traceId.empty() || a.traceId != b.traceId))
            return a.file + " and " + b.file + " do not overlap in time (the second starts "
                + spanText(double(b.start - reach)) + " after the first ends"
                + (a.traceId.empty() || b.traceId.empty() ? std::string()
                                                          : ", and their trace_ids differ")
                + "): they are traces of different jobs, not one run";
        if (b.end > reach) {
            reach = b.end;
            last = k;
        }
    }
    return {};
}

std::string rankCountText(size_t ranks, int worldSize)
{
    const std::string n = std::to_string(ranks);
    if (partialRun(ranks, worldSize))
        return n + " of " + std::to_string(worldSize) + " ranks (world_size "
            + std::to_string(worldSize) + ")";
    return n + (ranks == 1 ? " rank" : " ranks");
}

std::string partialRunWarning(size_t ranks, int worldSize)
{
    return "only " + rankCountText(ranks, worldSize)
        + ": collective skew and last arrivers cover these ranks only";
}

int Run::indexOfRank(int rank) const
{
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i].rank == rank)
            return int(i);
    }
    return -1;
}

std::string Run::rankCountText() const
{
    return ks::rankCountText(ranks.size(), worldSize);
}

std::vector<int> Run::rankNumbers() const
{
    std::vector<int> out;
    for (const RankTrace &r : ranks)
        out.push_back(r.rank);
    return out;
}

std::vector<RankSummary> Run::summaries() const
{
    std::vector<RankSummary> out;
    for (const auto &s : sources)
        out.push_back(s->summary);
    return out;
}

std::shared_ptr<const CriticalPathAnalysis> Run::criticalPath(
    const PathQuery &query, std::string *error) const
try {
    std::string failed;
    std::shared_ptr<const CriticalPathAnalysis> found;
    if (query.step != kNoValue || query.dataLoading || query.model != PathModel::Step
        || query.assumeStreamOrder) {
        found = findPath(query, failed);
    } else {
        std::call_once(
            m_criticalPathFound, [&] { m_criticalPath = findPath(query, m_criticalPathError); });
        found = m_criticalPath;
        failed = m_criticalPathError;
    }
    if (!found && error)
        *error = std::move(failed);
    return found;
} catch (const std::bad_alloc &) {
    if (error)
        *error = "not enough memory to find the critical path";
    return nullptr;
}

const std::vector<StepFinding> &Run::stepFindings() const
{
    std::call_once(m_findingsFound, [this] {
        if (const auto path = criticalPath())
            m_findings = findStepFindings(*path, {nullptr, nullptr, &collectives});
    });
    return m_findings;
}

std::shared_ptr<const CriticalPathAnalysis> Run::findPath(
    const PathQuery &query, std::string &error) const
try {
    std::vector<PathRankInput> inputs;
    for (const RankTrace &r : ranks)
        inputs.push_back({r.graph, r.clockOffset, r.rank});
    if (!fromDatabases())
        return std::make_shared<const CriticalPathAnalysis>(inputs, collectives, query);
    if (query.dataLoading || query.assumeStreamOrder) {
        error = kPathOptionsOfDigest;
        return nullptr;
    }
    std::vector<int64_t> firstSteps;
    for (const auto &s : sources)
        firstSteps.push_back(s->steps.empty() ? kNoValue : s->steps.front());
    const int64_t step = runPathStep(query.step, firstSteps);
    std::vector<PathRankGraph> graphs(ranks.size());
    std::vector<AlsoRead> read;
    {
        const std::lock_guard lock(m_alsoReadTaken); // the first path takes what was read
        read.swap(m_alsoRead);
    }
    if (!read.empty()) {
        for (size_t i = 0; i < graphs.size(); ++i) {
            if (!read[i].path) {
                error = read[i].pathError;
                return nullptr;
            }
            graphs[i] = pathOfStep(std::move(*read[i].path), *sources[i], step);
        }
    } else if (!readEach(graphs.size(), usableCores(), error, nullptr,
                   [&](size_t i, std::string &failed) {
                       return readPathGraph(*sources[i], step, graphs[i], failed);
                   })) {
        return nullptr;
    }
    return std::make_shared<const CriticalPathAnalysis>(
        inputs, std::move(graphs), step, collectives, query.model);
} catch (const std::bad_alloc &) {
    error = "not enough memory to find the critical path across " + std::to_string(ranks.size())
        + " ranks";
    return nullptr;
}

std::shared_ptr<const LoadedTrace> Run::rankTrace(size_t index, std::string &error) const
{
    const RankSource &rank = *sources[index];
    if (rank.trace)
        return rank.trace;
    if (rank.traceFile.empty()) {
        error = rank.database + ": it does not say which trace it was digested from";
        return nullptr;
    }
    OpenResult opened = openTrace(rank.traceFile);
    error = opened.error;
    return opened.trace;
}

CheckReport checkReport(const Run &run)
{
    CheckReport report;
    for (size_t i = 0; i < run.ranks.size(); ++i)
        report.add(run.sources[i]->findings, run.ranks[i].file, run.ranks[i].rank);
    for (const Finding &f : run.findings) {
        const RankTrace *rank = f.rankIndex >= 0 ? &run.ranks[size_t(f.rankIndex)] : nullptr;
        report.add({f}, rank ? rank->file : "", rank ? rank->rank : -1);
    }
    return report;
}

namespace {

//! Numbers \a ranks as their traces do, or by position when not every trace names a distinct
//! rank, and sorts them by number; what is amiss goes to \a run's warnings.
void numberRanks(std::vector<RankSource> &ranks, Run &run)
{
    std::set<int> claimed, worldSizes;
    bool byFile = false;
    for (const RankSource &r : ranks) {
        byFile = byFile || r.traceRank < 0 || !claimed.insert(r.traceRank).second;
        if (r.summary.worldSize > 0)
            worldSizes.insert(r.summary.worldSize);
    }
    if (byFile && ranks.size() > 1)
        run.warnings.emplace_back("not every trace names a distinct rank (distributedInfo.rank): "
                                  "the ranks are numbered by file order");
    if (worldSizes.size() > 1)
        run.warnings.emplace_back("the traces disagree on world_size: they may not be one run");
    run.worldSize = worldSizes.size() == 1 ? *worldSizes.begin() : 0;
    for (size_t i = 0; i < ranks.size(); ++i)
        ranks[i].summary.rank = byFile ? int(i) : ranks[i].traceRank;
    std::stable_sort(ranks.begin(), ranks.end(),
        [](const RankSource &a, const RankSource &b) { return a.summary.rank < b.summary.rank; });
}

/*!
 * Names each rank whose numbers are short of the others': its load lost data (its trace's
 * dataLoss()), or it ran no communication kernel where another rank ran some, so that every
 * collective lacks it.
 */
void nameShortRanks(Run &run)
{
    size_t most = 0, busiest = 0;
    for (size_t i = 0; i < run.sources.size(); ++i)
        if (run.sources[i]->kernels.size() > most)
            most = run.sources[i]->kernels.size(), busiest = i;
    for (size_t i = 0; i < run.sources.size(); ++i) {
        const RankSource &s = *run.sources[i];
        const std::string rank
            = "rank " + std::to_string(run.ranks[i].rank) + " (" + run.ranks[i].file + ")";
        if (!s.dataLost.empty())
            run.warnings.push_back(rank + ": data lost: " + s.dataLost);
        if (s.kernels.empty() && most > 0)
            run.warnings.push_back(rank + " ran no communication kernel where rank "
                + std::to_string(run.ranks[busiest].rank) + " ran " + std::to_string(most)
                + ": every collective lacks it");
    }
}

//! The run's checks (checkRun()) over its ranks.
std::vector<Finding> checkRanks(const Run &run)
{
    std::vector<RunRankFacts> facts;
    for (size_t i = 0; i < run.ranks.size(); ++i) {
        const RankSource &s = *run.sources[i];
        const RankTrace &r = run.ranks[i];
        facts.push_back({r.rank, r.worldSize, r.file, r.runTime(s.traceStart),
            r.runTime(s.traceEnd), &s.kernels});
    }
    return checkRun(facts);
}

//! Tells each rank's \a rows whether its GPU work is missing: its GPU times are then no times.
void markGpuUnknown(const Run &run, std::vector<RankPairRows> &rows)
{
    for (size_t rank = 0; rank < rows.size(); ++rank)
        rows[rank].gpuUnknown = run.sources[rank]->summary.gpuUnknown;
}

/*!
 * Matches the ranks' pair rows (matchRankPairs()): a database's as its open read them (\a read,
 * by rank), a trace's worked out side by side a batch at a time, each keyed in a pool of its
 * own, then in one pool in rank order (a batch bounds the pools held at once).
 */
bool matchPairs(Run &run,
    std::vector<AlsoRead> &read,
    unsigned threads,
    const std::atomic<bool> *cancel,
    std::string &error)
{
    std::vector<RankPairRows> rows(run.sources.size());
    if (run.fromDatabases()) {
        for (size_t rank = 0; rank < rows.size(); ++rank) {
            if (!read[rank].pairRows) {
                error = read[rank].pairsError;
                return false;
            }
            rows[rank] = std::move(*read[rank].pairRows);
        }
        run.firstPairRows = std::move(read.front().pairTexts);
        markGpuUnknown(run, rows);
        run.pairs = matchRankPairs(std::move(rows), threads, cancel);
        return true;
    }
    const size_t batch = 16 * size_t(std::max(1u, threads));
    StringPool keys;
    for (size_t begin = 0; begin < rows.size(); begin += batch) {
        const size_t count = std::min(batch, rows.size() - begin);
        std::vector<StringPool> own(count);
        parallelFor(count, threads, [&](size_t i) {
            const size_t rank = begin + i;
            if (!cancel || !cancel->load(std::memory_order_relaxed))
                rows[rank] = pairRowsOf(
                    *run.sources[rank]->trace, own[i], rank == 0 ? &run.firstPairRows : nullptr);
        });
        for (size_t i = 0; i < count; ++i)
            rekeyPairRows(rows[begin + i], own[i], keys);
    }
    markGpuUnknown(run, rows);
    run.pairs = matchRankPairs(std::move(rows), threads, cancel);
    return true;
}

} // namespace

std::shared_ptr<Run> assembleRun(
    std::vector<RankSource> ranks, std::vector<RunFailure> failures, const RunOptions &options)
{
    auto run = std::make_shared<Run>();
    run->failures = std::move(failures);
    numberRanks(ranks, *run);
    // The common zero: the earliest event of any rank on the absolute clock.
    for (size_t i = 0; i < ranks.size(); ++i)
        run->commonZero
            = i == 0 ? ranks[i].clockZero() : std::min(run->commonZero, ranks[i].clockZero());
    std::vector<RankSpan> spans;
    std::vector<RankComms> comms;
    std::vector<AlsoRead> read;
    for (RankSource &source : ranks) {
        read.push_back(std::move(source.alsoRead));
        RankTrace r;
        r.rank = source.summary.rank;
        r.worldSize = source.summary.worldSize;
        r.file = source.summary.file;
        r.graph = source.trace ? source.trace->graph.get() : nullptr;
        r.clockOffset = source.clockBase - run->commonZero;
        spans.push_back({source.path(), r.runTime(source.traceStart), r.runTime(source.traceEnd),
            source.traceId});
        comms.push_back({r.rank, r.clockOffset, source.kernels});
        run->ranks.push_back(std::move(r));
        run->sources.push_back(std::make_shared<const RankSource>(std::move(source)));
    }
    nameShortRanks(*run);
    run->unrelated = unrelatedSpans(std::move(spans));
    if (run->partial())
        run->warnings.push_back(partialRunWarning(run->ranks.size(), run->worldSize));
    run->collectives = matchCollectives(comms);
    for (const std::string &w : run->collectives.warnings)
        run->warnings.push_back(w);
    run->findings = checkRanks(*run);
    const unsigned threads = std::max(1u, options.parallel);
    if (options.pairs && !matchPairs(*run, read, threads, options.cancel, run->pairsProblem))
        run->warnings.push_back("no pairs across ranks: " + run->pairsProblem);
    if (run->fromDatabases() && (options.pathGraph || options.forWindow))
        run->m_alsoRead = std::move(read);
    return run;
}

std::shared_ptr<Run> assembleRun(std::vector<std::shared_ptr<const LoadedTrace>> traces,
    std::vector<RunFailure> failures,
    unsigned threads,
    const std::atomic<bool> *cancel)
{
    std::vector<RankSource> ranks;
    ranks.reserve(traces.size());
    for (auto &t : traces)
        ranks.push_back(rankSourceOf(std::move(t)));
    RunOptions options;
    options.parallel = threads;
    options.cancel = cancel;
    return assembleRun(std::move(ranks), std::move(failures), options);
}

} // namespace ks
