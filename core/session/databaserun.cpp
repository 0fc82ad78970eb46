// SPDX-License-Identifier: MIT
#include "session/databaserun.h"

#include "export/criticalpathtables.h"

#include "base/parallel.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <new>
#include <set>

namespace ks {

namespace {

/*!
 * Calls \a read(i, error) for each i in [0, \a n) on up to \a threads threads (SQLite's
 * connections are each their own, so databases read side by side); false with the error of the
 * lowest i that failed, what reading them in order would have said. Nothing past a failure is
 * read, and nothing once \a cancel is set ("cancelled").
 */
bool readEach(size_t n,
    unsigned threads,
    std::string &error,
    const std::atomic<bool> *cancel,
    const std::function<bool(size_t, std::string &)> &read)
{
    std::vector<std::string> errors(n);
    std::atomic<size_t> firstFailure {n};
    parallelFor(n, threads, [&](size_t i) {
        if (i > firstFailure.load())
            return;
        if (cancel && cancel->load(std::memory_order_relaxed))
            errors[i] = "cancelled";
        else if (read(i, errors[i]))
            return;
        for (size_t seen = firstFailure.load(); i < seen;)
            firstFailure.compare_exchange_weak(seen, i);
    });
    if (firstFailure.load() == n)
        return true;
    error = std::move(errors[firstFailure.load()]);
    return false;
}

} // namespace

bool readRankPairs(
    DatabaseRun &run, unsigned threads, std::string &error, const std::atomic<bool> *cancel)
try {
    // Read side by side a batch at a time, each rank keyed in a pool of its own, then keyed in
    // the run's pool in rank and row order: the ids of reading them one by one. A batch bounds
    // the pools held at once.
    const size_t batch = 16 * size_t(std::max(1u, threads));
    StringPool keys;
    std::vector<RankPairRows> rows(run.ranks.size());
    PairRowTexts first;
    for (size_t begin = 0; begin < rows.size(); begin += batch) {
        const size_t count = std::min(batch, rows.size() - begin);
        std::vector<StringPool> own(count);
        if (!readEach(count, threads, error, cancel, [&](size_t i, std::string &failed) {
                const size_t rank = begin + i;
                return readPairRows(
                    run.ranks[rank].path, own[i], rows[rank], rank == 0 ? &first : nullptr, failed);
            }))
            return false;
        for (size_t i = 0; i < count; ++i) {
            RankPairRows &r = rows[begin + i];
            for (size_t row = 0; row < r.size(); ++row) {
                r.key[row] = keys.intern(own[i].view(r.key[row]));
                r.opKey[row] = keys.intern(own[i].view(r.opKey[row]));
            }
        }
    }
    run.pairs = matchRankPairs(std::move(rows), threads, cancel);
    run.pairTable = std::make_shared<CellTable>(rankPairTable(run.rankNumbers(), first, run.pairs));
    return true;
} catch (const std::bad_alloc &) {
    error
        = "not enough memory to match the pairs of " + std::to_string(run.ranks.size()) + " ranks";
    return false;
}

std::optional<DatabaseRunPath> readRankPaths(const DatabaseRun &run,
    int64_t step,
    unsigned threads,
    std::string &error,
    const std::atomic<bool> *cancel,
    PathModel model)
try {
    std::vector<int64_t> firstSteps;
    std::vector<PathRankInput> inputs;
    for (const RankDatabase &r : run.ranks) {
        firstSteps.push_back(r.steps.empty() ? kNoValue : r.steps.front());
        inputs.push_back({nullptr, r.clockOffset, r.rank});
    }
    step = runPathStep(step, firstSteps);
    std::vector<PathRankGraph> graphs(run.ranks.size());
    if (!readEach(graphs.size(), threads, error, cancel, [&](size_t i, std::string &failed) {
            return readPathGraph(run.ranks[i], step, graphs[i], failed);
        }))
        return std::nullopt;
    auto analysis = std::make_shared<const CriticalPathAnalysis>(
        inputs, std::move(graphs), step, run.collectives, model);
    auto table = std::make_shared<const CellTable>(criticalSegmentTable(*analysis));
    return DatabaseRunPath {std::move(analysis), std::move(table)};
} catch (const std::bad_alloc &) {
    error = "not enough memory to find the critical path across " + std::to_string(run.ranks.size())
        + " ranks";
    return std::nullopt;
}

bool runDatabases(const std::vector<std::string> &args, std::vector<std::string> &databases)
{
    std::vector<std::string> found; // handed over only when every argument is databases
    namespace fs = std::filesystem;
    auto isDatabase = [](const fs::path &p) { return p.extension() == ".sqlite"; };
    for (const std::string &arg : args) {
        std::error_code ec;
        if (!fs::is_directory(arg, ec)) {
            if (!isDatabase(arg))
                return false;
            found.push_back(arg);
            continue;
        }
        std::vector<std::string> inside;
        for (const auto &entry : fs::directory_iterator(arg, ec)) {
            if (!entry.is_regular_file(ec))
                continue;
            if (isTraceFileName(entry.path().filename().string()))
                return false;
            if (isDatabase(entry.path()))
                inside.push_back(entry.path().string());
        }
        if (inside.empty())
            return false;
        std::sort(inside.begin(), inside.end());
        found.insert(found.end(), inside.begin(), inside.end());
    }
    if (found.empty())
        return false;
    databases.insert(databases.end(), found.begin(), found.end());
    return true;
}

std::vector<RankSummary> DatabaseRun::summaries() const
{
    std::vector<RankSummary> out;
    for (const RankDatabase &r : ranks)
        out.push_back(r.summary);
    return out;
}

std::vector<int> DatabaseRun::rankNumbers() const
{
    std::vector<int> out;
    for (const RankDatabase &r : ranks)
        out.push_back(r.rank);
    return out;
}

DatabaseRun openDatabaseRun(const std::vector<std::string> &paths, unsigned threads)
try {
    std::vector<std::optional<RankDatabase>> read(paths.size());
    std::vector<std::string> errors(paths.size());
    parallelFor(
        paths.size(), threads, [&](size_t i) { read[i] = readRankDatabase(paths[i], errors[i]); });
    DatabaseRun run;
    for (size_t i = 0; i < paths.size(); ++i) {
        if (read[i] && read[i]->gathered)
            run.warnings.push_back(paths[i] + ": left out: it gathers ranks (tools/digest-run.sh)");
        else if (read[i])
            run.ranks.push_back(std::move(*read[i]));
        else
            run.failures.push_back({paths[i], errors[i]});
    }
    // Numbered as openRun numbers traces: by file order unless each names a distinct rank.
    std::set<int> claimed, worldSizes;
    bool byFile = false;
    for (const RankDatabase &r : run.ranks) {
        byFile = byFile || r.traceRank < 0 || !claimed.insert(r.traceRank).second;
        if (r.worldSize > 0)
            worldSizes.insert(r.worldSize);
    }
    if (byFile && run.ranks.size() > 1)
        run.warnings.emplace_back("not every trace names a distinct rank (distributedInfo.rank): "
                                  "the ranks are numbered by file order");
    if (worldSizes.size() > 1)
        run.warnings.emplace_back("the traces disagree on world_size: they may not be one run");
    else if (worldSizes.size() == 1 && partialRun(run.ranks.size(), *worldSizes.begin()))
        run.warnings.push_back(partialRunWarning(run.ranks.size(), *worldSizes.begin()));
    for (size_t i = 0; i < run.ranks.size(); ++i)
        run.ranks[i].rank = run.ranks[i].summary.rank = byFile ? int(i) : run.ranks[i].traceRank;
    std::stable_sort(run.ranks.begin(), run.ranks.end(),
        [](const RankDatabase &a, const RankDatabase &b) { return a.rank < b.rank; });

    // The common zero: the earliest of the ranks' own zeros.
    TimeNs zero = 0;
    for (size_t i = 0; i < run.ranks.size(); ++i)
        zero = i == 0 ? run.ranks[i].clockZero : std::min(zero, run.ranks[i].clockZero);
    std::vector<RankComms> comms;
    std::vector<RankSpan> spans;
    for (RankDatabase &r : run.ranks) {
        r.clockOffset = r.clockBase - zero;
        comms.push_back({r.rank, r.clockOffset, r.kernels});
        if (r.traceStart != kNoValue && r.traceEnd != kNoValue)
            spans.push_back(
                {r.path, r.traceStart + r.clockOffset, r.traceEnd + r.clockOffset, r.traceId});
    }
    if (spans.size() == run.ranks.size())
        run.unrelated = unrelatedSpans(std::move(spans));
    run.collectives = matchCollectives(comms);
    for (const std::string &w : run.collectives.warnings)
        run.warnings.push_back(w);
    return run;
} catch (const std::bad_alloc &) {
    DatabaseRun none; // no rank, one failure: what a run none of whose ranks opened says
    none.failures.push_back({std::string(),
        "not enough memory to open a run of " + std::to_string(paths.size()) + " databases"});
    return none;
}

} // namespace ks
