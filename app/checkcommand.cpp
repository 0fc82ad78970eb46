// SPDX-License-Identifier: MIT
#include "checkcommand.h"

#include "exitcode.h"
#include "export/checkreport.h"
#include "headless.h"
#include "session/loadedrun.h"

#include <cstdio>

namespace ks {

namespace {

//! The run's findings go with the rank they name, if any.
void addRun(CheckReport &report, const LoadedRun &run)
{
    for (const Finding &f : run.findings) {
        const bool ofRank = f.rankIndex >= 0;
        const RankTrace *rank = ofRank ? &run.ranks[size_t(f.rankIndex)] : nullptr;
        report.add({f}, ofRank ? &rank->graph->model() : nullptr, ofRank ? rank->file : "",
            ofRank ? rank->rank : -1);
    }
}

} // namespace

int runCheck(const CheckRequest &request)
{
    std::vector<std::string> files;
    std::string error;
    if (!runFiles(request.args, files, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return ExitLoadFailed;
    }
    CheckReport report;
    bool failed = false;
    if (files.size() == 1) {
        const auto trace = loadOrReport(files.front());
        if (!trace)
            return ExitLoadFailed;
        report.add(trace->findings(), trace->model.get(), files.front());
    } else {
        const auto run = openRun(files, {}, error);
        if (!run) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return ExitLoadFailed;
        }
        for (const RunFailure &f : run->failures)
            std::fprintf(stderr, "%s\n", f.error.c_str());
        failed = !run->failures.empty();
        for (size_t i = 0; i < run->ranks.size(); ++i)
            report.add(run->traces[i]->findings(), run->traces[i]->model.get(), run->ranks[i].file,
                run->ranks[i].rank);
        addRun(report, *run);
    }
    const std::string json = report.json();
    std::fwrite(json.data(), 1, json.size(), stdout);
    if (std::fflush(stdout) != 0)
        return ExitWriteFailed;
    return failed ? ExitLoadFailed : report.hasWarnings() ? ExitCheckWarnings : ExitOk;
}

} // namespace ks
