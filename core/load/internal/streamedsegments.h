// SPDX-License-Identifier: MIT
#pragma once

#include "inputfile.h"
#include "parsetext.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace ks {

struct StreamedOptions {
    unsigned threads = 2; //!< segments parsed at once
    uint64_t segmentBytes = uint64_t(16) << 20; //!< no segment smaller, but for the last
    const std::atomic<bool> *cancel = nullptr;
    //! Text parsed so far, and the text and compressed bytes read; on the calling thread.
    std::function<void(uint64_t parsed, uint64_t textRead, uint64_t compressedRead)> progress;
    /*!
     * Parses the text from \a begin to its end, behind \a head, into \a builder after the events
     * it holds: the text from the first segment that proved nothing on.
     */
    std::function<PassResult(uint64_t begin, const std::string &head, TraceBuilder &builder)>
        parseRest;
};

/*!
 * Parses the text \a source hands out in order (a gzip file's, as it is inflated) in segments
 * side by side, into one builder that holds what a parse of the whole text in one piece would
 * have. Each segment is a run of consecutive chunks, at least \a options.segmentBytes long, cut
 * at the first guessed event boundary past that length (segmentparts.cpp says why a false guess
 * is always found); the next free thread parses it from memory, and it is joined to the
 * segments before it as soon as they are. At most a few segments' text and builders are held at
 * once, whatever the text's size.
 *
 * Where a segment proves no event boundary, or none is found within a bounded distance, the text
 * from there on is parsed in one piece (parseRest); nothing where that is the first segment: the
 * caller then parses the whole text in one piece. The result's textSize is the text's size when
 * the parse read to its end, else ~0.
 */
std::optional<PassResult> parseStreamed(
    ChunkedText &source, std::unique_ptr<TraceBuilder> &builder, const StreamedOptions &options);

} // namespace ks
