// SPDX-License-Identifier: MIT
#include "checkcommand.h"

#include "base/outofmemory.h"
#include "exitcode.h"
#include "export/checkreport.h"
#include "headless.h"
#include "session/run.h"

#include <cstdio>

namespace ks {

int runCheck(const CheckRequest &request)
{
    std::vector<std::string> files;
    std::string error;
    const bool databases = runDatabases(request.args, files);
    if (!databases && !runFiles(request.args, files, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return ExitLoadFailed;
    }
    CheckReport report;
    int failed = ExitOk; // a rank that could not be read
    if (files.size() == 1 && !databases) {
        const auto trace = loadOrReport(files.front());
        if (!trace)
            return ExitLoadFailed;
        report.add(trace->findings(), files.front());
    } else {
        RunOptions options;
        options.pairs = false;
        const auto run = openRun(files, options, error);
        if (!run) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return saysOutOfMemory(error) ? ExitWriteFailed : ExitLoadFailed;
        }
        for (const RunFailure &f : run->failures)
            std::fprintf(stderr, "%s\n", f.error.c_str());
        failed = runExitCode(*run);
        report = checkReport(*run);
    }
    const std::string json = report.json();
    std::fwrite(json.data(), 1, json.size(), stdout);
    if (std::fflush(stdout) != 0)
        return ExitWriteFailed;
    return failed != ExitOk ? failed : report.hasWarnings() ? ExitCheckWarnings : ExitOk;
}

} // namespace ks
