// SPDX-License-Identifier: MIT
#include "session/loadedrun.h"

#include "base/heapreuse.h"
#include "base/jsonallocator.h"
#include "base/parallel.h"
#include "base/usablecores.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
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

int LoadedRun::indexOfRank(int rank) const
{
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i].rank == rank)
            return int(i);
    }
    return -1;
}

bool runFiles(
    const std::vector<std::string> &args, std::vector<std::string> &files, std::string &error)
{
    namespace fs = std::filesystem;
    for (const std::string &arg : args) {
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            std::vector<std::string> inside;
            for (const auto &entry : fs::directory_iterator(arg, ec)) {
                if (entry.is_regular_file(ec) && isTraceFileName(entry.path().filename().string()))
                    inside.push_back(entry.path().string());
            }
            if (inside.empty()) {
                error = arg + ": the folder holds no trace files (*.json, *.json.gz)";
                return false;
            }
            std::sort(inside.begin(), inside.end());
            files.insert(files.end(), inside.begin(), inside.end());
        } else if (fs::exists(arg, ec)) {
            files.push_back(arg);
        } else {
            error = arg + ": no such file or folder";
            return false;
        }
    }
    return true;
}

std::string traceIdOf(const TraceModel &model)
{
    const auto it = model.metadata.find("trace_id");
    return it == model.metadata.end() ? std::string() : it->second;
}

namespace {

//! LoadedRun::unrelated of \a run (ranks sorted): the first gap between ranks' time spans.
std::string unrelatedTraces(const LoadedRun &run)
{
    std::vector<RankSpan> spans;
    for (size_t i = 0; i < run.ranks.size(); ++i) {
        const TraceModel &m = *run.traces[i]->model;
        spans.push_back({m.path, run.ranks[i].runTime(m.minTime), run.ranks[i].runTime(m.maxTime),
            traceIdOf(m)});
    }
    return unrelatedSpans(std::move(spans));
}

} // namespace

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
                + std::to_string((b.start - reach) / 1000000) + " ms after the first ends"
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

std::string LoadedRun::rankCountText() const
{
    return ks::rankCountText(ranks.size(), worldSize);
}

std::shared_ptr<LoadedRun> assembleRun(std::vector<std::shared_ptr<const LoadedTrace>> traces,
    std::vector<RunFailure> failures,
    unsigned threads,
    const std::atomic<bool> *cancel)
{
    auto run = std::make_shared<LoadedRun>();
    run->failures = std::move(failures);
    std::vector<RankInfo> infos;
    std::set<int> claimed;
    bool numberedByFile = false;
    for (const auto &t : traces) {
        infos.push_back(rankInfo(*t->model));
        numberedByFile
            = numberedByFile || infos.back().rank < 0 || !claimed.insert(infos.back().rank).second;
    }
    if (numberedByFile && traces.size() > 1)
        run->warnings.emplace_back("not every trace names a distinct rank (distributedInfo.rank): "
                                   "the ranks are numbered by file order");
    std::set<int> worldSizes;
    for (size_t i = 0; i < traces.size(); ++i) {
        const TraceModel &m = *traces[i]->model;
        RankTrace r;
        r.rank = numberedByFile ? int(i) : infos[i].rank;
        r.worldSize = infos[i].worldSize;
        r.file = m.path;
        r.graph = traces[i]->graph.get();
        r.modules = &traces[i]->modules();
        r.gpuTime = traces[i]->gpuTime();
        r.efficiency = &traces[i]->efficiency();
        r.memory = allocatorPeaks(m.memory);
        if (r.worldSize > 0)
            worldSizes.insert(r.worldSize);
        run->ranks.push_back(r);
    }
    if (worldSizes.size() > 1)
        run->warnings.emplace_back("the traces disagree on world_size: they may not be one run");
    run->worldSize = worldSizes.size() == 1 ? *worldSizes.begin() : 0;

    // The common zero: the earliest event of any rank on the absolute clock.
    bool first = true;
    for (const auto &t : traces) {
        const TimeNs start = t->model->baseTimeNs + t->model->minTime;
        run->commonZero = first ? start : std::min(run->commonZero, start);
        first = false;
    }
    for (size_t i = 0; i < traces.size(); ++i)
        run->ranks[i].clockOffset = traces[i]->model->baseTimeNs - run->commonZero;

    std::vector<size_t> order(traces.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
        [&](size_t a, size_t b) { return run->ranks[a].rank < run->ranks[b].rank; });
    RankTraces sorted;
    for (size_t i : order) {
        sorted.push_back(run->ranks[i]);
        run->traces.push_back(traces[i]);
    }
    run->ranks = std::move(sorted);
    run->unrelated = unrelatedTraces(*run);
    if (run->partial())
        run->warnings.push_back(partialRunWarning(run->ranks.size(), run->worldSize));

    run->collectives = matchCollectives(run->ranks);
    for (const std::string &w : run->collectives.warnings)
        run->warnings.push_back(w);
    run->pairs = matchRankPairs(run->ranks, threads, cancel);
    run->findings = checkRun(run->ranks);
    return run;
}

