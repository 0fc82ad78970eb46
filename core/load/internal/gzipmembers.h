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
 * Finds where members may start in a gzip file (memberHeaderAt()), reading each stretch of the
 * file once while the offsets asked for grow.
 */
class MemberHeaderScan {
public:
    MemberHeaderScan(int fd, uint64_t fileSize);
    //! The first candidate at or after \a from; the file's size when there is none, or when
    //! \a stop was set meanwhile.
    uint64_t next(uint64_t from, const std::atomic<bool> &stop);

private:
    int m_fd;
    uint64_t m_fileSize;
    std::vector<unsigned char> m_block; //!< a stretch of the file, read on first need
    uint64_t m_blockStart = 0;
    size_t m_blockBytes = 0;
};

/*!
 * The text of a gzip file inflated on several threads and handed out in order: the text, and the
 * end (clean, cut off, corrupt, followed by junk), that one GzipInflater reading member after
 * member gives.
 *
 * The file is cut into stretches of whole members, each inflated by one worker ahead of the
 * reader: a stretch starts at a member's header and ends with the first member that ends at
 * least kStretchBytes further on. A gzip file does not say where its members start, so the next
 * stretch starts at the first thing past that distance that looks like a member's header
 * (MemberHeaderScan). A stretch's text is used only once the stretch before it has ended exactly
 * there: a candidate that is really compressed data inside a member costs work, never a wrong
 * text. Where they do not meet (a header the scan missed, or a false candidate), the reader starts
 * a stretch where the last one ended, as reading one member after another would.
 *
 * Memory stays bounded: a few stretches queued, a few chunks ready, buffers recycled. The seek
 * points are each stretch's own (one soon after it starts, then every
 * GzipInflater::kSeekSpan of its text), moved to offsets in the whole text.
 */
class GzipMembers {
public:
    //! Compressed bytes a stretch spans at least (but for the last): a few MB of text.
    static constexpr uint64_t kStretchBytes = uint64_t(1) << 20;

    //! Starts \a workers threads inflating \a fd (\a fileSize bytes, a member at its start)
    //! with \a inflater, in stretches of at least \a stretchBytes (tests make them tiny).
    GzipMembers(int fd,
        Inflater inflater,
        uint64_t fileSize,
        unsigned workers,
        GzipIndex *index,
        uint64_t stretchBytes = kStretchBytes);
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
    struct Stretch;

    void work();
    //! Waits for a stretch to inflate, scanning for more when there is room; null when stopping.
    std::shared_ptr<Stretch> claim(std::unique_lock<std::mutex> &lock);
    void inflate(GzipInflater &gzip, Stretch &stretch);

    // The functions below run with m_mutex held.
    //! Whether \a stretch's worker may hand over another chunk now.
    bool hasRoom(const Stretch &stretch) const;
    //! The front stretch has ended: its points join the index, and the text goes on after it.
    void moveOn();
    void abandonFront();

    const int m_fd;
    const Inflater m_inflater;
    const uint64_t m_fileSize;
    const uint64_t m_stretchBytes;
    const size_t m_window; //!< stretches queued at most (ahead of the reader, and its own)
    const size_t m_budget; //!< chunks ready at most, over all stretches
    GzipIndex *const m_index;

    std::mutex m_mutex;
    std::condition_variable m_changed;
    //! In file order; the front is the stretch being read.
    std::deque<std::shared_ptr<Stretch>> m_stretches;
    size_t m_ready = 0; //!< chunks waiting, in all stretches
    TextChunkPool m_buffers;
    MemberHeaderScan m_scan; //!< used by one worker at a time, the one m_scanning says
    uint64_t m_scanFrom; //!< where the scan for the next stretch's start begins
    bool m_scanning = false;
    unsigned m_scanGeneration = 0; //!< a scan started before a restart is ignored
    std::atomic<bool> m_stop {false};
    uint64_t m_stretchText = 0; //!< text before the front stretch
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
