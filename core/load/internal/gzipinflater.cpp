// SPDX-License-Identifier: MIT
#include "gzipinflater.h"

#include <algorithm>
#include <cstring>
#include <unistd.h>

namespace ks {

namespace {
// Reads start small and double: a small member, or the one event a seek reads, needs little.
constexpr size_t kFirstRead = 16 * 1024;
constexpr size_t kInSize = 256 * 1024;
} // namespace

GzipInflater::GzipInflater(int fd, Inflater inflater, uint64_t start, uint64_t stopAt)
    : m_fd(fd)
    , m_engine(makeDeflateEngine(inflater))
    , m_in(std::make_unique_for_overwrite<unsigned char[]>(kInSize))
    , m_consumed(start)
    , m_readSize(kFirstRead)
    , m_stopAt(stopAt)
    , m_memberStart(start)
{
    m_engine->startMember();
}

GzipInflater::GzipInflater(int fd, const GzipIndex &index, const SeekPoint &point)
    : m_fd(fd)
    , m_engine(makeDeflateEngine(index.inflater))
    , m_in(std::make_unique_for_overwrite<unsigned char[]>(kInSize))
    , m_consumed(point.compressedOffset)
    , m_readSize(kFirstRead)
    , m_memberStart(point.memberStart)
    , m_memberText(point.memberText)
    , m_textOffset(point.textOffset)
{
    int firstByte = 0;
    if (point.bits > 0) {
        // The block starts inside this byte: the engine takes its top bits first.
        refill();
        if (m_avail == 0) {
            m_end = End::CutOff;
            return;
        }
        firstByte = *m_next;
        take(1);
    }
    m_engine->resume(point, firstByte);
}

std::unique_ptr<GzipInflater> GzipInflater::nearest(
    int fd, const GzipIndex *index, Inflater inflater, uint64_t offset)
{
    const SeekPoint *point = index ? index->pointAtOrBefore(offset) : nullptr;
    return point ? std::make_unique<GzipInflater>(fd, *index, *point)
                 : std::make_unique<GzipInflater>(fd, inflater);
}

GzipInflater::~GzipInflater() = default;

void GzipInflater::restartAt(uint64_t start, uint64_t stopAt)
{
    m_consumed = start;
    m_next = nullptr;
    m_avail = 0;
    m_stopAt = stopAt;
    m_fileEnd = false;
    m_memberStart = start;
    m_memberText = 0;
    m_end = End::NotYet;
    m_corruptReason.clear();
    m_corruptAt = 0;
    m_textOffset = 0;
    m_readSize = kFirstRead;
    m_index = nullptr;
    if (m_engine->kind() != m_inflater)
        m_engine = makeDeflateEngine(m_inflater); // after redoWithZlib()
    m_engine->startMember();
}

void GzipInflater::recordSeekPoints(GzipIndex *index)
{
    m_index = index;
    m_index->inflater = m_engine->kind();
}

void GzipInflater::refill()
{
    const ssize_t n = ::pread(m_fd, m_in.get(), m_readSize, off_t(m_consumed));
    m_readSize = std::min(kInSize, 2 * m_readSize);
    if (n <= 0) {
        m_fileEnd = true;
        return;
    }
    m_next = m_in.get();
    m_avail = size_t(n);
    m_consumed += uint64_t(n);
}

void GzipInflater::take(size_t bytes)
{
    m_next += bytes;
    m_avail -= bytes;
}

void GzipInflater::goBackTo(uint64_t offset)
{
    // Read again from there: those bytes may be in no buffer any more.
    m_consumed = offset;
    m_next = nullptr;
    m_avail = 0;
    m_fileEnd = false;
}

void GzipInflater::fillAtLeast(size_t bytes)
{
    if (m_avail >= bytes || m_fileEnd)
        return;
    // Keep what is left, at the buffer's start, and read on after it.
    std::memmove(m_in.get(), m_next, m_avail);
    const ssize_t n = ::pread(m_fd, m_in.get() + m_avail, kInSize - m_avail, off_t(m_consumed));
    m_next = m_in.get();
    if (n <= 0) {
        m_fileEnd = true;
        return;
    }
    m_avail += size_t(n);
    m_consumed += uint64_t(n);
}

bool GzipInflater::skipInput(size_t bytes)
{
    while (bytes > 0) {
        if (m_avail == 0 && !m_fileEnd)
            refill();
        if (m_avail == 0)
            return false;
        const size_t n = std::min(bytes, m_avail);
        take(n);
        bytes -= n;
    }
    return true;
}

void GzipInflater::corrupt(const std::string &reason)
{
    m_corruptReason = reason;
    m_corruptAt = compressedOffset();
    m_end = End::Corrupt;
}

size_t GzipInflater::read(char *out, size_t size)
{
    size_t done = 0;
    while (done < size && m_end == End::NotYet) {
        // When recording: inflate up to where the next point is due, then on to the next place
        // the engine can start from (for zlib the next block boundary) so that it is not missed.
        const uint64_t due = m_index && !m_index->points.empty()
            ? m_index->points.back().textOffset + kSeekSpan
            : 0;
        const bool pointDue = m_index && m_textOffset >= due;
        if (pointDue && m_engine->resumableHere()) {
            recordPoint();
            continue;
        }
        if (m_avail == 0 && !m_fileEnd)
            refill();
        size_t room = size - done;
        if (m_index && !pointDue)
            room = size_t(std::min<uint64_t>(room, due - m_textOffset));
        const DeflateEngine::Step step
            = m_engine->inflate(m_next, m_avail, out + done, room, pointDue);
        take(step.taken);
        done += step.produced;
        m_textOffset += step.produced;
        if (step.status == DeflateEngine::Status::MemberEnd) {
            if (step.heldPastEnd > 0)
                goBackTo(compressedOffset() - step.heldPastEnd);
            nextMember();
        } else if (step.status == DeflateEngine::Status::Corrupt && !redoWithZlib())
            corrupt(m_engine->error());
        else if (step.status == DeflateEngine::Status::Ok && step.taken == 0 && step.produced == 0
            && m_avail == 0 && m_fileEnd && !redoWithZlib())
            m_end = End::CutOff; // the file ends inside a member
    }
    return done;
}

uint64_t GzipInflater::skipTo(uint64_t offset, char *scratch, size_t size)
{
    uint64_t skipped = 0;
    while (!ended() && m_textOffset < offset)
        skipped += read(scratch, size_t(std::min<uint64_t>(size, offset - m_textOffset)));
    return skipped;
}

bool GzipInflater::redoWithZlib()
{
    if (m_engine->kind() == Inflater::Zlib)
        return false;
    const uint64_t given = m_textOffset;
    m_engine = makeDeflateEngine(Inflater::Zlib);
    m_engine->startMember();
    m_index = nullptr; // the points stay one library's
    goBackTo(m_memberStart);
    m_textOffset = m_memberText;
    std::unique_ptr<char[]> scratch = std::make_unique_for_overwrite<char[]>(kInSize);
    skipTo(given, scratch.get(), kInSize);
    return true;
}

void GzipInflater::nextMember()
{
    if (!skipInput(m_engine->trailerLeft())) {
        m_end = End::CutOff;
        return;
    }
    if (compressedOffset() >= m_stopAt) {
        m_end = End::Clean;
        return;
    }
    // Concatenated members continue; anything else after the stream is ignored. Two bytes tell,
    // even where the member ends one byte before the end of a read.
    fillAtLeast(2);
    if (m_avail == 0) {
        m_end = End::Clean;
        return;
    }
    if (!beginsMember(m_next, m_avail)) {
        m_end = End::TrailingGarbage;
        return;
    }
    m_engine->startMember();
    m_memberStart = compressedOffset();
    m_memberText = m_textOffset;
}

void GzipInflater::recordPoint()
{
    SeekPoint point;
    point.textOffset = m_textOffset;
    point.memberStart = m_memberStart;
    point.memberText = m_memberText;
    m_engine->seekPoint(point, compressedOffset());
    m_index->points.push_back(std::move(point));
}

} // namespace ks
