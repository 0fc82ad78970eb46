// SPDX-License-Identifier: MIT
#include "segmentsources.h"

#include <rapidjson/stream.h>

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

PassResult FileSegments::parse(uint64_t begin,
    uint64_t end,
    const std::string &head,
    const std::string &tail,
    TraceBuilder &builder,
    const std::function<void(uint64_t)> &reached,
    const std::atomic<bool> *cancel) const
{
    ChunkedText text(m_file, TextSlice {begin, end, head, tail});
    ChunkStream stream(text);
    const TextPlace place {begin, head.size(), end - begin};
    PassResult result = parsePlaced(stream, place, builder, reached, cancel);
    ParseOutcome &out = result.outcome;
    out.textSize
        = tail.empty() && stream.atEnd() ? place.fileOffset(stream.textSeen()) : ~uint64_t(0);
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

PassResult MemorySegments::parse(uint64_t begin,
    uint64_t end,
    const std::string &head,
    const std::string &tail,
    TraceBuilder &builder,
    const std::function<void(uint64_t)> &reached,
    const std::atomic<bool> *cancel) const
{
    if (tail.empty())
        end = m_text.size();
    const std::string text
        = head + std::string(m_text.substr(size_t(begin), size_t(end - begin))) + tail;
    rapidjson::StringStream stream(text.c_str()); // zero-terminated, as it needs
    const TextPlace place {begin, head.size(), end - begin};
    PassResult result = parsePlaced(stream, place, builder, reached, cancel);
    if (tail.empty())
        result.outcome.textSize = m_text.size();
    return result;
}

} // namespace ks