std::shared_ptr<LoadedRun> openRun(
    const std::vector<std::string> &files, const RunOptions &options, std::string &error)
{
    const auto started = std::chrono::steady_clock::now();
    // Each thread loads rank after rank: the next one reuses what the last one freed.
    const ScopedHeapReuse reuse;
    const size_t n = files.size();
    std::vector<OpenResult> results(n);
    std::atomic<size_t> done {0};
    unsigned parallel = options.parallel ? options.parallel : usableCores();
    parallel = std::max(1u, std::min(parallel, unsigned(n)));
    // Largest first, so that no big rank is left loading alone at the end.
    std::vector<size_t> order(n);
    std::vector<uintmax_t> sizes(n, 0);
    for (size_t i = 0; i < n; ++i) {
        order[i] = i;
        std::error_code ec;
        sizes[i] = std::filesystem::file_size(files[i], ec);
    }
    std::stable_sort(
        order.begin(), order.end(), [&](size_t a, size_t b) { return sizes[a] > sizes[b]; });
    const auto loadRank = [&](size_t k) {
        const size_t i = order[k];
        if (options.cancel && options.cancel->load())
            return;
        LoadOptions load;
        load.cancel = options.cancel;
        // One core per rank when ranks load side by side: a second thread would only wait.
        load.builderThread = parallel == 1;
        load.readerThread = parallel == 1;
        load.threads = parallel == 1 ? 0 : 1;
        results[i] = openTrace(files[i], load);
        // What the run's tables need of each rank, worked out here, side by side.
        if (const auto trace = results[i].trace) {
            try {
                trace->modules();
                trace->gpuTime();
                trace->efficiency(); // the per-rank rates of the pairs across ranks
                if (options.forWindow)
                    trace->prepareForWindow(WindowUse::Timeline);
            } catch (const std::bad_alloc &) {
                // As for linking: this rank fails, cleanly, and the others still open.
                results[i] = outOfMemoryAfterLoad(*trace->model, "analyse");
            }
        }
        const size_t finished = ++done;
        if (options.progress)
            options.progress(finished, n);
    };
    try {
        parallelFor(n, parallel, loadRank);
    } catch (const std::bad_alloc &) {
        // Each rank's own failures are caught in it; this is memory for the run's bookkeeping.
        error = "not enough memory to open this run";
        return nullptr;
    }

    std::vector<std::shared_ptr<const LoadedTrace>> traces;
    std::vector<RunFailure> failures;
    for (size_t i = 0; i < n; ++i) {
        if (results[i].trace)
            traces.push_back(std::move(results[i].trace));
        else
            failures.push_back(
                {files[i], results[i].error.empty() ? files[i] + ": cancelled" : results[i].error});
    }
    if (traces.empty()) {
        error = failures.empty() ? "no trace files given" : failures.front().error;
        for (size_t i = 1; i < failures.size(); ++i)
            error += "\n" + failures[i].error;
        return nullptr;
    }
    std::shared_ptr<LoadedRun> run;
    try {
        run = assembleRun(std::move(traces), std::move(failures), parallel, options.cancel);
        if (options.forWindow)
            run->criticalPath(); // the window's Critical path page: worked out here, not there
    } catch (const std::bad_alloc &) {
        error = "not enough memory to match the ranks of this run";
        return nullptr;
    }
    run->seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return run;
}

std::shared_ptr<const CriticalPathAnalysis> LoadedRun::criticalPath(const PathQuery &query) const
{
    auto find = [&] {
        std::vector<PathRankInput> inputs;
        for (const RankTrace &r : ranks)
            inputs.push_back({r.graph, r.clockOffset, r.rank});
        return std::make_shared<const CriticalPathAnalysis>(inputs, collectives, query);
    };
    if (query.step != kNoValue || query.dataLoading || query.model != PathModel::Step
        || query.assumeStreamOrder)
        return find();
    std::call_once(m_criticalPathFound, [&] { m_criticalPath = find(); });
    return m_criticalPath;
}

} // namespace ks
