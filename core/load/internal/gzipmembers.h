// SPDX-License-Identifier: MIT
#pragma once

#include "gzipinflater.h"
#include "textchunk.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ks {

/*!
 * The text of a gzip file inflated on several threads, member by member, and handed out in
 * order: the text, and the end (clean, cut off, corrupt, followed by junk), that one GzipInflater
 * reading member after member gives.
 *
 * A gzip file does not say where its members start, so workers scan the compressed bytes for what
 * looks like a member's header (memberHeaderAt()) and inflate from each such candidate ahead of
 * the reader. A candidate's text is used only once the member before it has ended exactly there:
 * a candidate that is really compressed data inside a member costs work, never a wrong text. A
 * member the scan missed (an unusual header) is inflated from where the member before it ended,
 * as reading one member after another would.
 *
 * Memory stays bounded: a few members ahead, a few chunks ready each, buffers recycled.
 * Seek points are each member's own (one where its data starts, which needs no window, then every
 * GzipInflater::kSeekSpan of its text), moved to offsets in the whole text.
 */
class GzipMembers {
public:
    //! Starts \a workers threads inflating \a fd (\a fileSize bytes, a member at its start).
    GzipMembers(int fd, uint64_t fileSize, unsigned workers, GzipIndex *index);
    ~GzipMembers();
    GzipMembers(const GzipMembers &) = delete;
    GzipMembers &operator=(const GzipMembers &) = delete;

    /*!
     * Moves the next chunk of text into \a chunk, whose buffer is kept for reuse; false at the
     * text's end (end() says why). Throws std::bad_alloc where a worker ran out of memory.
     */
    bool next(TextChunk &chunk);
    //! Makes next() return false from now on.
    void stop();

    GzipInflater::End end() const { return m_end; }
    const std::string &corruptReason() const { return m_corruptReason; }
    uint64_t corruptAt() const { return m_corruptAt; }

private:
    struct Member;

    void work();
    //! Waits for a member to inflate, scanning for more when there is room; null when stopping.
    std::shared_ptr<Member> claim(std::unique_lock<std::mutex> &lock);
    void inflate(Member &member);
    //! Whether \a member's worker may hand over another chunk now.
    bool hasRoom(const Member &member) const;
    // The functions below run with m_mutex held, but for takeBuffer(), which takes it.
    //! The front member has ended: its points join the index, and the text goes on after it.
    void moveOn();
    void abandonFront();
    TextChunk takeBuffer();
    void keepBuffer(TextChunk chunk);

    const int m_fd;
    const uint64_t m_fileSize;
    const size_t m_window; //!< members queued at most (ahead of the reader, and its own)
    const size_t m_budget; //!< chunks ready at most, over all members
    GzipIndex *const m_index;

    std::mutex m_mutex;
    std::condition_variable m_changed;
    //! In file order; the front is the member being read.
    std::deque<std::shared_ptr<Member>> m_members;
    size_t m_ready = 0; //!< chunks waiting, in all members
    std::vector<TextChunk> m_free;
    uint64_t m_scanFrom = 1; //!< where the scan for the next candidate starts
    bool m_scanning = false;
    unsigned m_scanGeneration = 0; //!< a scan started before a restart is ignored
    std::atomic<bool> m_stop {false};
    uint64_t m_memberText = 0; //!< text before the front member
    uint64_t m_textSeen = 0; //!< text handed out
    bool m_finished = false;
    GzipInflater::End m_end = GzipInflater::End::NotYet;
    std::string m_corruptReason;
    uint64_t m_corruptAt = 0;
    std::vector<std::thread> m_workers;
};

/*!
 * Whether the 10 bytes at \a p look like a member's header as gzip, zlib and Python write it:
 * the magic, deflate, no reserved flags, extra flags 0, 2 or 4, a known system or 255.
 */
bool memberHeaderAt(const unsigned char *p);

} // namespace ks
