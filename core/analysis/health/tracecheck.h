// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/ranks/collectives.h"
#include "base/diagnostics.h"
#include "link/opgraph.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

/*!
 * What `--check` and the Health panel look for: what makes a trace's numbers untrustworthy.
 * PyTorch's own rules (torch/profiler/_trace_validator.py, derived from production issues) are
 * the checklist; each entry names the rule it follows.
 */
enum class Check : uint8_t {
    DataLost,
    LoadWarnings,
    KernelBeforeLaunch,
    KernelsOverlapOnStream,
    GpuEventWithoutLaunch,
    GpuEventLaunchedBeforeWindow,
    LaunchWithoutGpuEvent,
    LaunchAfterWindow,
    NoGpuEventSurvivedCut,
    StreamWaitWithoutRecord,
    StreamSyncWhileKernelRuns,
    CollectiveWithoutMetadata,
    BackwardSequenceShared,
    OutsideProfilingWindow,
    FlowWithoutEnd,
    ZeroDurationGpuEvent,
    DuplicateEvents,
    // A run of several ranks
    MissingRanks,
    CollectiveCountsDiffer,
    ClocksDoNotOverlap,
    Count
};

struct CheckInfo {
    Check id;
    std::string_view name; //!< the finding's key in `--check`
    std::string_view explanation; //!< one line for a person
    std::string_view source; //!< the rule it follows, where one exists
};

//! Where PyTorch's rules are, as CheckInfo::source names them.
inline constexpr std::string_view kValidatorFile
    = "torch/profiler/_trace_validator.py (pytorch 5d2ed2f8)";

//! In enumerator order. Sources: PyTorch's validator, torch/profiler/_trace_validator.py at
//! pytorch/pytorch 5d2ed2f8, by rule function.
inline constexpr std::array<CheckInfo, size_t(Check::Count)> kChecks = {{
    {Check::DataLost, "data_lost",
        "the file was read only in part (a syntax error, a cut, corrupt gzip data): what followed "
        "is missing from every number",
        ""},
    {Check::LoadWarnings, "load_warnings",
        "the loader or linker skipped, cut or repaired something in the file (see the diagnostics)",
        ""},
    {Check::KernelBeforeLaunch, "kernel_before_launch",
        "a GPU event starts before the runtime call that launched it: the GPU and CPU clocks "
        "disagree, so GPU-behind-CPU times are wrong",
        "check_gpu_kernel_causality"},
    {Check::KernelsOverlapOnStream, "kernels_overlap_on_stream",
        "GPU events of one stream overlap in time, which a stream cannot run: timestamps are off "
        "(kept and drawn, stacked)",
        ""},
    {Check::GpuEventWithoutLaunch, "gpu_event_without_launch",
        "a GPU event without a launch after launched work on its stream (a stream runs in launch "
        "order): a record was lost, its time belongs to no op",
        ""},
    {Check::GpuEventLaunchedBeforeWindow, "gpu_event_launched_before_window",
        "a GPU event without a launch before any launched work on its stream: launched before "
        "profiling began, its time belongs to no op",
        ""},
    {Check::LaunchWithoutGpuEvent, "launch_without_gpu_event",
        "a kernel launch, memcpy or memset call with no GPU event although later GPU events were "
        "recorded: a GPU record was lost (a warning), or a zero-byte copy or set ran nothing",
        ""},
    {Check::LaunchAfterWindow, "launch_after_window",
        "a launch whose GPU work ran after the profiler stopped recording the GPU", ""},
    {Check::NoGpuEventSurvivedCut, "no_gpu_event_survived_cut",
        "the file is cut off before its GPU events (the profiler writes them after the host's): "
        "no GPU time is known, and GPU columns are empty rather than 0",
        ""},
    {Check::StreamWaitWithoutRecord, "stream_wait_without_record",
        "a Stream Wait Event or Event Sync whose wait_on_cuda_event_record_corr_id is missing or "
        "names no earlier cudaEventRecord: what it waited for cannot be shown",
        "check_stream_wait_corr_id_populated, check_stream_wait_corr_id_in_past"},
    {Check::StreamSyncWhileKernelRuns, "stream_sync_while_kernel_runs",
        "a Stream Sync starts while a kernel of its stream still runs",
        "check_stream_sync_overlap"},
    {Check::CollectiveWithoutMetadata, "collective_without_metadata",
        "an NCCL/RCCL kernel without `Collective name`: its collective can be matched across ranks "
        "by order only",
        "check_nccl_metadata"},
    {Check::BackwardSequenceShared, "backward_sequence_shared",
        "one Sequence number names more than one kind of backward node: forward/backward pairing "
        "by number is ambiguous there",
        "check_backward_seq_id_uniqueness"},
    {Check::OutsideProfilingWindow, "outside_profiling_window",
        "events that start before or end after the profiler's Trace span: cut by the window's "
        "edges",
        ""},
    {Check::FlowWithoutEnd, "flow_without_end",
        "a flow start without an end (launches whose GPU work is outside the window)", ""},
    {Check::ZeroDurationGpuEvent, "zero_duration_gpu_event",
        "a GPU event of zero duration: its timing was not recorded", ""},
    {Check::DuplicateEvents, "duplicate_events",
        "an event written twice (same name, category, thread, ts, dur, correlation and External "
        "id): every sum counts it twice",
        ""},
    {Check::MissingRanks, "missing_ranks",
        "the run holds fewer ranks than its world_size: skew and last arrivers cover these ranks "
        "only",
        ""},
    {Check::CollectiveCountsDiffer, "collective_counts_differ",
        "ranks of one process group ran different numbers of collectives: records were lost or "
        "the traces cover different windows",
        ""},
    {Check::ClocksDoNotOverlap, "clocks_do_not_overlap",
        "a rank's time span overlaps no other rank's on the run clock: not the same window, or its "
        "clock is off",
        ""},
}};

constexpr const CheckInfo &info(Check c)
{
    return kChecks[size_t(c)];
}

//! The check of CheckInfo::name \a name; nullopt for none.
std::optional<Check> checkNamed(std::string_view name);

//! One kind of problem found: how often, and where it first happens.
struct Finding {
    Check check = Check::LoadWarnings;
    Severity severity = Severity::Warning;
    uint64_t count = 0;
    SliceId first = kNoSlice; //!< the earliest instance, to frame; kNoSlice when it is no slice
    std::string example; //!< one line on the first instance
    int rankIndex = -1; //!< in a run: the rank (index into its ranks) it concerns
    TimeNs firstStart = kNoValue; //!< first's start (`first_ts_us`), kNoValue with no slice
};

//! Findings of one trace, warnings first, each kind once. \a all: load and link diagnostics.
std::vector<Finding> checkTrace(const OpGraph &graph, const Diagnostics &all);

//! What the run's checks read of one rank.
struct RunRankFacts {
    int rank = 0;
    int worldSize = 0; //!< 0: its trace does not say
    std::string file;
    TimeNs start = 0, end = 0; //!< its first and last event on the run clock
    const std::vector<CommRecord> *kernels = nullptr; //!< its communication kernels
};

/*!
 * Findings of a run as a whole: ranks missing from the job's world_size, ranks that ran
 * different numbers of collectives of one process group, ranks whose times overlap no other's.
 */
std::vector<Finding> checkRun(const std::vector<RunRankFacts> &ranks);

bool hasWarnings(const std::vector<Finding> &findings);

} // namespace ks
