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
constexpr size_t kAheadPerMember = 4; //!< chunks the front member's worker may have ready
constexpr size_t kPerWorker = 4; //!< members queued, and chunks ready, per worker
} // namespace

bool memberHeaderAt(const unsigned char *p)
{
    const unsigned char flags = p[3], extraFlags = p[8], system = p[9];
    return p[0] == 0x1f && p[1] == 0x8b && p[2] == 8 && (flags & 0xe0) == 0
        && (extraFlags == 0 || extraFlags == 2 || extraFlags == 4)
        && (system <= 13 || system == 255);
}

struct GzipMembers::Member {
    explicit Member(uint64_t at)
        : start(at)
    {
    }
    const uint64_t start; //!< the header's first byte
    bool claimed = false;
    bool done = false;
    bool abandoned = false; //!< not a member of the text after all, or no longer needed
    bool outOfMemory = false;
    std::deque<TextChunk> ready;
    GzipInflater::End end = GzipInflater::End::NotYet;
    std::string corruptReason;
    uint64_t corruptAt = 0;
    uint64_t after = 0; //!< the compressed byte after the member, when it ended cleanly
    GzipIndex points; //!< text offsets from the member's start
};

GzipMembers::GzipMembers(int fd, uint64_t fileSize, unsigned workers, GzipIndex *index)
    : m_fd(fd)
    , m_fileSize(fileSize)
    , m_window(kPerWorker * workers)
    , m_budget(kPerWorker * workers)
    , m_index(index)
{
    m_members.push_back(std::make_shared<Member>(0));
    try {
        for (unsigned i = 0; i < workers; ++i)
            m_workers.emplace_back([this] { work(); });
    } catch (...) {
        m_stop = true;
        m_changed.notify_all();
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
    std::unique_lock lock(m_mutex);
    while (std::shared_ptr<Member> member = claim(lock)) {
        lock.unlock();
        try {
            inflate(*member);
        } catch (const std::bad_alloc &) {
            std::lock_guard relock(m_mutex);
            member->outOfMemory = true;
            member->done = true;
        }
        lock.lock();
        m_changed.notify_all();
    }
}

namespace {

//! The first member header candidate at or after \a from, or \a size; stops early on \a stop.
uint64_t scanForHeader(int fd, uint64_t from, uint64_t size, const std::atomic<bool> &stop)
{
    std::vector<unsigned char> block(kScanBlock + kHeaderSize);
    while (from + kHeaderSize <= size && !stop) {
        const ssize_t n = ::pread(fd, block.data(), block.size(), off_t(from));
        if (n < ssize_t(kHeaderSize))
            break;
        const unsigned char *p = block.data(), *end = p + n - kHeaderSize + 1;
        while ((p = static_cast<const unsigned char *>(std::memchr(p, 0x1f, size_t(end - p))))) {
            if (memberHeaderAt(p))
                return from + uint64_t(p - block.data());
            ++p;
        }
        from += uint64_t(n) - kHeaderSize + 1;
    }
    return size;
}

} // namespace

std::shared_ptr<GzipMembers::Member> GzipMembers::claim(std::unique_lock<std::mutex> &lock)
{
    for (;;) {
        if (m_stop)
            return nullptr;
        for (const std::shared_ptr<Member> &member : m_members) {
            if (!member->claimed) {
                member->claimed = true;
                return member;
            }
        }
        if (!m_scanning && m_scanFrom < m_fileSize && m_members.size() < m_window) {
            m_scanning = true;
            const uint64_t from = m_scanFrom;
            const unsigned generation = m_scanGeneration;
            lock.unlock();
            // Without memory for scanning the reader still finds each member where the one
            // before it ends, one after another.
            uint64_t found = m_fileSize;
            try {
                found = scanForHeader(m_fd, from, m_fileSize, m_stop);
            } catch (const std::bad_alloc &) {
            }
            lock.lock();
            m_scanning = false;
            if (generation == m_scanGeneration) {
                m_scanFrom = found + 1;
                try {
                    if (found < m_fileSize)
                        m_members.push_back(std::make_shared<Member>(found));
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

bool GzipMembers::hasRoom(const Member &member) const
{
    // The front member is the one being read: it never waits for the others.
    if (m_members.front().get() == &member)
        return member.ready.size() < kAheadPerMember;
    return m_ready < m_budget;
}

void GzipMembers::inflate(Member &member)
{
    GzipInflater gzip(m_fd, member.start, GzipInflater::Extent::OneMember);
    gzip.recordSeekPoints(&member.points); // read by the reader only once the member is done
    for (;;) {
        TextChunk chunk = takeBuffer();
        while (!gzip.ended() && chunk.size == 0)
            chunk.size = gzip.read(chunk.data.get(), kTextChunkSize);
        chunk.compressedEnd = gzip.compressedOffset();
        std::unique_lock lock(m_mutex);
        if (chunk.size > 0) {
            m_changed.wait(lock, [&] { return m_stop || member.abandoned || hasRoom(member); });
            if (m_stop || member.abandoned)
                return; // the chunk's buffer is freed
            member.ready.push_back(std::move(chunk));
            ++m_ready;
            m_changed.notify_all();
        } else {
            keepBuffer(std::move(chunk));
        }
        if (gzip.ended()) {
            member.end = gzip.end();
            member.corruptReason = gzip.corruptReason();
            member.corruptAt = gzip.corruptAt();
            member.after = gzip.compressedOffset();
            member.done = true;
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
        Member &member = *m_members.front();
        if (!member.ready.empty()) {
            keepBuffer(std::move(chunk));
            chunk = std::move(member.ready.front());
            member.ready.pop_front();
            --m_ready;
            m_textSeen += chunk.size;
            m_changed.notify_all();
            return true;
        }
        if (member.done)
            moveOn();
        else
            m_changed.wait(lock);
    }
}

void GzipMembers::moveOn()
{
    const std::shared_ptr<Member> member = m_members.front();
    if (member->outOfMemory)
        throw std::bad_alloc();
    for (SeekPoint &point : member->points.points) {
        point.textOffset += m_memberText;
        m_index->points.push_back(std::move(point));
    }
    m_memberText = m_textSeen;
    abandonFront();
    auto finish = [&](GzipInflater::End end) {
        m_end = end;
        m_finished = true;
    };
    if (member->end != GzipInflater::End::Clean) {
        m_corruptReason = member->corruptReason;
        m_corruptAt = member->corruptAt;
        finish(member->end);
        return;
    }
    // Candidates before the member's end lay in its data.
    const uint64_t after = member->after;
    while (!m_members.empty() && m_members.front()->start < after)
        abandonFront();
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
    if (m_members.empty() || m_members.front()->start != after) {
        // A member the scan did not find (or not yet): start again from it.
        while (!m_members.empty())
            abandonFront();
        m_members.push_back(std::make_shared<Member>(after));
        m_scanFrom = after + 1;
        ++m_scanGeneration;
    }
    m_changed.notify_all();
}

void GzipMembers::abandonFront()
{
    Member &member = *m_members.front();
    member.abandoned = true;
    m_ready -= member.ready.size();
    member.ready.clear();
    m_members.pop_front();
    m_changed.notify_all();
}

TextChunk GzipMembers::takeBuffer()
{
    TextChunk chunk;
    {
        std::lock_guard lock(m_mutex);
        if (!m_free.empty()) {
            chunk = std::move(m_free.back());
            m_free.pop_back();
        }
    }
    if (!chunk.data)
        chunk.data = std::make_unique<char[]>(kTextChunkSize + 1);
    chunk.size = 0;
    return chunk;
}

void GzipMembers::keepBuffer(TextChunk chunk)
{
    if (!chunk.data)
        return;
    try {
        m_free.push_back(std::move(chunk));
    } catch (const std::bad_alloc &) {
        // No room to keep it: the buffer is freed.
    }
}

} // namespace ks
