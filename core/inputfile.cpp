// SPDX-License-Identifier: MIT
#include "inputfile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
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

MappedText::MappedText(const InputFile &file)
    : m_size(file.size())
{
    // Reserve one page more than the file and map the file over the start: the extra page is
    // anonymous memory and reads as zero, the end marker the stream relies on.
    const uint64_t page = uint64_t(::sysconf(_SC_PAGESIZE));
    m_mappedBytes = (m_size / page + 1) * page;
    void *area = ::mmap(nullptr, m_mappedBytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (area == MAP_FAILED)
        return;
    if (m_size > 0) {
        void *mapped = ::mmap(area, m_size, PROT_READ, MAP_PRIVATE | MAP_FIXED, file.fd(), 0);
        if (mapped == MAP_FAILED) {
            ::munmap(area, m_mappedBytes);
            return;
        }
        ::madvise(area, m_size, MADV_SEQUENTIAL);
    }
    m_data = static_cast<char *>(area);
}

MappedText::~MappedText()
{
    if (m_data)
        ::munmap(m_data, m_mappedBytes);
}

void MappedText::releaseBefore(uint64_t offset)
{
    const uint64_t page = uint64_t(::sysconf(_SC_PAGESIZE));
    const uint64_t end = offset / page * page;
    if (!m_data || end <= m_released)
        return;
    // Clean file pages: dropping them costs nothing and a later read would fault them back in.
    ::madvise(m_data + m_released, end - m_released, MADV_DONTNEED);
    m_released = end;
}

GzipText::GzipText(const InputFile &file)
    : m_fd(file.fd())
    , m_fileSize(file.size())
{
    m_thread = std::thread([this] { run(); });
}

GzipText::~GzipText()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

GzipText::Chunk GzipText::next()
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

void GzipText::recycle(Chunk chunk)
{
    if (!chunk.data)
        return;
    std::lock_guard lock(m_mutex);
    m_free.push_back(std::move(chunk));
}

void GzipText::run()
{
    constexpr size_t kInSize = 256 * 1024;
    constexpr size_t kMaxReady = 8; // how far the inflater may run ahead of the parser
    auto in = std::make_unique<unsigned char[]>(kInSize);
    z_stream zs {};
    // 16 + MAX_WBITS: gzip wrapper only.
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        std::lock_guard lock(m_mutex);
        m_corruptReason = "cannot initialise zlib";
        m_done = true;
        m_changed.notify_all();
        return;
    }
    uint64_t consumed = 0; // compressed bytes handed to zlib
    bool finished = false; // the last member ended cleanly
    bool fileEnd = false;
    Chunk chunk;
    auto takeBuffer = [&] {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_ready.size() < kMaxReady || m_stop; });
        if (!m_free.empty()) {
            chunk = std::move(m_free.front());
            m_free.pop_front();
        }
        if (!chunk.data)
            chunk.data = std::make_unique<char[]>(kChunkSize + 1);
        chunk.size = 0;
    };
    auto publish = [&] {
        chunk.data[chunk.size] = 0;
        chunk.compressedEnd = consumed - zs.avail_in;
        std::lock_guard lock(m_mutex);
        m_ready.push_back(std::move(chunk));
        chunk = Chunk();
        m_changed.notify_all();
    };
    auto stopping = [&] {
        std::lock_guard lock(m_mutex);
        return m_stop;
    };

    takeBuffer();
    while (!stopping()) {
        if (zs.avail_in == 0 && !fileEnd) {
            const ssize_t n = ::pread(m_fd, in.get(), kInSize, off_t(consumed));
            if (n <= 0) {
                fileEnd = true;
            } else {
                zs.next_in = in.get();
                zs.avail_in = uInt(n);
                consumed += uint64_t(n);
            }
        }
        if (zs.avail_in == 0 && fileEnd) {
            if (!finished)
                m_cutOff = true;
            break;
        }
        zs.next_out = reinterpret_cast<Bytef *>(chunk.data.get() + chunk.size);
        zs.avail_out = uInt(kChunkSize - chunk.size);
        finished = false;
        const int rc = inflate(&zs, Z_NO_FLUSH);
        chunk.size = kChunkSize - zs.avail_out;
        if (chunk.size == kChunkSize) {
            publish();
            takeBuffer();
        }
        if (rc == Z_STREAM_END) {
            finished = true;
            // Concatenated members continue; anything else after the stream is ignored.
            if (zs.avail_in == 0 && !fileEnd) {
                const ssize_t n = ::pread(m_fd, in.get(), kInSize, off_t(consumed));
                if (n > 0) {
                    zs.next_in = in.get();
                    zs.avail_in = uInt(n);
                    consumed += uint64_t(n);
                } else {
                    fileEnd = true;
                }
            }
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
        if (rc == Z_BUF_ERROR && zs.avail_in == 0 && fileEnd) {
            m_cutOff = true;
            break;
        }
    }
    inflateEnd(&zs);
    if (chunk.data && chunk.size > 0)
        publish();
    std::lock_guard lock(m_mutex);
    m_done = true;
    m_changed.notify_all();
    (void)m_fileSize;
}

ChunkStream::ChunkStream(GzipText &source)
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
        m_chunk = GzipText::Chunk();
        m_chunk.compressedEnd = compressed;
    }
    GzipText::Chunk next = m_source.next();
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
