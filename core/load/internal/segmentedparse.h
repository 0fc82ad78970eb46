// SPDX-License-Identifier: MIT
#pragma once

#include "inputfile.h"
#include "parsetext.h"

#include <memory>
#include <optional>
#include <string>

namespace ks {

//! A text a segmented parse can read in pieces: a plain file, or text in memory.
class SegmentedText {
public:
    virtual ~SegmentedText() = default;
    virtual uint64_t size() const = 0;
    //! Up to \a n bytes of the text from \a offset (the scan for split points).
    virtual std::string bytes(uint64_t offset, size_t n) const = 0;
    /*!
     * Parses \a slice ([begin, end) of the text, behind its head and before its tail) into
     * \a builder, on the calling thread; \a reached hears the file offset parsed so far, now and
     * then. An empty tail parses on to the end of the text (setting the outcome's textSize).
     */
    virtual PassResult parse(const TextSlice &slice,
        TraceBuilder &builder,
        const std::function<void(uint64_t reached)> &reached,
        const std::atomic<bool> *cancel) const = 0;
};

struct SegmentedOptions {
    unsigned threads = 2; //!< segments, at most: one thread each
    uint64_t minSegmentBytes = 8 << 20; //!< no segment smaller (tests make it tiny)
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(uint64_t done, uint64_t total)> progress; //!< on the calling thread
};

/*!
 * Parses \a text in segments side by side, one thread each, into one builder that holds what a
 * parse of the whole text would have: the same strings, lanes, events and diagnostics, in the
 * same order. Nothing when the text is not worth splitting or the first split is no event
 * boundary: the caller then parses it whole.
 */
std::optional<PassResult> parseSegmented(const SegmentedText &text,
    std::unique_ptr<TraceBuilder> &builder,
    const SegmentedOptions &options);

} // namespace ks
