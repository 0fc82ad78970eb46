// SPDX-License-Identifier: MIT
// What the two segmented parses share (segmentedparse.h: a text read at any offset;
// streamedsegments.h: a text handed out in order): where a segment may start, the synthetic text
// around it, when its parse can be trusted, and how the parses add up to one.
#pragma once

#include "parsetext.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

//! Where the first '{' that follows "}," (whitespace allowed between) is in \a w, else npos.
size_t eventBoundary(std::string_view w);

//! The synthetic text around a segment: an object with traceEvents, or a bare array.
struct SegmentLayout {
    std::string head, tail;
};

//! The layout of the text that begins with \a start; none when it is neither object nor array.
std::optional<SegmentLayout> segmentLayout(std::string_view start);

//! One segment's text range, its own builder and what its parse found.
struct Segment {
    uint64_t begin = 0, end = 0;
    std::unique_ptr<TraceBuilder> builder;
    PassResult result;
};

//! The segment's parse stands without the earlier text (see needsEarlierText()).
bool standsAlone(const Segment &s);

//! A segment before the last stands alone and proved that its end is an event boundary.
bool endsOnBoundary(const Segment &s);

//! The segments' results, in text order, as one parse of the whole text would give them.
PassResult combinedPasses(const std::vector<PassResult *> &used);

//! A parse that stopped (cancelled, out of memory) as \a o says, with nothing to keep.
PassResult stoppedPass(const ParseOutcome &o);

} // namespace ks
