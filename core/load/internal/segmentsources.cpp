// SPDX-License-Identifier: MIT
#include "segmentsources.h"

#include "gzipinflater.h"
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

//! Parses \a slice as \a text gives it.
PassResult parseSlice(ChunkedText &text,
    const TextSlice &slice,
    TraceBuilder &builder,
    const std::function<void(uint64_t)> &reached,
    const std::atomic<bool> *cancel)
{
    ChunkStream stream(text);
    // A slice without a tail runs to the text's end, wherever that is (a gzip trailer's size may
    // be short of it).
    const uint64_t length = slice.tail.empty() ? ~uint64_t(0) : slice.end - slice.begin;
    const TextPlace place {slice.begin, slice.head.size(), length};
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
    return parseSlice(text, slice, builder, reached, cancel);
}

std::string GzipSegments::bytes(uint64_t offset, size_t n) const
{
    // From the last point recorded, recording on: each split's scan starts where the last ended.
    const auto gzip = GzipInflater::nearest(m_file.fd(), &m_scanned, m_file.inflater(), offset);
    gzip->recordSeekPoints(&m_scanned);
    std::string out(n, '\0');
    gzip->skipTo(offset, out.data(), n);
    size_t got = 0;
    while (!gzip->ended() && got < n)
        got += gzip->read(out.data() + got, n - got);
    out.resize(got);
    return out;
}

PassResult GzipSegments::parse(const TextSlice &slice,
    TraceBuilder &builder,
    const std::function<void(uint64_t)> &reached,
    const std::atomic<bool> *cancel) const
{
    const bool toEnd = slice.tail.empty();
    ChunkedText text(m_file, slice, ChunkedText::Reader::OwnThread, 1, &m_scanned, toEnd);
    PassResult result = parseSlice(text, slice, builder, reached, cancel);
    if (toEnd && result.outcome.textSize != ~uint64_t(0)) {
        std::lock_guard lock(m_mutex);
        if (slice.begin < m_toEndFrom) {
            m_toEndFrom = slice.begin;
            m_end = text.textEnd();
            m_toEndPoints = text.takeIndex();
        }
    }
    return result;
}

GzipIndex GzipSegments::takeIndex()
{
    GzipIndex index = std::move(m_scanned);
    const uint64_t scanned = index.points.empty() ? 0 : index.points.back().textOffset;
    for (SeekPoint &p : m_toEndPoints.points) {
        if (index.points.empty() || p.textOffset > scanned)
            index.points.push_back(std::move(p));
    }
    return index;
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
