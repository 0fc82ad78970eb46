// SPDX-License-Identifier: MIT
#include "loadverdict.h"

#include <algorithm>
#include <cstdio>

namespace ks {

std::string loadFailure(const std::string &path, uint64_t offset, const std::string &reason)
{
    return path + ": byte " + std::to_string(offset) + ": " + reason;
}

std::string outOfMemoryFailure(const std::string &path, uint64_t offset)
{
    char read[32];
    std::snprintf(read, sizeof read, "%.1f", double(offset) / 1e6);
    return loadFailure(path, offset,
        std::string("not enough memory to load this trace (") + read + " MB of text read)");
}

namespace {

//! " (N bytes holding about E events)" after a syntax error where they were counted.
std::string unreadText(const ParseOutcome &outcome)
{
    if (outcome.unreadEvents == ~uint64_t(0))
        return {};
    return " (" + std::to_string(outcome.unreadBytes) + " bytes holding about "
        + std::to_string(outcome.unreadEvents)
        + (outcome.unreadEvents == 1 ? " event)" : " events)");
}

} // namespace

LoadVerdict decideLoad(const std::string &path, const ParseOutcome &outcome)
{
    LoadVerdict verdict;
    const auto fail = [&](uint64_t offset, const std::string &reason) {
        verdict.status = LoadVerdict::Status::Failed;
        verdict.offset = offset;
        verdict.error = loadFailure(path, offset, reason);
        return verdict;
    };
    if (outcome.cancelled) {
        verdict.status = LoadVerdict::Status::Cancelled;
        verdict.error = path + ": cancelled";
        return verdict;
    }
    // First: a text that ended because memory ran out would look cut off.
    if (outcome.outOfMemory) {
        verdict.offset = outcome.stoppedAt;
        verdict.error = outOfMemoryFailure(path, outcome.stoppedAt);
        return verdict;
    }

    const bool parseError = outcome.parseError;
    const uint64_t at = parseError ? outcome.errorOffset : 0;
    // At the end also when the parser stopped on the last character because the text ran out
    // (a backslash at the very end is reported as an invalid escape at the backslash).
    const bool atEnd = parseError
        && (at >= outcome.textSize
            || (outcome.charAtError == 0 && outcome.tellAtError >= outcome.textSize));
    // RapidJSON reads a zero byte as the end of input; inside the file it means binary data.
    const auto parseReason = [&]() -> std::string {
        if (!atEnd && outcome.charAtError == 0)
            return "a zero byte: this is not JSON text";
        return outcome.errorMessage;
    };
    if (outcome.textSize == 0)
        return fail(0, outcome.gzipProblem.empty() ? "empty file" : outcome.gzipProblem);
    if (!outcome.sawRoot || (parseError && !outcome.sawEventsArray && !outcome.rootIsTrace)) {
        // Text that is not JSON at all (a log, a binary file) says so first, the parser's words
        // after: "Invalid value." alone does not tell a user they opened the wrong file.
        if (atEnd && outcome.sawRoot)
            return fail(at, "not a trace: the file ends before the trace begins");
        const std::string why = !parseError || atEnd ? "only whitespace"
            : outcome.charAtError == 0               ? "a zero byte, binary data"
                                                     : outcome.errorMessage;
        return fail(at, "not a trace (not JSON): " + why);
    }
    if (!outcome.rootIsTrace)
        return fail(0, outcome.notATrace.empty() ? "not a trace" : outcome.notATrace);
    if (outcome.events == 0) {
        std::string reason = !outcome.sawEventsArray ? "no traceEvents array: not a trace"
                                                     : "the trace contains no events";
        if (parseError)
            reason = atEnd ? "the file ends before the first event" : parseReason();
        return fail(at, reason);
    }
    if (outcome.phasedEvents == 0) {
        // Entries, but not one complete event with a phase ("[[[[…", "[1, 2]", "[{}]"): whatever
        // this is, it is not a trace, and a "loaded" trace with nothing in it would hide that.
        std::string reason = "no complete trace event (an object with \"ph\") in traceEvents";
        if (parseError && !atEnd)
            reason = parseReason() + " before any complete trace event";
        else if (parseError)
            reason = "the file ends before the first complete trace event";
        return fail(parseError && !atEnd ? at : outcome.firstEntryOffset, reason);
    }

    if (outcome.repairs > 0)
        verdict.notes.push_back({Diag::RepairedStrings, outcome.firstRepairAt,
            "invalid characters or escapes in strings were repaired", outcome.repairs - 1});
    if (!outcome.gzipProblem.empty())
        verdict.notes.push_back({outcome.gzipCutOff ? Diag::GzipCutOff : Diag::GzipCorrupt,
            outcome.textSize, outcome.gzipProblem});
    bool truncated = false;
    if (parseError) {
        if (atEnd) {
            truncated = true;
            verdict.notes.push_back({Diag::Truncated, std::max<uint64_t>(at, outcome.textSize),
                "the file ends in the middle of the JSON"});
        } else {
            verdict.notes.push_back({Diag::SyntaxError, at,
                "a syntax error (" + parseReason() + "): the rest of the file was not read"
                    + unreadText(outcome)});
        }
        if (outcome.insideEvent)
            verdict.notes.push_back({Diag::IncompleteEvent, outcome.eventOffset,
                "the last event is incomplete: skipped"});
    }
    verdict.status = truncated ? LoadVerdict::Status::Truncated : LoadVerdict::Status::Loaded;
    verdict.textSize = outcome.textSize == ~uint64_t(0) ? at : outcome.textSize;
    return verdict;
}

} // namespace ks
