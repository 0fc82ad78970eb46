// SPDX-License-Identifier: MIT
#pragma once

#include "checkcommand.h"
#include "headless.h"
#include "reportcommand.h"
#include "screenshotcommand.h"

#include <QStringList>
#include <optional>

#include <variant>

namespace ks {

//! The arguments do not make a command: the message, then the usage text, on stderr.
struct UsageError {
    QString message;
    QString help;
};
//! `--help` or `--version`: text for stdout.
struct PrintText {
    QString text;
};
//! `--summary FILE [--critical-path-step N] [--data-loading REGEX] [--what-if NAME:FACTOR]`.
struct SummaryRequest {
    std::string file;
    PathQuery path; //!< --critical-path-step, --data-loading
    std::optional<WhatIfChange> whatIf;
};
//! `--findings OUT FILE…|DIR`: what to fix first in the step `--critical-path-step` names, of
//! one trace or of a run.
struct FindingsRequest {
    std::string out;
    std::vector<std::string> args;
    PathQuery path;
};
//! `--export-NAME OUT FILE` of one trace's tables (kTraceExports), with `--per-step` and
//! `--at-us T | --at peak`.
struct TableExportRequest {
    TraceExportKind what = TraceExportKind::Pairs;
    std::string out, file;
    TraceExportOptions options;
};
//! `--export-ranks`, `--export-collectives`, `--export-rank-pairs`, `--export-critical-path`.
struct RunExportRequest {
    RunExport what = RunExport::Ranks;
    std::string out;
    std::vector<std::string> args; //!< the run's files and folders
    PathQuery path; //!< --export-critical-path: --critical-path-step, --data-loading
};
//! The window: on files, the demo, a comparison or a run.
struct WindowRequest {
    QStringList files;
    bool demo = false;
    bool run = false; //!< --run: files (and folders) are one run
    bool compare = false; //!< --compare: files.first() against compareBase
    QString compareBase;
    DiffOptions diffOptions;
};

using Request = std::variant<UsageError,
    FindingsRequest,
    PrintText,
    SummaryRequest,
    TableExportRequest,
    RunExportRequest,
    CheckRequest,
    CompareRequest,
    ReportRequest,
    ScreenshotRequest,
    WindowRequest>;

//! A command line as parsed: what to do, `--threads N` (0 when not given) and `--peaks FILE`.
struct Command {
    Request request;
    unsigned threads = 0;
    std::string peaks;
};

//! Parses \a arguments (argv, program name first) as docs/cli.md describes; no side effects.
Command parseCommand(const QStringList &arguments);

} // namespace ks
