// SPDX-License-Identifier: MIT
#include "gzipinflater.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <unistd.h>
#include <zlib.h>

namespace ks {

namespace {
// Reads start small and double: a small member, or the one event a seek reads, needs little.
constexpr size_t kFirstRead = 16 * 1024;
constexpr size_t kInSize = 256 * 1024;
} // namespace

GzipInflater::GzipInflater(int fd, uint64_t start, uint64_t stopAt)
    : m_fd(fd)
    , m_zs(std::make_unique<z_stream_s>())
    , m_in(std::make_unique_for_overwrite<unsigned char[]>(kInSize))
    , m_consumed(start)
    , m_readSize(kFirstRead)
    , m_stopAt(stopAt)
{
    init(16 + MAX_WBITS); // the gzip wrapper only
}

GzipInflater::GzipInflater(int fd, const SeekPoint &point)
    : m_fd(fd)
    , m_zs(std::make_unique<z_stream_s>())
    , m_in(std::make_unique_for_overwrite<unsigned char[]>(kInSize))
    , m_consumed(point.compressedOffset)
    , m_readSize(kFirstRead)
    , m_raw(true)
    , m_textOffset(point.textOffset)
{
    init(-MAX_WBITS); // inside a member: raw deflate data, the member's header is behind us
    if (ended())
        return;
    if (point.bits > 0) {
        // The block starts inside this byte: its top bits go in first.
        refill();
        if (m_zs->avail_in == 0) {
            m_end = End::CutOff;
            return;
        }
        const int byte = *m_zs->next_in++;
        --m_zs->avail_in;
        inflatePrime(m_zs.get(), point.bits, byte >> (8 - point.bits));
    }
    if (!point.window.empty())
        inflateSetDictionary(m_zs.get(), point.window.data(), uInt(point.window.size()));
}

void GzipInflater::restartAt(uint64_t start, uint64_t stopAt)
{
    m_consumed = start;
    m_stopAt = stopAt;
    m_fileEnd = false;
    m_raw = false;
    m_end = End::NotYet;
    m_corruptReason.clear();
    m_corruptAt = 0;
    m_textOffset = 0;
    m_readSize = kFirstRead;
    m_index = nullptr;
    m_zs->next_in = nullptr;
    m_zs->avail_in = 0;
    if (!m_zlibReady)
        init(16 + MAX_WBITS);
    else if (inflateReset2(m_zs.get(), 16 + MAX_WBITS) != Z_OK)
        corrupt("cannot initialise zlib");
}

GzipInflater::~GzipInflater()
{
    if (m_zlibReady)
        inflateEnd(m_zs.get());
}

void GzipInflater::init(int windowBits)
{
    *m_zs = z_stream {};
    const int rc = inflateInit2(m_zs.get(), windowBits);
    if (rc == Z_MEM_ERROR)
        throw std::bad_alloc();
    m_zlibReady = rc == Z_OK;
    if (!m_zlibReady)
        corrupt("cannot initialise zlib");
}

uint64_t GzipInflater::compressedOffset() const
{
    return m_consumed - m_zs->avail_in;
}

void GzipInflater::refill()
{
    const ssize_t n = ::pread(m_fd, m_in.get(), m_readSize, off_t(m_consumed));
    m_readSize = std::min(kInSize, 2 * m_readSize);
    if (n <= 0) {
        m_fileEnd = true;
        return;
    }
    m_zs->next_in = m_in.get();
    m_zs->avail_in = uInt(n);
    m_consumed += uint64_t(n);
}

void GzipInflater::fillAtLeast(size_t bytes)
{
    z_stream &zs = *m_zs;
    if (zs.avail_in >= bytes || m_fileEnd)
        return;
    // Keep what is left, at the buffer's start, and read on after it.
    std::memmove(m_in.get(), zs.next_in, zs.avail_in);
    const ssize_t n
        = ::pread(m_fd, m_in.get() + zs.avail_in, kInSize - zs.avail_in, off_t(m_consumed));
    zs.next_in = m_in.get();
    if (n <= 0) {
        m_fileEnd = true;
        return;
    }
    zs.avail_in += uInt(n);
    m_consumed += uint64_t(n);
}

bool GzipInflater::skipInput(size_t bytes)
{
    while (bytes > 0) {
        if (m_zs->avail_in == 0 && !m_fileEnd)
            refill();
        if (m_zs->avail_in == 0)
            return false;
        const uInt n = uInt(std::min<size_t>(bytes, m_zs->avail_in));
        m_zs->next_in += n;
        m_zs->avail_in -= n;
        bytes -= n;
    }
    return true;
}

void GzipInflater::corrupt(const char *reason)
{
    m_corruptReason = reason;
    m_corruptAt = compressedOffset();
    m_end = End::Corrupt;
}

size_t GzipInflater::read(char *out, size_t size)
{
    z_stream &zs = *m_zs;
    size_t done = 0;
    while (done < size && m_end == End::NotYet) {
        if (zs.avail_in == 0 && !m_fileEnd)
            refill();
        if (zs.avail_in == 0 && m_fileEnd) {
            m_end = End::CutOff; // the file ends inside a member
            break;
        }
        // When recording: inflate up to where the next point is due, then on to the next block
        // boundary (Z_BLOCK stops there) so that the point is not missed.
        size_t room = size - done;
        int flush = Z_NO_FLUSH;
        const uint64_t due = m_index && !m_index->points.empty()
            ? m_index->points.back().textOffset + kSeekSpan
            : 0;
        if (m_index && m_textOffset >= due)
            flush = Z_BLOCK;
        else if (m_index)
            room = size_t(std::min<uint64_t>(room, due - m_textOffset));
        zs.next_out = reinterpret_cast<Bytef *>(out + done);
        zs.avail_out = uInt(room);
        const int rc = ::inflate(&zs, flush);
        const size_t produced = room - zs.avail_out;
        done += produced;
        m_textOffset += produced;
        if (rc == Z_MEM_ERROR)
            throw std::bad_alloc();
        // 128: between two blocks; 64: in the member's last block, whose end is no place to
        // start from (the trailer follows).
        if (m_index && m_textOffset >= due && (zs.data_type & 128) && !(zs.data_type & 64))
            recordPoint();
        if (rc == Z_STREAM_END)
            nextMember();
        else if (rc != Z_OK && rc != Z_BUF_ERROR)
            corrupt(zs.msg ? zs.msg : "corrupt gzip data");
    }
    return done;
}

void GzipInflater::nextMember()
{
    z_stream &zs = *m_zs;
    // Raw deflate data leaves the member's trailer (CRC-32 and length, 8 bytes) to us.
    if (m_raw && !skipInput(8)) {
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
    if (zs.avail_in == 0) {
        m_end = End::Clean;
        return;
    }
    if (beginsMember(zs.next_in, zs.avail_in)) {
        if (m_raw)
            inflateReset2(&zs, 16 + MAX_WBITS);
        else
            inflateReset(&zs);
        m_raw = false;
        return;
    }
    m_end = End::TrailingGarbage;
}

void GzipInflater::recordPoint()
{
    z_stream &zs = *m_zs;
    SeekPoint point;
    point.bits = uint8_t(zs.data_type & 7);
    // With bits left over, the next block starts inside the last byte zlib took.
    point.compressedOffset = compressedOffset() - (point.bits > 0 ? 1 : 0);
    point.textOffset = m_textOffset;
    // The window holds only this member's text (a new member starts with none).
    uInt length = 0;
    inflateGetDictionary(&zs, nullptr, &length);
    point.window.resize(length);
    inflateGetDictionary(&zs, point.window.data(), &length);
    m_index->points.push_back(std::move(point));
}

} // namespace ks
