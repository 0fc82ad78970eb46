// SPDX-License-Identifier: MIT
#include "headless.h"

#include "loadedtrace.h"
#include "pairtable.h"
#include "summary.h"

#include <cstdio>

namespace ks {

namespace {
std::shared_ptr<const LoadedTrace> loadOrReport(const std::string &file)
{
    OpenResult r = openTrace(file);
    if (!r.trace)
        std::fprintf(stderr, "%s\n", r.error.c_str());
    return r.trace;
}
} // namespace

int runSummary(const std::string &file)
{
    auto trace = loadOrReport(file);
    if (!trace)
        return ExitLoadFailed;
    const std::string json = summaryJson(*trace->model, *trace->graph, trace->seconds);
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

} // namespace ks
