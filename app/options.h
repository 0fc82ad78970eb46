// SPDX-License-Identifier: MIT
// The command line's options, named once (docs/cli.md).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

namespace ks {

//! An option of the command line, but the tables of one trace (kTraceExports) and `--help`,
//! `--version`.
enum class Opt : uint8_t {
    Demo,
    Summary,
    Findings,
    CriticalPathStep,
    DataLoading,
    CriticalPathModel,
    AssumeStreamOrder,
    WhatIf,
    Peaks,
    AtUs,
    At,
    PerStep,
    ByInputDims,
    Screenshot,
    View,
    Chart,
    Select,
    Range,
    Size,
    Compare,
    ExportDiff,
    DiffBy,
    Step,
    BaseStep,
    CandidateStep,
    MeanSteps,
    Run,
    ExportRanks,
    ExportCollectives,
    ExportRankPairs,
    ExportCriticalPath,
    ExportDb,
    ExportParquet,
    Report,
    Page,
    Check,
    Threads,
    Count
};

//! One option as the parser registers it and the usage message shows it.
struct OptionSpec {
    Opt id;
    std::string_view name; //!< without the dashes
    std::string_view value; //!< its value's name in the usage; empty: a flag
    //! The usage line; `{views}` and `{charts}` stand for the names of kViewNames, kChartNames.
    std::string_view help;
    bool mode = false; //!< writes something and exits: at most one per command
    std::string_view defaultValue = {};
};

/*!
 * Every option, in the usage message's order (the tables of one trace, kTraceExports, follow
 * `--summary`): the parser registers these, its "choose one of" message lists the modes, and
 * tst_cli holds docs/cli.md's synopsis to the usage message made from them. A new option is
 * added here.
 */
inline constexpr std::array<OptionSpec, size_t(Opt::Count)> kOptions {{
    {Opt::Demo, "demo", {}, "Open the window on the bundled demo trace."},
    {Opt::Summary, "summary", "FILE", "Print a JSON summary of FILE to stdout and exit.", true},
    {Opt::Findings, "findings", "OUT.json",
        "Write what to fix first in the step of FILE, or of a run's FILEs or DIR (of traces), "
        "ranked by the time each finding would save on its critical path (JSON; - for stdout), "
        "and exit.",
        true},
    {Opt::CriticalPathStep, "critical-path-step", "N",
        "With --summary or --export-critical-path: the critical path of ProfilerStep#N "
        "(default: the first step); with --export-db: the step whose path graph it stores."},
    {Opt::DataLoading, "data-loading", "REGEX",
        "With --summary, --export-critical-path or --export-db: host events whose names REGEX "
        "finds are data loading (HTA's data_load_events): their own time on the path is "
        "data_loading."},
    {Opt::CriticalPathModel, "critical-path-model", "MODEL",
        "With --summary or --export-critical-path: step (default), a path that accounts for every "
        "microsecond of the step, idle time and late starts included; or hta, HTA's lightweight "
        "critical path, where idle time weighs nothing."},
    {Opt::AssumeStreamOrder, "assume-stream-order", {},
        "With --summary, --export-critical-path or --export-db: each GPU event also waits for "
        "the work launched before it on another stream of its device (for traces that record "
        "no cross-stream waits, such as ROCm's)."},
    {Opt::WhatIf, "what-if", "CHANGE",
        "With --summary: the critical path's length with CHANGE made: NAME:FACTOR (NAME's GPU "
        "work, pairs whose forward op is NAME or GPU events named NAME, at FACTOR of its time), "
        "'no wait: NAME', 'no time: NAME', 'no launch: NAME', 'no recompute' or "
        "'on time: rank R' (docs/critical-path.md)."},
    {Opt::Peaks, "peaks", "FILE.json",
        "Add or replace GPU peaks (TFLOP/s per compute spec, memory bandwidth) from FILE.json, "
        "in TraceLens's gpu_arch layout, for the roofline columns."},
    {Opt::AtUs, "at-us", "T",
        "With --export-live: the time, microseconds on the trace file's clock."},
    {Opt::At, "at", "peak", "With --export-live: peak, the highest allocated memory."},
    {Opt::PerStep, "per-step", {}, "With --export-modules: one row per module and ProfilerStep."},
    {Opt::ByInputDims, "by-input-dims", {},
        "With --export-op-summary: one row per op name and input dims."},
    {Opt::Screenshot, "screenshot", "OUT",
        "Render a view of FILE (or of a --compare, or of a run) to OUT (.png or .svg) without a "
        "window, and exit.",
        true},
    {Opt::View, "view", "VIEW", "View for --screenshot: {views} (default window)."},
    {Opt::Chart, "chart", "CHART", "With --screenshot --view chart: {charts} (default the first)."},
    {Opt::Select, "select", "NAME[#K]",
        "Select the K-th (0-based, in time order) forward op named NAME first."},
    {Opt::Range, "range", "START_US:END_US",
        "Visible time range, microseconds from the start of the trace."},
    {Opt::Size, "size", "WIDTHxHEIGHT", "Image size in pixels (default 1600x900)."},
    {Opt::Compare, "compare", "BASE",
        "Compare FILE (the candidate) against BASE pair by pair: with --export-diff, --report or "
        "--screenshot, or in the window."},
    {Opt::ExportDiff, "export-diff", "OUT",
        "With --compare: write the comparison to OUT (CSV; JSON when OUT ends in .json) and exit.",
        true},
    {Opt::DiffBy, "diff-by", "ROWS",
        "With --export-diff: pairs (default), ops, modules or module-types.", false, "pairs"},
    {Opt::Step, "step", "N", "With --compare: compare ProfilerStep#N of both traces."},
    {Opt::BaseStep, "base-step", "N", "With --compare: the base trace's step."},
    {Opt::CandidateStep, "candidate-step", "N", "With --compare: the candidate's step."},
    {Opt::MeanSteps, "mean-steps", {}, "With --compare: compare the mean over all steps."},
    {Opt::Run, "run", {},
        "Open the FILEs (or the trace files in a folder) as one run of several ranks."},
    {Opt::ExportRanks, "export-ranks", "OUT",
        "Write one row per rank of the run FILE...|DIR (GPU time breakdown, pairs) to OUT.", true},
    {Opt::ExportCollectives, "export-collectives", "OUT",
        "Write the collectives of the run FILE...|DIR matched across ranks (skew, last rank) to "
        "OUT.",
        true},
    {Opt::ExportRankPairs, "export-rank-pairs", "OUT",
        "Write the op pairs of the run FILE...|DIR matched across ranks (GPU time per rank) to "
        "OUT.",
        true},
    {Opt::ExportCriticalPath, "export-critical-path", "OUT",
        "Write the critical path of FILE, or across the ranks of a run FILE...|DIR, one row per "
        "segment in path order, to OUT.",
        true},
    {Opt::ExportDb, "export-db", "OUT.sqlite",
        "Write every table of FILE, or of each rank of a run FILE...|DIR and the run's own, to "
        "one SQLite database OUT.sqlite.",
        true},
    {Opt::ExportParquet, "export-parquet", "DIR",
        "Write every table of FILE, or of each rank of a run FILE...|DIR, as Parquet files under "
        "DIR/TABLE/rank=R/ (one rank per process scales past one machine).",
        true},
    {Opt::Report, "report", "OUT",
        "Write a one-file report of FILE, of a run (several FILEs or a folder) or of a --compare "
        "to OUT (.pdf, else self-contained .html) and exit.",
        true},
    {Opt::Page, "page", "SIZE", "With --report: the PDF's page size, a4 (default) or letter."},
    {Opt::Check, "check", {},
        "Check FILE, or a run (several FILEs or a folder), for what makes its numbers "
        "untrustworthy; print the findings as JSON; exit 4 when one is a warning.",
        true},
    {Opt::Threads, "threads", "N",
        "Parse a trace with N threads side by side (gzip from N = 3 on, as it is inflated), and "
        "inflate a gzip trace's members side by side (default: the usable cores, docs/cli.md; 1 "
        "reads it in one piece). The result is the same whatever N."},
}};

// Each entry sits at its own id: the parser indexes the table by Opt.
static_assert(std::ranges::all_of(
    kOptions, [](const OptionSpec &o) { return &o == &kOptions[size_t(o.id)]; }));

//! The run exports, in RunExport's order.
inline constexpr std::array<Opt, 6> kRunExports {Opt::ExportRanks, Opt::ExportCollectives,
    Opt::ExportRankPairs, Opt::ExportCriticalPath, Opt::ExportDb, Opt::ExportParquet};

} // namespace ks
