// SPDX-License-Identifier: MIT
#include "reportcommand.h"

#include "document/reportwriter.h"
#include "headless.h"
#include "report/reportcontent.h"

#include <QFileInfo>

#include <cstdio>

namespace ks {

namespace {

int write(const ReportContent &content,
    const std::shared_ptr<const LoadedTrace> &timeline,
    const ReportRequest &request)
{
    QString error;
    if (!writeReport(content, timeline, QString::fromStdString(request.out),
            request.letter ? QPageSize::Letter : QPageSize::A4, error)) {
        std::fprintf(stderr, "kinetoscope: %s\n", qPrintable(error));
        return ExitWriteFailed;
    }
    return ExitOk;
}

} // namespace

int runReport(const ReportRequest &request)
{
    if (!request.compareBase.empty()) {
        auto base = loadOrReport(request.compareBase);
        auto candidate = base ? loadOrReport(request.files.front()) : nullptr;
        if (!candidate)
            return ExitLoadFailed;
        std::string error;
        auto compared = ComparedTraces::make(base, candidate, request.diffOptions, error);
        if (!compared) {
            std::fprintf(stderr, "kinetoscope: %s\n", error.c_str());
            return ExitUsage;
        }
        return write(comparisonReport(*compared), compared->candidate, request);
    }
    const bool oneTrace = request.files.size() == 1
        && !QFileInfo(QString::fromStdString(request.files.front())).isDir();
    if (oneTrace) {
        auto trace = loadOrReport(request.files.front());
        return trace ? write(traceReport(*trace), trace, request) : ExitLoadFailed;
    }
    RunOptions options;
    options.pairs = false;
    options.rankDetails = false;
    options.pathGraph = true; // its critical path part
    const auto run = openRunOrReport(request.files, options);
    if (!run)
        return ExitLoadFailed;
    std::string whyNoTrace;
    const auto first = run->rankTrace(0, whyNoTrace);
    const int written = write(runReport(*run, first.get(), whyNoTrace), first, request);
    return written != ExitOk ? written : runExitCode(*run);
}

} // namespace ks
