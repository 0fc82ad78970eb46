// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace ks {

struct LoadOptions {
    //! Called now and then from the loading thread with permille of the (compressed) input read.
    std::function<void(int permille)> progress;
    //! When set, loading stops soon (well within 100 ms) and reports Cancelled.
    const std::atomic<bool> *cancel = nullptr;
    /*!
     * Places the events on a builder thread beside the parser (about 1.2 cores per load). Off
     * where loads already run side by side, one per core (a run's ranks): there the hand-over
     * between the threads is only extra work.
     */
    bool builderThread = true;
    //! Reads the file on a thread of its own, a few chunks ahead of the parser. Off where
    //! builderThread is, for the same reason: there the parser reads each chunk itself.
    bool readerThread = true;
    /*!
     * Threads that parse a text side by side, each a segment of it at a time (0: loadThreads()).
     * The model is the same whatever the count. A gzip text is parsed in segments as it is
     * inflated from three threads on (in one piece below), and its members, where it has
     * several, are inflated by this many.
     */
    unsigned threads = 0;
    //! No segment is smaller: below it a thread costs more than it saves (tests make it tiny).
    uint64_t minSegmentBytes = uint64_t(8) << 20;
    //! Inflates gzip with zlib, the reference, even where this build has ISA-L (tests, fuzzer,
    //! benchmarks). The model is the same either way but for the seek points' kind.
    bool inflateWithZlib = false;
};

//! Where a load's time went, in seconds (benchmarks/, docs/performance.md).
struct LoadPhases {
    double split = 0; //!< finding the segments' starts
    double parse = 0; //!< parsing and placing the events (side by side when segmented)
    double join = 0; //!< joining the segments, and reading again after a false split
    double finish = 0; //!< sorting, nesting and binding the model (TraceBuilder::finish)
};

struct LoadResult {
    enum class Status { Loaded, Failed, Cancelled };
    Status status = Status::Failed;
    std::unique_ptr<TraceModel> model; //!< set when Loaded
    std::string error; //!< "FILE: byte OFFSET: reason" when Failed
    //! Segments of the text parsed side by side and joined (1: read in one piece); where a split
    //! proved no event boundary, the rest was read in one more piece.
    unsigned pieces = 1;
    LoadPhases phases;
};

/*!
 * Reads a Chrome-trace JSON file (plain or gzip) with RapidJSON's SAX reader, streaming:
 * the file is never held as a DOM. Accepts an object with traceEvents (other top-level keys
 * become metadata) or a bare array of events. A file cut off mid-way loads every complete
 * event and is marked truncated. Fails only when no event could be read.
 */
LoadResult loadTrace(const std::string &path, const LoadOptions &options = {});

/*!
 * The same over text in memory (tests, fuzzing); \a name stands for the path in messages. Files
 * always place events on a builder thread beside the parser; texts, mostly tiny, only when
 * \a builderThread says so.
 */
LoadResult loadTraceText(
    std::string_view text, const std::string &name = "<memory>", bool builderThread = false);
//! The same with every option (progress is not reported for text).
LoadResult loadTraceText(
    std::string_view text, const std::string &name, const LoadOptions &options);

//! The threads a load uses when its options do not say: what setLoadThreads() set, else
//! usableCores().
unsigned loadThreads();
//! `--threads N` (0: usableCores()).
void setLoadThreads(unsigned threads);

/*!
 * `distributedInfo.world_size` of the trace at \a path, read from the first 256 KiB of its text
 * only (Kineto writes the key before the events), without loading it: the window asks whether
 * several dropped files are one run. 0 when the head does not say (or the file cannot be read).
 */
int peekWorldSize(const std::string &path);

} // namespace ks
