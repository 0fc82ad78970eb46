// SPDX-License-Identifier: MIT
// openRun(): the ranks of a run read from their traces or their databases, then assembled.
#include "session/run.h"

#include "base/heapreuse.h"
#include "base/parallel.h"
#include "base/usablecores.h"
#include "session/rankdatabase.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <new>
#include <optional>

namespace ks {

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

namespace {

//! What reading a run's ranks gave: each rank read, in the order of its file, and each failure.
struct RanksRead {
    std::vector<RankSource> ranks;
    std::vector<RunFailure> failures;
    std::vector<std::string> warnings; //!< files left out, said before the run's own
};

//! \a files' traces loaded side by side, largest first, each with what the run needs of it.
RanksRead loadTraces(const std::vector<std::string> &files, const RunOptions &options)
{
    // Each thread loads rank after rank: the next one reuses what the last one freed.
    const ScopedHeapReuse reuse;
    const size_t n = files.size();
    std::vector<OpenResult> results(n);
    std::vector<std::optional<RankSource>> ranks(n);
    std::atomic<size_t> done {0};
    const unsigned parallel = std::max(1u, std::min(options.parallel, unsigned(n)));
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
    parallelFor(n, parallel, [&](size_t k) {
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
                trace->modules(); // what its pair rows are matched by
                trace->efficiency(); // the per-rank rates of the pairs across ranks
                ranks[i] = rankSourceOf(trace, options.rankDetails);
                if (options.forWindow)
                    trace->prepareForWindow(WindowUse::Timeline);
            } catch (const std::bad_alloc &) {
                // As for linking: this rank fails, cleanly, and the others still open.
                ranks[i].reset();
                results[i] = outOfMemoryAfterLoad(*trace->model, "analyse");
            }
        }
        if (options.progress)
            options.progress(++done, n);
    });
    RanksRead read;
    for (size_t i = 0; i < n; ++i) {
        if (ranks[i])
            read.ranks.push_back(std::move(*ranks[i]));
        else
            read.failures.push_back(
                {files[i], results[i].error.empty() ? files[i] + ": cancelled" : results[i].error});
    }
    return read;
}

/*!
 * Keeps the pair texts of the ranks that may be numbered first (numberRanks()): the first read
 * in file order, and the one of the least `distributedInfo.rank` so far. Offered in file order.
 */
class FirstRankTexts {
public:
    void offer(RankSource &rank)
    {
        const bool least = rank.traceRank >= 0 && (!m_least || rank.traceRank < m_least->traceRank);
        if (!m_first)
            m_first = &rank;
        if (least) {
            if (m_least && m_least != m_first)
                drop(*m_least);
            m_least = &rank;
        }
        if (&rank != m_first && &rank != m_least)
            drop(rank);
    }

private:
    static void drop(RankSource &rank) { PairRowTexts().swap(rank.alsoRead.pairTexts); }

    RankSource *m_first = nullptr;
    RankSource *m_least = nullptr;
};

/*!
 * \a paths' databases read side by side (readRankDatabase()), each in one open, with the pair
 * rows and path graphs \a options asks for; gatherings are left out. Pair rows are keyed in a
 * pool per rank, then in one pool, a batch of ranks at a time: a batch bounds the pools held at
 * once.
 */
RanksRead readDatabases(const std::vector<std::string> &paths, const RunOptions &options)
{
    const size_t n = paths.size();
    std::vector<std::optional<RankSource>> ranks(n);
    std::vector<std::string> errors(n);
    std::vector<uint8_t> gathered(n, 0);
    std::atomic<size_t> done {0};
    const unsigned threads = std::max(1u, options.parallel);
    const size_t batch = options.pairs ? 16 * size_t(threads) : std::max<size_t>(n, 1);
    StringPool keys;
    FirstRankTexts texts;
    for (size_t begin = 0; begin < n; begin += batch) {
        const size_t count = std::min(batch, n - begin);
        std::vector<StringPool> own(options.pairs ? count : 0);
        parallelFor(count, threads, [&](size_t k) {
            const size_t i = begin + k;
            if (options.cancel && options.cancel->load())
                errors[i] = paths[i] + ": cancelled";
            else {
                bool gathering = false;
                const RankReading reading {options.rankDetails, options.pairs ? &own[k] : nullptr,
                    options.pairs, options.pathGraph || options.forWindow};
                ranks[i] = readRankDatabase(paths[i], gathering, errors[i], reading);
                gathered[i] = gathering;
            }
            if (options.progress)
                options.progress(++done, n);
        });
        for (size_t k = 0; k < own.size(); ++k) {
            if (std::optional<RankSource> &rank = ranks[begin + k]; rank) {
                if (rank->alsoRead.pairRows)
                    rekeyPairRows(*rank->alsoRead.pairRows, own[k], keys);
                texts.offer(*rank);
            }
        }
    }
    RanksRead read;
    for (size_t i = 0; i < n; ++i) {
        if (gathered[i])
            read.warnings.push_back(
                paths[i] + ": left out: it gathers ranks (tools/digest-run.sh)");
        else if (ranks[i])
            read.ranks.push_back(std::move(*ranks[i]));
        else
            read.failures.push_back({paths[i], errors[i]});
    }
    return read;
}

} // namespace

std::shared_ptr<Run> openRun(
    const std::vector<std::string> &args, const RunOptions &asked, std::string &error)
{
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::string> files;
    bool databases = false;
    std::shared_ptr<Run> run;
    try {
        RunOptions options = asked;
        options.parallel = options.parallel ? options.parallel : usableCores();
        databases = runDatabases(args, files);
        if (!databases && !runFiles(args, files, error))
            return nullptr;
        RanksRead read = databases ? readDatabases(files, options) : loadTraces(files, options);
        if (read.ranks.empty()) {
            error = read.failures.empty() ? databases && !read.warnings.empty()
                    ? "no database of a rank: " + read.warnings.front()
                    : "no trace files given"
                                          : read.failures.front().error;
            for (size_t i = 1; i < read.failures.size(); ++i)
                error += "\n" + read.failures[i].error;
            return nullptr;
        }
        run = assembleRun(std::move(read.ranks), std::move(read.failures), options);
        run->warnings.insert(run->warnings.begin(), read.warnings.begin(), read.warnings.end());
        if (options.forWindow)
            run->criticalPath(); // the window's Critical path page: worked out here, not there
    } catch (const std::bad_alloc &) {
        error = "not enough memory to open a run of " + std::to_string(files.size())
            + (databases ? " databases" : " files");
        return nullptr;
    }
    run->seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return run;
}

} // namespace ks
