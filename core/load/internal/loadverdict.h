// SPDX-License-Identifier: MIT
#pragma once

#include "base/diagnostics.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks {

//! What one parse pass over a trace's text found: all that decideLoad() looks at.
struct ParseOutcome {
    bool parseError = false; //!< the parser stopped before the end of the JSON
    uint64_t errorOffset = 0; //!< where it stopped (RapidJSON's offset), when parseError
    std::string errorMessage; //!< RapidJSON's words for why, when parseError
    char charAtError = 0; //!< the character the parser stopped on
    uint64_t tellAtError = 0; //!< where the stream was when the parser stopped

    uint64_t events = 0; //!< traceEvents entries read, complete or skipped whole
    uint64_t phasedEvents = 0; //!< complete event objects with a phase
    uint64_t firstEntryOffset = 0;
    bool sawRoot = false;
    bool rootIsTrace = false;
    bool sawEventsArray = false;
    bool insideEvent = false; //!< the text stopped inside an event
    uint64_t eventOffset = 0; //!< where that event starts
    std::string notATrace; //!< why the top-level value is not a trace, if it says so

    uint64_t repairs = 0; //!< strings the repairing pass changed
    uint64_t firstRepairAt = 0;
    uint64_t textSize = 0; //!< decompressed bytes; ~0 when the parse stopped before the end
    std::string gzipProblem; //!< why the gzip stream ended early, if it did
    bool gzipCutOff = false; //!< that problem is a cut-off stream, not corrupt data

    bool cancelled = false;
    bool outOfMemory = false; //!< an allocation failed while reading
    uint64_t stoppedAt = 0; //!< the decompressed offset reached then

    //! After a syntax error in a plain file: the bytes after it and the events they hold (its
    //! `"ph"` keys counted); unreadEvents ~0 when they were not counted (gzip, text in memory).
    uint64_t unreadBytes = 0;
    uint64_t unreadEvents = ~uint64_t(0);
};

//! What a load comes to, decided from a ParseOutcome alone.
struct LoadVerdict {
    enum class Status { Loaded, Truncated, Failed, Cancelled };
    Status status = Status::Failed;
    std::string error; //!< "FILE: byte OFFSET: reason" when Failed, "FILE: cancelled"
    uint64_t offset = 0; //!< the OFFSET of the error
    uint64_t textSize = 0; //!< the model's textSize when Loaded or Truncated

    //! A diagnostic to add to the model, in this order, when Loaded or Truncated.
    struct Note {
        Diag counter;
        uint64_t offset = 0;
        std::string message;
        uint64_t alsoCounted = 0; //!< further occurrences without an example
    };
    std::vector<Note> notes;
};

/*!
 * Decides between loaded, truncated (cut off after complete events: still loaded), failed and
 * cancelled. A pure function: the parse, the gzip stream and the builder have done their work,
 * this only judges what they found, so that every branch can be tested without a parse.
 */
LoadVerdict decideLoad(const std::string &path, const ParseOutcome &outcome);

//! "PATH: byte OFFSET: REASON", the form of every load failure.
std::string loadFailure(const std::string &path, uint64_t offset, const std::string &reason);
//! The failure when memory ran out with \a offset bytes of the text read.
std::string outOfMemoryFailure(const std::string &path, uint64_t offset);

} // namespace ks
