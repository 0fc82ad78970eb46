// SPDX-License-Identifier: MIT
#include "inputfile.h"

#include "base/errnotext.h"

#include "gzipmembers.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace ks {

InputFile::~InputFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

std::unique_ptr<InputFile> InputFile::open(const std::string &path, std::string &error)
{
    // O_NONBLOCK keeps open() from waiting for a writer on a FIFO; fstat then rejects it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        error = errnoText(errno);
        return nullptr;
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        error = errnoText(errno);
        ::close(fd);
        return nullptr;
    }
    if (S_ISDIR(st.st_mode)) {
        error = "is a directory";
        ::close(fd);
        return nullptr;
    }
    if (!S_ISREG(st.st_mode)) {
        error = "not a regular file";
        ::close(fd);
        return nullptr;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    std::unique_ptr<InputFile> file(new InputFile);
    file->m_fd = fd;
    file->m_size = uint64_t(st.st_size);
    unsigned char magic[2] = {0, 0};
    if (file->m_size >= 2 && ::pread(fd, magic, 2, 0) == 2)
        file->m_compressed = magic[0] == 0x1f && magic[1] == 0x8b;
    file->m_textSizeHint = file->m_compressed ? 0 : file->m_size;
    unsigned char trailer[4] = {0, 0, 0, 0};
    if (file->m_compressed && file->m_size >= 18
        && ::pread(fd, trailer, 4, off_t(file->m_size - 4)) == 4) {
        const uint64_t isize = uint64_t(trailer[0]) | uint64_t(trailer[1]) << 8
            | uint64_t(trailer[2]) << 16 | uint64_t(trailer[3]) << 24;
        file->m_textSizeHint = isize >= file->m_size ? isize : 0; // JSON never inflates to less
    }
    return file;
}

namespace {
// Chunks the reader may run ahead of the parser. A segment's reader (one of several side by
// side, from the page cache) keeps fewer: each buffer is 1 MB of resident memory.
constexpr size_t kMaxReady = 4;
constexpr size_t kMaxReadySlice = 2;
} // namespace

ChunkedText::ChunkedText(const InputFile &file, Reader reader, unsigned inflaters)
    : ChunkedText(file, TextSlice {}, reader, inflaters)
{
}

ChunkedText::ChunkedText(const InputFile &file,
    TextSlice slice,
    Reader reader,
    unsigned inflaters,
    const GzipIndex *points,
    bool record)
    : m_fd(file.fd())
    , m_compressed(file.compressed())
    , m_inflater(file.inflater())
    , m_reader(reader)
    , m_offset(slice.begin)
    , m_slice(std::move(slice))
    , m_startPoints(points)
    , m_record(record)
{
    if (m_compressed && inflaters > 1 && !points) {
        try {
            m_members = std::make_unique<GzipMembers>(
                m_fd, file.inflater(), file.size(), inflaters, &m_index);
            m_reader = Reader::Caller; // the members' workers run ahead already
        } catch (const std::system_error &) {
            // No threads to be had for them: one inflater, as with inflaters = 1.
        }
    }
    if (m_reader == Reader::Caller)
        return;
    try {
        m_thread = std::thread([this] {
            try {
                Chunk chunk;
                while (takeBuffer(chunk) && fill(chunk))
                    publish(chunk);
            } catch (const std::bad_alloc &) {
                m_outOfMemory = true; // the text ends here; the loader fails with the offset
            }
            finish();
        });
    } catch (const std::system_error &) {
        m_reader = Reader::Caller; // no thread to be had: next() reads each chunk itself
    }
}

ChunkedText::~ChunkedText()
{
    stop();
    m_members.reset(); // its workers stop before the index it writes into goes
}

void ChunkedText::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

GzipIndex ChunkedText::takeIndex()
{
    stop();
    return std::move(m_index);
}

ChunkedText::Chunk ChunkedText::next()
{
    if (m_reader == Reader::Caller) {
        try {
            Chunk chunk = m_buffers.take();
            if (fill(chunk))
                return chunk;
        } catch (const std::bad_alloc &) {
            m_outOfMemory = true;
        }
        return {};
    }
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return !m_ready.empty() || m_done; });
    if (m_ready.empty())
        return {};
    Chunk c = std::move(m_ready.front());
    m_ready.pop_front();
    lock.unlock();
    m_changed.notify_all();
    return c;
}

void ChunkedText::recycle(Chunk chunk)
{
    m_buffers.keep(std::move(chunk));
}

bool ChunkedText::takeBuffer(Chunk &chunk)
{
    {
        std::unique_lock lock(m_mutex);
        const size_t ahead
            = m_slice.head.empty() && m_slice.tail.empty() ? kMaxReady : kMaxReadySlice;
        m_changed.wait(lock, [&] { return m_ready.size() < ahead || m_stop; });
        if (m_stop)
            return false;
    }
    chunk = m_buffers.take();
    return true;
}

void ChunkedText::publish(Chunk &chunk)
{
    std::lock_guard lock(m_mutex);
    m_ready.push_back(std::move(chunk));
    chunk = Chunk();
    m_changed.notify_all();
}

