// SPDX-License-Identifier: MIT
#include "headless.h"

#include "analysis/health/dataloss.h"
#include "base/outofmemory.h"
#include "base/sha256.h"
#include "base/usablecores.h"
#include "export/atomicfile.h"
#include "export/criticalpathtables.h"
#include "export/difftable.h"
#include "export/findingsjson.h"
#include "export/runtables.h"
#include "export/summary.h"
#include "session/comparedtraces.h"
#include "session/loadedtrace.h"
#include "session/run.h"
#include "session/rundatabase.h"
#include "session/runparquet.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace ks {

std::shared_ptr<const LoadedTrace> loadOrReport(const std::string &file)
{
    OpenResult r = openTrace(file);
    if (!r.trace) {
        std::fprintf(stderr, "%s\n", r.error.c_str());
        if (saysOutOfMemory(r.error))
            throw std::bad_alloc(); // exit 3, as wherever memory runs out (run() in main.cpp)
        return nullptr;
    }
    if (const std::string lost = dataLoss(*r.trace->graph); !lost.empty())
        std::fprintf(
            stderr, "kinetoscope: warning: %s: data lost: %s\n", file.c_str(), lost.c_str());
    return r.trace;
}

int runSummary(
    const std::string &file, const PathQuery &path, const std::optional<WhatIfChange> &whatIf)
{
    auto trace = loadOrReport(file);
    if (!trace)
        return ExitLoadFailed;
    const std::string problem
        = whatIf ? whatIfProblem({trace->graph.get()}, {0}, *whatIf) : std::string();
    if (!problem.empty()) {
        std::fprintf(stderr, "kinetoscope: --what-if: %s in %s\n", problem.c_str(), file.c_str());
        return ExitUsage;
    }
    const std::string json
        = summaryJson(*trace->model, *trace->graph, trace->seconds, path, whatIf);
    std::fwrite(json.data(), 1, json.size(), stdout);
    return std::fflush(stdout) == 0 ? ExitOk : ExitWriteFailed;
}

int runTraceExport(TraceExportKind kind,
    const std::string &out,
    const std::string &file,
    const TraceExportOptions &options)
{
    auto trace = loadOrReport(file);
    if (!trace)
        return ExitLoadFailed;
    const TraceExportOutcome outcome = writeTraceExport(kind, *trace, out, options);
    for (const std::string &note : outcome.notes)
        std::fprintf(stderr, "%s\n", note.c_str());
    if (!outcome.error.empty())
        std::fprintf(stderr, "%s\n", outcome.error.c_str());
    return outcome.error.empty() ? ExitOk : outcome.traceLacks ? ExitLoadFailed : ExitWriteFailed;
}

std::shared_ptr<const Run> openRunOrReport(
    const std::vector<std::string> &args, const RunOptions &options, bool oneTraceIsNoRun)
{
    std::string error;
    auto run = openRun(args, options, error);
    if (!run) {
        std::fprintf(stderr, "%s\n", error.c_str());
        if (saysOutOfMemory(error))
            throw std::bad_alloc(); // exit 3 (run() in main.cpp)
        return nullptr;
    }
    if (!run->unrelated.empty()) {
        std::fprintf(stderr, "kinetoscope: %s\n", run->unrelated.c_str());
        return nullptr;
    }
    for (const RunFailure &f : run->failures)
        std::fprintf(stderr, "%s\n", f.error.c_str());
    std::error_code ec;
    const bool oneTrace
        = oneTraceIsNoRun && args.size() == 1 && !std::filesystem::is_directory(args[0], ec);
    for (const std::string &w : run->warnings)
        if (!oneTrace || w != partialRunWarning(run->ranks.size(), run->worldSize))
            std::fprintf(stderr, "kinetoscope: warning: %s\n", w.c_str());
    return run;
}

