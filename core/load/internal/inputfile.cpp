// SPDX-License-Identifier: MIT
#include "inputfile.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

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
        error = std::strerror(errno);
        return nullptr;
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        error = std::strerror(errno);
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
    return file;
}

namespace {
constexpr size_t kMaxReady = 4; // chunks the reader may run ahead of the parser
} // namespace

ChunkedText::ChunkedText(const InputFile &file, uint64_t plainOffset)
    : m_fd(file.fd())
{
    m_thread = std::thread([this, compressed = file.compressed(), plainOffset] {
        if (compressed)
            inflate();
        else
            read(plainOffset);
        finish();
    });
}

ChunkedText::~ChunkedText()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

ChunkedText::Chunk ChunkedText::next()
{
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
    if (!chunk.data)
        return;
    std::lock_guard lock(m_mutex);
    m_free.push_back(std::move(chunk));
}

bool ChunkedText::takeBuffer(Chunk &chunk)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_ready.size() < kMaxReady || m_stop; });
    if (m_stop)
        return false;
    if (!m_free.empty()) {
        chunk = std::move(m_free.front());
        m_free.pop_front();
    }
    lock.unlock();
    if (!chunk.data)
        chunk.data = std::make_unique<char[]>(kChunkSize + 1);
    chunk.size = 0;
    return true;
}

void ChunkedText::publish(Chunk &chunk)
{
    chunk.data[chunk.size] = 0;
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

void ChunkedText::read(uint64_t offset)
{
    Chunk chunk;
    while (takeBuffer(chunk)) {
        const ssize_t n = ::pread(m_fd, chunk.data.get(), kChunkSize, off_t(offset));
        if (n <= 0)
            break;
        offset += uint64_t(n);
        chunk.size = size_t(n);
        chunk.compressedEnd = offset;
        publish(chunk);
    }
}

void ChunkedText::inflate()
{
    constexpr size_t kInSize = 256 * 1024;
    auto in = std::make_unique<unsigned char[]>(kInSize);
    z_stream zs {};
    // 16 + MAX_WBITS: gzip wrapper only.
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        m_corruptReason = "cannot initialise zlib";
        return;
    }
    uint64_t consumed = 0; // compressed bytes handed to zlib
    bool finished = false; // the last member ended cleanly
    bool fileEnd = false;
    auto refill = [&] {
        const ssize_t n = ::pread(m_fd, in.get(), kInSize, off_t(consumed));
        if (n <= 0) {
            fileEnd = true;
            return;
        }
        zs.next_in = in.get();
        zs.avail_in = uInt(n);
        consumed += uint64_t(n);
    };
    Chunk chunk;
    if (!takeBuffer(chunk)) {
        inflateEnd(&zs);
        return;
    }
    while (true) {
        if (zs.avail_in == 0 && !fileEnd)
            refill();
        if (zs.avail_in == 0 && fileEnd) {
            m_cutOff = !finished;
            break;
        }
        zs.next_out = reinterpret_cast<Bytef *>(chunk.data.get() + chunk.size);
        zs.avail_out = uInt(kChunkSize - chunk.size);
        finished = false;
        const int rc = ::inflate(&zs, Z_NO_FLUSH);
        chunk.size = kChunkSize - zs.avail_out;
        if (chunk.size == kChunkSize) {
            chunk.compressedEnd = consumed - zs.avail_in;
            publish(chunk);
            if (!takeBuffer(chunk))
                break;
        }
        if (rc == Z_STREAM_END) {
            finished = true;
            // Concatenated members continue; anything else after the stream is ignored.
            if (zs.avail_in == 0 && !fileEnd)
                refill();
            if (zs.avail_in == 0)
                break;
            if (zs.avail_in >= 2 && zs.next_in[0] == 0x1f && zs.next_in[1] == 0x8b) {
                inflateReset(&zs);
                continue;
            }
            m_trailingGarbage = true;
            break;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            m_corruptReason = zs.msg ? zs.msg : "corrupt gzip data";
            m_corruptAt = consumed - zs.avail_in;
            break;
        }
    }
    inflateEnd(&zs);
    if (chunk.data && chunk.size > 0) {
        chunk.compressedEnd = consumed - zs.avail_in;
        publish(chunk);
    }
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

void ChunkStream::skipTo(uint64_t offset)
{
    while (!m_end && m_chunkOffset + m_chunk.size <= offset)
        advance();
    if (!m_end && offset > Tell())
        m_cur = m_base + (offset - m_chunkOffset);
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
