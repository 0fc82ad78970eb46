// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

/*!
 * Every kind of anomaly the loader and linker count, as Perfetto's stats.h lists its stats: a
 * name (the counter's key in `--summary`), a severity and one line that says what it means. A
 * counter is an enumerator, so a typo is a compile error, not a new counter.
 */
enum class Diag : uint8_t {
    AllocAddressReused,
    BadSequenceNumber,
    BadTraceEvents,
    DoubleBackward,
    DuplicateFlowEnd,
    DuplicateFlowStart,
    EmptyCounter,
    EventNotObject,
    FlowAndSequenceDisagree,
    FlowEndWithoutStart,
    FlowEndpointUnbound,
    FlowOnUnknownThread,
    FlowStartWithoutEnd,
    FlowStepWithoutEnds,
    FlowToItself,
    FlowWithoutId,
    FreeWithoutAllocation,
    FwdbwdFlowDuplicate,
    FwdbwdFlowOneEnded,
    FwdbwdFlowSequenceMismatch,
    FwdbwdFlowToHook,
    FwdbwdFlowUnmatched,
    GzipCorrupt,
    GzipCutOff,
    GzipTrailingGarbage,
    IncompleteEvent,
    InvalidDur,
    InvalidMemorySize,
    InvalidTs,
    InvalidUtf8Names,
    MissingDur,
    MissingName,
    MissingPh,
    MissingTs,
    NegativeDur,
    NegativeTs,
    OutOfMemory,
    OverlappingSlices,
    RecomputeWithoutOriginal,
    RepairedStrings,
    SyntaxError,
    TooManySlices,
    Truncated,
    UnknownMetadata,
    UnknownPhase,
    UnmatchedBegin,
    UnmatchedEnd,
    UnsupportedPhase,
    ValueTooLarge,
    WrongType,
    Count
};

enum class Severity : uint8_t {
    Warning, //!< worth the user's attention: something in the file was skipped, cut or repaired
    Info, //!< normal in real Kineto traces (lone flow ends, …): reported, never a warning
};

struct DiagnosticInfo {
    Diag id;
    std::string_view name;
    Severity severity;
    std::string_view description;
};

