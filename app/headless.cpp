// SPDX-License-Identifier: MIT
#include "headless.h"

#include "base/outofmemory.h"
#include "base/usablecores.h"
#include "export/allocationtable.h"
#include "export/criticalpathtables.h"
#include "export/difftable.h"
#include "export/efficiencytable.h"
#include "export/kernelsummarytable.h"
#include "export/livetable.h"
#include "export/moduletable.h"
#include "export/pairtable.h"
#include "export/runtables.h"
#include "export/steptable.h"
#include "export/summary.h"
#include "session/comparedtraces.h"
#include "session/loadedtrace.h"
#include "session/run.h"
#include "session/rundatabase.h"

#include <QCryptographicHash>
#include <QFile>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
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
    if (const std::string lost = truncationLoss(*r.trace->graph); !lost.empty())
        std::fprintf(stderr, "kinetoscope: warning: %s: %s\n", file.c_str(), lost.c_str());
    return r.trace;
}

int runSummary(
    const std::string &file, const PathQuery &path, const std::optional<WhatIfChange> &whatIf)
{
    auto trace = loadOrReport(file);
    if (!trace)
        return ExitLoadFailed;
    if (whatIf && !traceHasEventNamed(*trace->model, whatIf->name)) {
        std::string close;
        for (const std::string &name : eventNamesCloseTo({trace->model.get()}, whatIf->name))
            close += (close.empty() ? "; close: " : ", ") + name;
        std::fprintf(stderr, "kinetoscope: --what-if: no event named '%s' in %s%s\n",
            whatIf->name.c_str(), file.c_str(), close.c_str());
        return ExitUsage;
    }
    const std::string json
        = summaryJson(*trace->model, *trace->graph, trace->seconds, path, whatIf);
    std::fwrite(json.data(), 1, json.size(), stdout);
    return std::fflush(stdout) == 0 ? ExitOk : ExitWriteFailed;
}