namespace {

/*!
 * The SHA-256 of each of a run's files, worked out one after the other on a thread of its own
 * while `--export-db` builds the tables (at 100 MB the hash is a third of the time, in software).
 */
class FileHashes {
public:
    explicit FileHashes(const Run &run)
        : m_hashes(run.ranks.size())
    {
        for (const RankTrace &r : run.ranks)
            m_files.push_back(r.file);
        try {
            m_thread = std::thread([this] { hashAll(); });
        } catch (const std::system_error &) {
            hashAll(); // no thread to be had: here and now
        }
    }
    ~FileHashes()
    {
        m_stop = true; // the files not yet hashed are not waited for
        if (m_thread.joinable())
            m_thread.join();
    }
    FileHashes(const FileHashes &) = delete;
    FileHashes &operator=(const FileHashes &) = delete;

    //! The hex digest of \a file, once hashed; empty when it could not be read.
    std::string of(const std::string &file)
    {
        const auto at = size_t(std::find(m_files.begin(), m_files.end(), file) - m_files.begin());
        std::unique_lock lock(m_mutex);
        m_hashed.wait(lock, [&] { return m_done > at || m_done == m_files.size(); });
        return at < m_hashes.size() ? m_hashes[at] : std::string();
    }

private:
    void hashAll()
    {
        for (size_t i = 0; i < m_files.size() && !m_stop; ++i) {
            std::string hash;
            try {
                hash = fileSha256(m_files[i]);
            } catch (const std::bad_alloc &) {
                // empty, as for a file that cannot be read
            }
            const std::lock_guard lock(m_mutex);
            m_hashes[i] = std::move(hash);
            ++m_done;
            m_hashed.notify_all();
        }
    }

    std::vector<std::string> m_files;
    std::vector<std::string> m_hashes;
    size_t m_done = 0; //!< files hashed, in order
    std::atomic<bool> m_stop = false;
    std::mutex m_mutex;
    std::condition_variable m_hashed;
    std::thread m_thread;
};

//! What keeps the path, or a rank, off it, said on stderr; \a ranks: the ranks' numbers.
void warnPathProblems(const CriticalPath &path, const std::vector<int> &ranks)
{
    if (!path.problem.empty())
        std::fprintf(stderr, "kinetoscope: warning: no critical path: %s\n", path.problem.c_str());
    else
        for (size_t r = 0; r < path.ranks.size(); ++r)
            if (!path.ranks[r].problem.empty())
                std::fprintf(stderr, "kinetoscope: warning: rank %d is not on the path: %s\n",
                    ranks[r], path.ranks[r].problem.c_str());
}

/*!
 * \a what of \a run; null with the reason on stderr when it cannot be made (a database's pairs
 * or path graph cannot be read). What keeps a rank (or all) off the path is said on stderr.
 */
std::optional<CellTable> runTable(const Run &run, RunExport what, const PathQuery &path)
{
    switch (what) {
    case RunExport::Ranks:
        return rankTable(run.summaries());
    case RunExport::Collectives:
        return collectiveTable(run.rankNumbers(), run.collectives);
    case RunExport::RankPairs:
        if (!run.pairsProblem.empty())
            return std::nullopt; // said with the run's warnings
        return rankPairTable(run.rankNumbers(), run.firstPairRows, run.pairs);
    default:
        break;
    }
    std::string error;
    const auto analysis = run.criticalPath(path, &error);
    if (!analysis) {
        std::fprintf(stderr, "kinetoscope: %s\n", error.c_str());
        return std::nullopt;
    }
    warnPathProblems(analysis->path(), run.rankNumbers());
    return criticalSegmentTable(*analysis);
}

} // namespace