//! The table, in enumerator order (which is also name order: summaries list them so).
inline constexpr std::array<DiagnosticInfo, size_t(Diag::Count)> kDiagnostics = {{
    {Diag::AllocAddressReused, "alloc_address_reused", Severity::Warning,
        "a [memory] allocation at an address still allocated: the free goes to the later one, the "
        "earlier stays open"},
    {Diag::BadSequenceNumber, "bad_sequence_number", Severity::Warning,
        "a Sequence number or Fwd thread id that is not an integer"},
    {Diag::BadTraceEvents, "bad_trace_events", Severity::Warning, "traceEvents is not an array"},
    {Diag::DoubleBackward, "double_backward", Severity::Info,
        "numbered ops inside backward nodes are create_graph=True work, counted as backward"},
    {Diag::DuplicateFlowEnd, "duplicate_flow_end", Severity::Info,
        "a second flow end with the same id (ROCm traces write them)"},
    {Diag::DuplicateFlowStart, "duplicate_flow_start", Severity::Info,
        "a second flow start with the same id"},
    {Diag::EmptyCounter, "empty_counter", Severity::Warning,
        "a counter (ph C) event without numeric args"},
    {Diag::EventNotObject, "event_not_object", Severity::Warning,
        "a traceEvents entry that is not an object"},
    {Diag::FlowAndSequenceDisagree, "flow_and_sequence_disagree", Severity::Warning,
        "a fwdbwd flow and the sequence-number rule pick different forward ops"},
    {Diag::FlowEndWithoutStart, "flow_end_without_start", Severity::Info,
        "a flow end without a start (runtime calls that launch nothing write them)"},
    {Diag::FlowEndpointUnbound, "flow_endpoint_unbound", Severity::Warning,
        "a flow endpoint on no slice of its thread"},
    {Diag::FlowOnUnknownThread, "flow_on_unknown_thread", Severity::Warning,
        "a flow endpoint on a thread without events: ignored"},
    {Diag::FlowStartWithoutEnd, "flow_start_without_end", Severity::Info,
        "a flow start without an end (launches whose GPU work is outside the window)"},
    {Diag::FlowStepWithoutEnds, "flow_step_without_ends", Severity::Warning,
        "a flow step (ph t) of a flow without start or end"},
    {Diag::FlowToItself, "flow_to_itself", Severity::Warning,
        "a flow that starts and ends on one slice: ignored"},
    {Diag::FlowWithoutId, "flow_without_id", Severity::Warning, "a flow event without id: skipped"},
    {Diag::FreeWithoutAllocation, "free_without_allocation", Severity::Warning,
        "a [memory] free whose address no open allocation holds (allocated before the trace)"},
    {Diag::FwdbwdFlowDuplicate, "fwdbwd_flow_duplicate", Severity::Warning,
        "a second fwdbwd flow to one backward node: ignored"},
    {Diag::FwdbwdFlowOneEnded, "fwdbwd_flow_one_ended", Severity::Warning,
        "a fwdbwd flow with a start and no end, or an end and no start: the pair it names is "
        "linked by sequence number or not at all"},
    {Diag::FwdbwdFlowSequenceMismatch, "fwdbwd_flow_sequence_mismatch", Severity::Warning,
        "a fwdbwd flow joining ops with different sequence numbers: ignored"},
    {Diag::FwdbwdFlowToHook, "fwdbwd_flow_to_hook", Severity::Info,
        "a fwdbwd flow to a backward hook, which is not a pair"},
    {Diag::FwdbwdFlowUnmatched, "fwdbwd_flow_unmatched", Severity::Warning,
        "a fwdbwd flow whose ends are not a numbered forward op and a backward node"},
    {Diag::GzipCorrupt, "gzip_corrupt", Severity::Warning,
        "the gzip data is corrupt after this point: the rest was not read"},
    {Diag::GzipCutOff, "gzip_cut_off", Severity::Warning, "the gzip stream is cut off"},
    {Diag::GzipTrailingGarbage, "gzip_trailing_garbage", Severity::Warning,
        "data after the gzip stream, ignored"},
    {Diag::IncompleteEvent, "incomplete_event", Severity::Warning,
        "the event being read where reading stopped (the file's end, a syntax error, corrupt "
        "gzip data) is incomplete: skipped"},
    {Diag::InvalidDur, "invalid_dur", Severity::Warning,
        "a dur that is not a usable number: duration 0"},
    {Diag::InvalidMemorySize, "invalid_memory_size", Severity::Warning,
        "a memory event's Bytes or total that no device has: the event, or that total, is left "
        "out"},
    {Diag::InvalidTs, "invalid_ts", Severity::Warning,
        "a ts that is not a usable number: the event is skipped"},
    {Diag::InvalidUtf8Names, "invalid_utf8_names", Severity::Warning,
        "a name that is not valid UTF-8"},
    {Diag::MissingDur, "missing_dur", Severity::Warning, "an X event without dur: duration 0"},
    {Diag::MissingName, "missing_name", Severity::Warning, "a slice without a name"},
    {Diag::MissingPh, "missing_ph", Severity::Warning, "an event without ph: skipped"},
    {Diag::MissingTs, "missing_ts", Severity::Warning, "an event without ts: skipped"},
    {Diag::NegativeDur, "negative_dur", Severity::Warning, "a negative dur: taken as 0"},
    {Diag::NegativeTs, "negative_ts", Severity::Warning, "a negative ts, kept as is"},
    {Diag::OutOfMemory, "out_of_memory", Severity::Warning,
        "an [OutOfMemory] event: an allocation failed"},
    {Diag::OverlappingSlices, "overlapping_slices", Severity::Warning,
        "a slice that ends after its enclosing slice"},
    {Diag::RecomputeWithoutOriginal, "recompute_without_original", Severity::Warning,
        "a recomputed op that repeats no forward op found in its step"},
    {Diag::RepairedStrings, "repaired_strings", Severity::Warning,
        "invalid characters or escapes in strings, repaired"},
    {Diag::SyntaxError, "syntax_error", Severity::Warning,
        "a JSON syntax error: the rest of the file was not read"},
    {Diag::TooManySlices, "too_many_slices", Severity::Warning,
        "more than 4 billion slices: the trace is cut"},
    {Diag::Truncated, "truncated", Severity::Warning, "the file ends in the middle of the JSON"},
    {Diag::UnknownMetadata, "unknown_metadata", Severity::Warning,
        "a metadata (ph M) event Kinetoscope does not use: ignored"},
    {Diag::UnknownPhase, "unknown_phase", Severity::Warning,
        "an event of an unknown phase: skipped"},
    {Diag::UnmatchedBegin, "unmatched_begin", Severity::Warning,
        "a B event without its E: closed at the end of the trace"},
    {Diag::UnmatchedEnd, "unmatched_end", Severity::Warning, "an E event without its B: skipped"},
    {Diag::UnsupportedPhase, "unsupported_phase", Severity::Warning,
        "an event of a phase Kinetoscope does not show (async, object): skipped"},
    {Diag::ValueTooLarge, "value_too_large", Severity::Warning, "a value over 1 MB was cut"},
    {Diag::WrongType, "wrong_type", Severity::Warning, "a field of the wrong JSON type: ignored"},
}};

constexpr const DiagnosticInfo &info(Diag d)
{
    return kDiagnostics[size_t(d)];
}
//! The counter called \a name, if there is one.
std::optional<Diag> diagnosticNamed(std::string_view name);

/*!
 * What was odd about a trace: a count per kind of anomaly and the first few examples, each
 * with the byte offset (in the decompressed text) of the event it concerns. Nothing is
 * dropped silently: whatever the loader or linker skips or repairs is counted here.
 */
class Diagnostics {
public:
    struct Example {
        Diag counter;
        uint64_t offset = 0;
        std::string message;
    };

    static constexpr int kExamplesPerCounter = 5;

    void add(Diag counter, uint64_t offset, const std::string &message);
    void addCount(Diag counter, uint64_t count = 1);
    //! Adds the counts and examples of \a other.
    void merge(const Diagnostics &other);
    /*!
     * Adds the counts and examples of \a other as if both had been counted in one pass in
     * offset order: the examples of each counter are the first ones by offset. Both must hold
     * their examples in offset order (what one pass over a text adds).
     */
    void interleave(const Diagnostics &other);

    uint64_t count(Diag counter) const { return m_counts[size_t(counter)]; }
    //! By name (tests, and files that list counters by name); 0 for an unknown name.
    uint64_t count(std::string_view name) const;
    uint64_t total() const;
    bool empty() const { return total() == 0; }
    //! Non-zero counters by name, in name order.
    std::map<std::string, uint64_t> counts() const;
    const std::vector<Example> &examples() const { return m_examples; }

    //! Count of the counters whose severity is Warning.
    uint64_t warnings() const;

    //! One line per counter (warnings first, each with its description), examples indented.
    std::string report() const;

private:
    std::array<uint64_t, size_t(Diag::Count)> m_counts {};
    std::vector<Example> m_examples;
};

} // namespace ks