void ChunkedText::finish()
{
    std::lock_guard lock(m_mutex);
    m_done = true;
    m_changed.notify_all();
}

bool ChunkedText::fill(Chunk &chunk)
{
    if (!fillBody(chunk))
        return false;
    chunk.data[chunk.size] = 0;
    return true;
}

bool ChunkedText::fillBody(Chunk &chunk)
{
    auto copy = [&](const std::string &text) {
        chunk.size = std::min(text.size(), kChunkSize);
        std::memcpy(chunk.data.get(), text.data(), chunk.size);
        chunk.compressedEnd = m_compressed ? 0 : m_slice.begin;
    };
    if (m_stage == Stage::Head) {
        m_stage = Stage::Body;
        if (!m_slice.head.empty()) {
            copy(m_slice.head);
            return true;
        }
    }
    if (m_stage == Stage::Body) {
        if (m_compressed ? fillInflated(chunk) : fillPlain(chunk))
            return true;
        m_stage = Stage::Tail;
    }
    if (m_stage == Stage::Tail) {
        m_stage = Stage::Done;
        if (!m_slice.tail.empty()) {
            copy(m_slice.tail);
            return true;
        }
    }
    return false;
}

bool ChunkedText::fillPlain(Chunk &chunk)
{
    // A slice without a tail runs to the end of the file, as the whole text does.
    const uint64_t left
        = m_slice.tail.empty() ? kChunkSize : m_slice.end - std::min(m_offset, m_slice.end);
    const size_t want = size_t(std::min<uint64_t>(kChunkSize, left));
    const ssize_t n = want ? ::pread(m_fd, chunk.data.get(), want, off_t(m_offset)) : 0;
    if (n <= 0)
        return false;
    m_offset += uint64_t(n);
    chunk.size = size_t(n);
    chunk.compressedEnd = m_offset;
    return true;
}

bool ChunkedText::keepSliced(Chunk &chunk)
{
    const uint64_t at = m_inflated;
    m_inflated += chunk.size;
    if (at >= m_slice.begin)
        return chunk.size > 0;
    const uint64_t drop = std::min<uint64_t>(chunk.size, m_slice.begin - at);
    chunk.size -= size_t(drop);
    std::memmove(chunk.data.get(), chunk.data.get() + drop, chunk.size);
    return chunk.size > 0;
}

bool ChunkedText::fillInflated(Chunk &chunk)
{
    if (m_members)
        return fillFromMembers(chunk);
    if (!m_gzip) {
        m_gzip = GzipInflater::nearest(m_fd, m_startPoints, m_inflater, m_slice.begin);
        m_inflated = m_gzip->textOffset();
        if (m_record)
            m_gzip->recordSeekPoints(&m_index);
    }
    while (!m_gzip->ended()) {
        // A slice with a tail ends at its end, where the text goes on.
        const uint64_t left
            = m_slice.tail.empty() ? kChunkSize : m_slice.end - std::min(m_inflated, m_slice.end);
        if (left == 0)
            return false;
        chunk.size = m_gzip->read(chunk.data.get(), size_t(std::min<uint64_t>(kChunkSize, left)));
        chunk.compressedEnd = m_gzip->compressedOffset();
        if (keepSliced(chunk))
            return true;
    }
    noteEnd(m_gzip->end(), m_gzip->corruptReason(), m_gzip->corruptAt());
    return false;
}

bool ChunkedText::fillFromMembers(Chunk &chunk)
{
    while (m_members->next(chunk)) {
        if (keepSliced(chunk))
            return true;
    }
    noteEnd(m_members->end(), m_members->corruptReason(), m_members->corruptAt());
    return false;
}

TextEnd ChunkedText::textEnd() const
{
    return {m_outOfMemory, m_cutOff, m_trailingGarbage, m_corruptReason, m_corruptAt};
}

void ChunkedText::noteEnd(
    GzipInflater::End end, const std::string &corruptReason, uint64_t corruptAt)
{
    m_cutOff = end == GzipInflater::End::CutOff;
    m_trailingGarbage = end == GzipInflater::End::TrailingGarbage;
    m_corruptReason = corruptReason;
    m_corruptAt = corruptAt;
}

ChunkStream::ChunkStream(ChunkedText &source)
    : m_source(source)
{
    m_cur = m_base = m_last = m_empty;
    advance();
}

ChunkStream::~ChunkStream()
{
    m_source.recycle(std::move(m_chunk));
}

void ChunkStream::advance()
{
    if (m_end)
        return;
    if (m_chunk.data) {
        m_chunkOffset += m_chunk.size;
        const uint64_t compressed = m_chunk.compressedEnd;
        m_source.recycle(std::move(m_chunk));
        m_chunk = ChunkedText::Chunk();
        m_chunk.compressedEnd = compressed;
    }
    ChunkedText::Chunk next = m_source.next();
    if (next.size == 0) {
        m_end = true;
        m_cur = m_base = m_last = m_empty;
        m_chunk.size = 0;
        return;
    }
    m_chunk = std::move(next);
    m_cur = m_base = m_chunk.data.get();
    m_last = m_cur + m_chunk.size - 1;
}

} // namespace ks
