// SPDX-License-Identifier: MIT
// The tables one trace exports: `--export-NAME OUT FILE` and the window's Export ▸ Tables.
#pragma once

#include "session/loadedtrace.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

enum class TraceExportKind : uint8_t {
    Pairs,
    Kernels,
    Modules,
    Memory,
    Steps,
    KernelSummary,
    Live,
    Efficiency,
    ApiSummary,
    OpSummary,
};

//! A table of one trace, named once: the option, its usage line and the window's menu entry.
struct TraceExport {
    TraceExportKind kind;
    std::string_view option; //!< `--export-NAME`, without the dashes
    std::string_view title; //!< the window's Export ▸ Tables entry
    std::string_view help; //!< the usage line
};

/*!
 * Every table of one trace, in the order the usage message lists them: the command-line parser
 * registers an option for each, and the window's Export ▸ Tables menu an entry that writes the
 * same file; a new table is added here.
 */
inline constexpr std::array<TraceExport, 10> kTraceExports {{
    {TraceExportKind::Pairs, "export-pairs", "Op Pairs",
        "Write the op-pair table of FILE to OUT (CSV; JSON when OUT ends in .json) and exit."},
    {TraceExportKind::Kernels, "export-kernels", "GPU Events",
        "Write one row per GPU event of FILE, with its launching op and pair, to OUT and exit."},
    {TraceExportKind::Modules, "export-modules", "Module Tree",
        "Write the module tree of FILE, one row per module path, to OUT and exit."},
    {TraceExportKind::Memory, "export-memory", "Memory Allocations",
        "Write one row per memory allocation of FILE (device, size, lifetime, op, pair) to OUT "
        "and exit."},
    {TraceExportKind::Steps, "export-steps", "Steps",
        "Write one row per ProfilerStep of FILE (CPU window, GPU span, busy, idle and what the "
        "busy time was spent on) to OUT and exit."},
    {TraceExportKind::KernelSummary, "export-kernel-summary", "Kernel Summary",
        "Write one row per kernel name of FILE (count, total, mean, min, max, % of kernel time, "
        "the ops that launched it) to OUT and exit."},
    {TraceExportKind::Live, "export-live", "Memory Alive at the Peak",
        "Write every memory block of FILE alive at --at-us T or --at peak (category, op, module, "
        "pair, step, Python stack), largest first, to OUT and exit."},
    {TraceExportKind::Efficiency, "export-efficiency", "Op Efficiency",
        "Write one row per instance of a modelled op of FILE (FLOPs, bytes, kernel time, "
        "achieved TFLOP/s and TB/s, roofline, bound) to OUT and exit."},
    {TraceExportKind::ApiSummary, "export-api-summary", "Runtime API Summary",
        "Write one row per runtime or driver call name of FILE (count, total, mean, median, min, "
        "max, % of API time, GPU events launched) to OUT and exit."},
    {TraceExportKind::OpSummary, "export-op-summary", "Operator Summary",
        "Write one row per host op name of FILE, or per name and input dims with "
        "--by-input-dims (calls, host and device total and self time, the backward calls' "
        "share) to OUT and exit."},
}};

// Each entry sits at its own kind: tables of them are indexed by TraceExportKind.
static_assert(std::ranges::all_of(
    kTraceExports, [](const TraceExport &e) { return &e == &kTraceExports[size_t(e.kind)]; }));

//! What a table takes besides its trace.
struct TraceExportOptions {
    bool perStep = false; //!< the module tree: one row per module and step
    bool byInputDims = false; //!< the operator summary: one row per name and input dims
    std::optional<double> atUs; //!< the blocks alive: at this µs of the file's clock, else the peak
};

//! How writing a table went.
struct TraceExportOutcome {
    //! What a reader should know: why the table is empty, where the roofline's peaks came from.
    std::vector<std::string> notes;
    std::string error; //!< set: nothing was written
    bool traceLacks = false; //!< with error: the trace cannot give this table (else, the write)
};

/*!
 * Writes \a kind of \a trace to \a out (CSV, or JSON when it ends in .json; `-`: stdout) as the
 * command line's `--export-NAME` does. Throws std::bad_alloc when memory runs out.
 */
TraceExportOutcome writeTraceExport(TraceExportKind kind,
    const LoadedTrace &trace,
    const std::string &out,
    const TraceExportOptions &options = {});

} // namespace ks
