// SPDX-License-Identifier: MIT
#include "gzipmembers.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <unistd.h>

namespace ks {

namespace {
constexpr size_t kHeaderSize = 10;
constexpr size_t kScanBlock = size_t(1) << 20;
constexpr size_t kAheadOfReader = 4; //!< chunks the front stretch's worker may have ready
constexpr size_t kPerWorker = 4; //!< stretches queued, and chunks ready, per worker
} // namespace

bool memberHeaderAt(const unsigned char *p)
{
    const unsigned char flags = p[3], extraFlags = p[8], system = p[9];
    return p[0] == 0x1f && p[1] == 0x8b && p[2] == 8 && (flags & 0xe0) == 0
        && (extraFlags == 0 || extraFlags == 2 || extraFlags == 4)
        && (system <= 13 || system == 255);
}

struct GzipMembers::Stretch {
    explicit Stretch(uint64_t at)
        : start(at)
    {
    }
    const uint64_t start; //!< the first member's header
    bool claimed = false;
    bool done = false;
    bool abandoned = false; //!< not where the text goes on after all, or no longer needed
    bool outOfMemory = false;
    std::deque<TextChunk> ready;
    GzipInflater::End end = GzipInflater::End::NotYet;
    std::string corruptReason;
    uint64_t corruptAt = 0;
    uint64_t after = 0; //!< the compressed byte after its last member, when it ended cleanly
    GzipIndex points; //!< text offsets from the stretch's start
};

GzipMembers::GzipMembers(int fd,
    Inflater inflater,
    uint64_t fileSize,
    unsigned workers,
    GzipIndex *index,
    uint64_t stretchBytes)
    : m_fd(fd)
    , m_inflater(inflater)
    , m_fileSize(fileSize)
    , m_stretchBytes(std::max<uint64_t>(1, stretchBytes))
    , m_window(kPerWorker * workers)
    , m_budget(kPerWorker * workers)
    , m_index(index)
    , m_scan(fd, fileSize)
    , m_scanFrom(m_stretchBytes)
{
    m_stretches.push_back(std::make_shared<Stretch>(0));
    try {
        for (unsigned i = 0; i < workers; ++i)
            m_workers.emplace_back([this] { work(); });
    } catch (...) {
        stop();
        for (std::thread &t : m_workers)
            t.join();
        throw;
    }
}

GzipMembers::~GzipMembers()
{
    stop();
    for (std::thread &t : m_workers)
        t.join();
}

void GzipMembers::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
}

void GzipMembers::work()
{
    std::unique_ptr<GzipInflater> gzip; // one per worker, started again for each stretch
    std::unique_lock lock(m_mutex);
    while (std::shared_ptr<Stretch> stretch = claim(lock)) {
        lock.unlock();
        const uint64_t stopAt = stretch->start + m_stretchBytes;
        try {
            if (gzip)
                gzip->restartAt(stretch->start, stopAt);
            else
                gzip = std::make_unique<GzipInflater>(m_fd, m_inflater, stretch->start, stopAt);
            inflate(*gzip, *stretch);
        } catch (const std::bad_alloc &) {
            gzip.reset();
            std::lock_guard relock(m_mutex);
            stretch->outOfMemory = true;
            stretch->done = true;
        }
        lock.lock();
        m_changed.notify_all();
    }
}

MemberHeaderScan::MemberHeaderScan(int fd, uint64_t fileSize)
    : m_fd(fd)
    , m_fileSize(fileSize)
{
}

uint64_t MemberHeaderScan::next(uint64_t from, const std::atomic<bool> &stop)
{
    while (from + kHeaderSize <= m_fileSize && !stop) {
        if (from < m_blockStart || from + kHeaderSize > m_blockStart + m_blockBytes) {
            m_block.resize(kScanBlock);
            const ssize_t n = ::pread(m_fd, m_block.data(), m_block.size(), off_t(from));
            if (n < ssize_t(kHeaderSize))
                break;
            m_blockStart = from;
            m_blockBytes = size_t(n);
        }
        const unsigned char *base = m_block.data();
        const unsigned char *p = base + (from - m_blockStart);
        const unsigned char *last = base + m_blockBytes - kHeaderSize; // a whole header fits
        while (
            (p = static_cast<const unsigned char *>(std::memchr(p, 0x1f, size_t(last - p) + 1)))) {
            if (memberHeaderAt(p))
                return m_blockStart + uint64_t(p - base);
            ++p;
        }
        from = m_blockStart + uint64_t(last - base) + 1; // the next block starts here
    }
    return m_fileSize;
}

