// SPDX-License-Identifier: MIT
#include "segmentsources.h"

#include "textstream.h"

#include <unistd.h>

namespace ks {

namespace {

//! One core per segment: a builder thread beside each would only add hand-over work.
template<typename Stream>
PassResult parsePlaced(Stream &stream,
    const TextPlace &place,
    TraceBuilder &builder,
    const std::function<void(uint64_t)> &reached,
    const std::atomic<bool> *cancel)
{
    return parseText(
        stream, place, builder, false, [&] { reached(place.fileOffset(stream.Tell())); }, cancel);
}

} // namespace

std::string FileSegments::bytes(uint64_t offset, size_t n) const
{
    std::string out(n, '\0');
    const ssize_t got = ::pread(m_file.fd(), out.data(), n, off_t(offset));
    out.resize(got > 0 ? size_t(got) : 0);
    return out;
}

PassResult FileSegments::parse(const TextSlice &slice,
    TraceBuilder &builder,
    const std::function<void(uint64_t)> &reached,
    const std::atomic<bool> *cancel) const
{
    ChunkedText text(m_file, slice);
    ChunkStream stream(text);
    const TextPlace place {slice.begin, slice.head.size(), slice.end - slice.begin};
    PassResult result = parsePlaced(stream, place, builder, reached, cancel);
    ParseOutcome &out = result.outcome;
    out.textSize
        = slice.tail.empty() && stream.atEnd() ? place.fileOffset(stream.textSeen()) : ~uint64_t(0);
    if (stream.atEnd() && text.outOfMemory() && !out.outOfMemory) {
        out.outOfMemory = true;
        out.stoppedAt = place.fileOffset(stream.textSeen());
    }
    return result;
}

std::string MemorySegments::bytes(uint64_t offset, size_t n) const
{
    return offset < m_text.size() ? std::string(m_text.substr(size_t(offset), n)) : std::string();
}

PassResult MemorySegments::parse(const TextSlice &slice,
    TraceBuilder &builder,
    const std::function<void(uint64_t)> &reached,
    const std::atomic<bool> *cancel) const
{
    const uint64_t end = slice.tail.empty() ? m_text.size() : slice.end;
    const std::string text = slice.head
        + std::string(m_text.substr(size_t(slice.begin), size_t(end - slice.begin))) + slice.tail;
    TextStream stream(text);
    const TextPlace place {slice.begin, slice.head.size(), end - slice.begin};
    PassResult result = parsePlaced(stream, place, builder, reached, cancel);
    if (slice.tail.empty())
        result.outcome.textSize = m_text.size();
    return result;
}

} // namespace ks