int runExport(const std::string &out, const std::string &file, bool kernels)
{
    auto trace = loadOrReport(file);
    if (!trace)
        return ExitLoadFailed;
    std::string error;
    const PairTable pairs(*trace->graph);
    const KernelTable kernelTable(*trace->graph);
    const Table &table = kernels ? static_cast<const Table &>(kernelTable) : pairs;
    if (!exportTable(table, out, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return ExitWriteFailed;
    }
    return ExitOk;
}

int runExportMemory(const std::string &out, const std::string &file)
{
    auto trace = loadOrReport(file);
    if (!trace)
        return ExitLoadFailed;
    const MemoryIndex memory(*trace->graph);
    if (memory.allocations().empty())
        std::fprintf(stderr, "%s: no [memory] allocations (record with profile_memory=True)\n",
            file.c_str());
    const AllocationTable table(memory);
    std::string error;
    if (!exportTable(table, out, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return ExitWriteFailed;
    }
    return ExitOk;
}

int runExportLive(const std::string &out, const std::string &file, bool atPeak, double atUs)
{
    auto trace = loadOrReport(file);
    if (!trace)
        return ExitLoadFailed;
    const LiveMemory live(trace->memory());
    if (!live.known()) {
        std::fprintf(stderr,
            "%s: its [memory] events have no Addr (PyTorch 1.9): no free can be matched, so what "
            "is alive cannot be told\n",
            file.c_str());
        return ExitLoadFailed;
    }
    std::vector<LiveBlock> blocks;
    if (!atPeak) {
        blocks = live.at(TimeNs(std::llround(atUs * 1000)));
    } else if (const auto device = live.peakDevice()) {
        // Just after the event that reached the peak: others in its µs may follow it.
        const int64_t e = live.peakEvent(*device, trace->model->minTime, trace->model->maxTime);
        std::fprintf(stderr, "peak of %s at %s us\n",
            memoryDeviceName(device->first, device->second).c_str(),
            microsText(trace->model->memory.time[size_t(e)]).c_str());
        blocks = live.afterEvent(e);
    } else {
        std::fprintf(
            stderr, "%s: no Total Allocated in its [memory] events: no peak\n", file.c_str());
        return ExitLoadFailed;
    }
    const LiveTable table(live, std::move(blocks));
    std::string error;
    if (!exportTable(table, out, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return ExitWriteFailed;
    }
    return ExitOk;
}

int runExportModules(const std::string &out, const std::string &file, bool perStep)
{
    auto trace = loadOrReport(file);
    if (!trace)
        return ExitLoadFailed;
    // Say where the hierarchy came from: modules, annotations or bare op names.
    std::fprintf(stderr, "%s\n",
        std::string(ModuleTree::sourceDescription(trace->modules().source())).c_str());
    const ModuleTable table(trace->modules(),
        perStep ? ModuleTable::Rows::EachStep : ModuleTable::Rows::WholeTrace, trace->pairMemory(),
        trace->efficiency());
    std::string error;
    if (!exportTable(table, out, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return ExitWriteFailed;
    }
    return ExitOk;
}

int runExportKernelSummary(const std::string &out, const std::string &file)
{
    auto trace = loadOrReport(file);
    if (!trace)
        return ExitLoadFailed;
    std::string error;
    if (!exportTable(kernelSummaryTable(kernelSummary(*trace->graph), *trace->model), out, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return ExitWriteFailed;
    }
    return ExitOk;
}

//! Says on stderr which peaks each device is held against, or how to add an unknown one.
namespace {

void reportPeaks(const OpEfficiency &efficiency, const std::string &file)
{
    if (efficiency.devices().empty())
        std::fprintf(stderr,
            "%s: no deviceProperties: roofline columns left empty (the GPU is unknown)\n",
            file.c_str());
    std::set<std::string> said; // eight GPUs of one kind: one line
    for (const OpEfficiency::Device &d : efficiency.devices()) {
        if (!said.insert(d.trace.name).second)
            continue;
        if (d.peaks)
            std::fprintf(stderr, "device %lld %s: peaks from %s\n", (long long)d.trace.id,
                d.trace.name.c_str(), d.peaks->source.c_str());
        else
            std::fprintf(stderr,
                "device %lld %s is not in the peak table: roofline columns left empty; add it "
                "with --peaks FILE.json (TraceLens gpu_arch layout, docs/efficiency.md)\n",
                (long long)d.trace.id, d.trace.name.c_str());
    }
}

} // namespace

int runExportEfficiency(const std::string &out, const std::string &file)
{
    auto trace = loadOrReport(file);
    if (!trace)
        return ExitLoadFailed;
    const OpEfficiency &efficiency = trace->efficiency();
    if (efficiency.instances().empty())
        std::fprintf(stderr,
            "%s: no modelled op with recorded shapes (profile with record_shapes=True)\n",
            file.c_str());
    reportPeaks(efficiency, file);
    std::string error;
    if (!exportTable(EfficiencyTable(*trace->graph, efficiency), out, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return ExitWriteFailed;
    }
    return ExitOk;
}

int runExportSteps(const std::string &out, const std::string &file)
{
    auto trace = loadOrReport(file);
    if (!trace)
        return ExitLoadFailed;
    if (trace->graph->steps().empty())
        std::fprintf(stderr,
            "%s: no ProfilerStep#N ranges (torch.profiler records one per "
            "prof.step())\n",
            file.c_str());
    std::string error;
    if (!exportTable(stepTable(stepBreakdown(*trace->graph)), out, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return ExitWriteFailed;
    }
    return ExitOk;
}

std::shared_ptr<const Run> openRunOrReport(
    const std::vector<std::string> &args, const RunOptions &options)
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
    for (const std::string &w : run->warnings)
        std::fprintf(stderr, "kinetoscope: warning: %s\n", w.c_str());
    return run;
}

namespace {

//! The hex SHA-256 of \a file, read in 1 MiB pieces; empty when it cannot be read.
std::string fileSha256(const std::string &file)
{
    QFile in(QString::fromStdString(file));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!in.open(QIODevice::ReadOnly) || !hash.addData(&in))
        return {};
    return hash.result().toHex().toStdString();
}

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
        if (what == RunExport::Database) {
            std::fprintf(stderr, "kinetoscope: --export-db reads traces, not databases\n");
            return ExitUsage;
        }
        if (path.dataLoading || path.assumeStreamOrder) {
            std::fprintf(stderr, "kinetoscope: %s\n", std::string(kPathOptionsOfDigest).c_str());
            return ExitUsage;
        }
    }
    RunOptions options;
    options.pairs = what == RunExport::RankPairs || what == RunExport::Database;
    options.rankDetails = what == RunExport::Database; // its findings and step_gpu_time
    options.pathGraph = what == RunExport::CriticalPath; // read in the databases' one open
    const auto run = openRunOrReport(args, options);
    if (!run)
        return ExitLoadFailed;
    std::string error;
    bool written = false;
    if (what == RunExport::Database) {
        FileHashes hashes(*run);
        written = writeRunDatabase(
            *run, out, path, [&hashes](const std::string &file) { return hashes.of(file); }, error);
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