std::shared_ptr<GzipMembers::Stretch> GzipMembers::claim(std::unique_lock<std::mutex> &lock)
{
    for (;;) {
        if (m_stop)
            return nullptr;
        for (const std::shared_ptr<Stretch> &stretch : m_stretches) {
            if (!stretch->claimed) {
                stretch->claimed = true;
                return stretch;
            }
        }
        if (!m_scanning && m_scanFrom < m_fileSize && m_stretches.size() < m_window) {
            m_scanning = true;
            const uint64_t from = m_scanFrom;
            const unsigned generation = m_scanGeneration;
            lock.unlock();
            // Without memory for scanning the reader still finds each stretch where the one
            // before it ends, one after another.
            uint64_t found = m_fileSize;
            try {
                found = m_scan.next(from, m_stop);
            } catch (const std::bad_alloc &) {
            }
            lock.lock();
            m_scanning = false;
            if (generation == m_scanGeneration) {
                m_scanFrom = found < m_fileSize ? found + m_stretchBytes : m_fileSize;
                try {
                    if (found < m_fileSize)
                        m_stretches.push_back(std::make_shared<Stretch>(found));
                } catch (const std::bad_alloc &) {
                    m_scanFrom = m_fileSize;
                }
                m_changed.notify_all();
            }
            continue;
        }
        m_changed.wait(lock);
    }
}

bool GzipMembers::hasRoom(const Stretch &stretch) const
{
    // The front stretch is the one being read: it never waits for the others.
    if (m_stretches.front().get() == &stretch)
        return stretch.ready.size() < kAheadOfReader;
    return m_ready < m_budget;
}

void GzipMembers::inflate(GzipInflater &gzip, Stretch &stretch)
{
    gzip.recordSeekPoints(&stretch.points); // read by the reader only once the stretch is done
    for (;;) {
        TextChunk chunk = m_buffers.take();
        while (!gzip.ended() && chunk.size == 0)
            chunk.size = gzip.read(chunk.data.get(), kTextChunkSize);
        chunk.compressedEnd = gzip.compressedOffset();
        std::unique_lock lock(m_mutex);
        if (chunk.size > 0) {
            m_changed.wait(lock, [&] { return m_stop || stretch.abandoned || hasRoom(stretch); });
            if (m_stop || stretch.abandoned)
                return; // the chunk's buffer is freed
            stretch.ready.push_back(std::move(chunk));
            ++m_ready;
            m_changed.notify_all();
        } else {
            m_buffers.keep(std::move(chunk));
        }
        if (gzip.ended()) {
            stretch.end = gzip.end();
            stretch.corruptReason = gzip.corruptReason();
            stretch.corruptAt = gzip.corruptAt();
            stretch.after = gzip.compressedOffset();
            stretch.done = true;
            return;
        }
    }
}

bool GzipMembers::next(TextChunk &chunk)
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        if (m_finished || m_stop)
            return false;
        Stretch &stretch = *m_stretches.front();
        if (!stretch.ready.empty()) {
            m_buffers.keep(std::move(chunk));
            chunk = std::move(stretch.ready.front());
            stretch.ready.pop_front();
            --m_ready;
            m_textSeen += chunk.size;
            m_changed.notify_all();
            return true;
        }
        if (stretch.done)
            moveOn();
        else
            m_changed.wait(lock);
    }
}

void GzipMembers::moveOn()
{
    const std::shared_ptr<Stretch> stretch = m_stretches.front();
    if (stretch->outOfMemory)
        throw std::bad_alloc();
    m_index->inflater = stretch->points.inflater; // the workers' engines are of one kind
    for (SeekPoint &point : stretch->points.points) {
        point.textOffset += m_stretchText;
        point.memberText += m_stretchText;
        m_index->points.push_back(std::move(point));
    }
    m_stretchText = m_textSeen;
    auto finish = [&](GzipInflater::End end) {
        m_end = end;
        m_finished = true;
    };
    if (stretch->end != GzipInflater::End::Clean) {
        m_corruptReason = stretch->corruptReason;
        m_corruptAt = stretch->corruptAt;
        finish(stretch->end);
        return;
    }
    const uint64_t after = stretch->after;
    unsigned char next[2];
    const ssize_t n = ::pread(m_fd, next, sizeof next, off_t(after));
    if (n <= 0) {
        finish(GzipInflater::End::Clean);
        return;
    }
    if (!beginsMember(next, size_t(n))) {
        finish(GzipInflater::End::TrailingGarbage);
        return;
    }
    // The text goes on at the stretch that starts where this one ended; those before it began
    // inside this one's members.
    const auto from = std::find_if(m_stretches.begin(), m_stretches.end(),
        [&](const std::shared_ptr<Stretch> &s) { return s->start >= after; });
    if (from == m_stretches.end() || (*from)->start != after) {
        // None does (a header the scan missed, or it has not got there): start one there.
        auto restart = std::make_shared<Stretch>(after);
        while (!m_stretches.empty())
            abandonFront();
        m_stretches.push_back(std::move(restart));
        m_scanFrom = after + m_stretchBytes;
        ++m_scanGeneration;
    } else {
        while (m_stretches.front()->start < after)
            abandonFront();
    }
    m_changed.notify_all();
}

void GzipMembers::abandonFront()
{
    Stretch &stretch = *m_stretches.front();
    stretch.abandoned = true;
    m_ready -= stretch.ready.size();
    stretch.ready.clear();
    m_stretches.pop_front();
    m_changed.notify_all();
}

} // namespace ks
