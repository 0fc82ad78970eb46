// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <cstdint>
#include <memory>
#include <string>

struct z_stream_s;

namespace ks {

/*!
 * Inflates the gzip data of a file, member after member (concatenated members are one text),
 * either from the file's start or from a seek point. From the start it can record seek points
 * (zlib's examples/zran.c shows how): where the deflate stream is at a block boundary, the
 * bit there and the 32 KiB of text before it are all that inflating from there needs.
 * Out of memory in zlib throws std::bad_alloc, like any other allocation.
 */
class GzipInflater {
public:
    //! A point every this many bytes of text: the most a read from the nearest point inflates.
    static constexpr uint64_t kSeekSpan = uint64_t(4) << 20;

    static constexpr uint64_t kNoStop = ~uint64_t(0);

    /*!
     * From \a start, the first byte of a member's header (0: the file's start), of \a fd's
     * data, which must stay open while this reads. The text ends (Clean) at the end of the first
     * member that ends at or past compressed byte \a stopAt, whatever follows it.
     */
    explicit GzipInflater(int fd, uint64_t start = 0, uint64_t stopAt = kNoStop);
    //! From \a point (of a GzipIndex recorded from this same file).
    GzipInflater(int fd, const SeekPoint &point);
    ~GzipInflater();
    GzipInflater(const GzipInflater &) = delete;
    GzipInflater &operator=(const GzipInflater &) = delete;

    //! Starts again, as if constructed with \a start and \a stopAt (keeping zlib's memory),
    //! recording no points.
    void restartAt(uint64_t start, uint64_t stopAt);

    //! Records a point into \a index at the first block boundary kSeekSpan after the last.
    void recordSeekPoints(GzipIndex *index) { m_index = index; }

    //! Inflates up to \a size bytes into \a out: fewer only once the text has ended (ended()).
    size_t read(char *out, size_t size);

    enum class End { NotYet, Clean, CutOff, Corrupt, TrailingGarbage };
    End end() const { return m_end; }
    bool ended() const { return m_end != End::NotYet; }
    //! zlib's words for corrupt data, and where it is (compressed bytes), when Corrupt.
    const std::string &corruptReason() const { return m_corruptReason; }
    uint64_t corruptAt() const { return m_corruptAt; }
    //! Compressed bytes used so far (from the file's start, wherever this started); once the text
    //! has ended cleanly at stopAt, where the next member would start.
    uint64_t compressedOffset() const;
    //! Offset in the text of the next byte read() gives.
    uint64_t textOffset() const { return m_textOffset; }

private:
    void init(int windowBits);
    void refill();
    void nextMember();
    //! At least \a bytes of input in zlib's buffer, unless the file ends first.
    void fillAtLeast(size_t bytes);
    bool skipInput(size_t bytes);
    void recordPoint();
    void corrupt(const char *reason);

    int m_fd;
    std::unique_ptr<z_stream_s> m_zs;
    bool m_zlibReady = false; //!< m_zs was initialised (and needs inflateEnd)
    std::unique_ptr<unsigned char[]> m_in;
    uint64_t m_consumed = 0; //!< compressed bytes handed to zlib
    size_t m_readSize; //!< bytes the next refill reads
    bool m_fileEnd = false;
    bool m_raw = false; //!< inflating a member's raw deflate data (from a seek point)
    uint64_t m_stopAt = kNoStop;
    End m_end = End::NotYet;
    std::string m_corruptReason;
    uint64_t m_corruptAt = 0;
    uint64_t m_textOffset = 0;
    GzipIndex *m_index = nullptr;
};

/*!
 * Whether \a bytes, the \a size bytes that follow a member, begin another one as the loader
 * reads it: the two magic bytes (what follows is then inflated, or found corrupt).
 */
inline bool beginsMember(const unsigned char *bytes, size_t size)
{
    return size >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

} // namespace ks