int runRunExport(RunExport what,
    const std::string &out,
    const std::vector<std::string> &args,
    const PathQuery &path)
{
    if (std::vector<std::string> databases; runDatabases(args, databases)) {
        if (what == RunExport::Database || what == RunExport::Parquet) {
            std::fprintf(stderr, "kinetoscope: --export-%s reads traces, not databases\n",
                what == RunExport::Database ? "db" : "parquet");
            return ExitUsage;
        }
        if (path.dataLoading || path.assumeStreamOrder) {
            std::fprintf(stderr, "kinetoscope: %s\n", std::string(kPathOptionsOfDigest).c_str());
            return ExitUsage;
        }
    }
    RunOptions options;
    const bool everyTable = what == RunExport::Database || what == RunExport::Parquet;
    options.pairs = what == RunExport::RankPairs || what == RunExport::Database;
    options.rankDetails = everyTable; // its findings and step_gpu_time
    options.pathGraph = what == RunExport::CriticalPath; // read in the databases' one open
    // One trace's critical path is no run short of ranks: its world_size is not news there.
    const auto run = openRunOrReport(args, options, what == RunExport::CriticalPath);
    if (!run)
        return ExitLoadFailed;
    std::string error;
    bool written = false;
    if (everyTable) {
        FileHashes hashes(*run);
        const auto hash = [&hashes](const std::string &file) { return hashes.of(file); };
        written = what == RunExport::Database ? writeRunDatabase(*run, out, path, hash, error)
                                              : writeRunParquet(*run, out, path, hash, error);
    } else if (const auto table = runTable(*run, what, path)) {
        written = exportTable(*table, out, error);
    } else {
        return ExitLoadFailed;
    }
    if (!written) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return ExitWriteFailed;
    }
    return runExitCode(*run);
}

namespace {

//! \a text to \a out, a file written atomically or stdout ("-").
int writeOut(const std::string &out, const std::string &text)
{
    if (out == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return std::fflush(stdout) == 0 ? ExitOk : ExitWriteFailed;
    }
    AtomicFile written(out);
    if (written.open()) {
        written.write(text);
        if (written.commit())
            return ExitOk;
    }
    std::fprintf(stderr, "kinetoscope: %s\n", written.error().c_str());
    return ExitWriteFailed;
}

} // namespace

int runFindings(const std::string &out, const std::vector<std::string> &args, const PathQuery &path)
{
    std::error_code ec;
    std::vector<std::string> databases;
    if (args.size() == 1 && !std::filesystem::is_directory(args[0], ec)
        && !runDatabases(args, databases)) {
        auto trace = loadOrReport(args[0]);
        if (!trace)
            return ExitLoadFailed;
        const CriticalPathAnalysis analysis(*trace->graph, path);
        return writeOut(out,
            findingsDocument(
                analysis, findStepFindings(analysis, {&trace->efficiency(), &trace->memory()})));
    }
    if (runDatabases(args, databases)) {
        std::fprintf(stderr,
            "kinetoscope: --findings replays the path's changes on the ranks' traces, not on "
            "databases: give the traces\n");
        return ExitUsage;
    }
    const auto run = openRunOrReport(args, {}, true);
    if (!run)
        return ExitLoadFailed;
    std::string error;
    const auto analysis = run->criticalPath(path, &error);
    if (!analysis) {
        std::fprintf(stderr, "kinetoscope: %s\n", error.c_str());
        return ExitLoadFailed;
    }
    warnPathProblems(analysis->path(), run->rankNumbers());
    const int written = writeOut(out,
        findingsDocument(
            *analysis, findStepFindings(*analysis, {nullptr, nullptr, &run->collectives})));
    return written != ExitOk ? written : runExitCode(*run);
}

int runExitCode(const Run &run)
{
    for (const RunFailure &f : run.failures)
        if (saysOutOfMemory(f.error))
            return ExitWriteFailed;
    return run.failures.empty() ? ExitOk : ExitLoadFailed;
}

int runCompareExport(const CompareRequest &request)
{
    auto base = loadOrReport(request.base);
    if (!base)
        return ExitLoadFailed;
    auto candidate = loadOrReport(request.candidate);
    if (!candidate)
        return ExitLoadFailed;
    std::string error;
    auto compared = ComparedTraces::make(base, candidate, request.options, error);
    if (!compared) {
        std::fprintf(stderr, "kinetoscope: %s\n", error.c_str());
        return ExitUsage;
    }
    std::unique_ptr<Table> table;
    if (request.diffBy == "pairs")
        table = std::make_unique<DiffTable>(*compared->diff);
    else
        table = std::make_unique<DiffGroupTable>(*compared->diff,
            request.diffBy == "ops"           ? DiffGrouping::Op
                : request.diffBy == "modules" ? DiffGrouping::Module
                                              : DiffGrouping::ModuleType);
    if (!exportTable(*table, request.out, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return ExitWriteFailed;
    }
    return ExitOk;
}

} // namespace ks
