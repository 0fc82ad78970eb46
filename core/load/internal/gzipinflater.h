// SPDX-License-Identifier: MIT
#pragma once

#include "deflateengine.h"
#include "model/tracemodel.h"

#include <cstdint>
#include <memory>
#include <string>

namespace ks {

/*!
 * Inflates the gzip data of a file, member after member (concatenated members are one text),
 * either from the file's start or from a seek point, with zlib or ISA-L (DeflateEngine): the
 * text, the end and its words are zlib's whichever inflates. From the start it can record seek
 * points (zlib's examples/zran.c shows how). Out of memory in either library throws
 * std::bad_alloc, like any other allocation.
 */
class GzipInflater {
public:
    //! A point every this many bytes of text: the most a read from the nearest point inflates.
    static constexpr uint64_t kSeekSpan = uint64_t(4) << 20;

    static constexpr uint64_t kNoStop = ~uint64_t(0);

    /*!
     * From \a start, the first byte of a member's header (0: the file's start), of \a fd's
     * data, which must stay open while this reads, with \a inflater. The text ends (Clean) at
     * the end of the first member that ends at or past compressed byte \a stopAt, whatever
     * follows it.
     */
    GzipInflater(int fd, Inflater inflater, uint64_t start = 0, uint64_t stopAt = kNoStop);
    //! From \a point of \a index (recorded from this same file).
    GzipInflater(int fd, const GzipIndex &index, const SeekPoint &point);
    /*!
     * From the last of \a index's points at or before text offset \a offset; from the file's
     * start with \a inflater where there is none (or no index).
     */
    static std::unique_ptr<GzipInflater> nearest(
        int fd, const GzipIndex *index, Inflater inflater, uint64_t offset);
    ~GzipInflater();
    GzipInflater(const GzipInflater &) = delete;
    GzipInflater &operator=(const GzipInflater &) = delete;

    //! Starts again, as if constructed with \a start and \a stopAt (keeping the library's
    //! memory), recording no points.
    void restartAt(uint64_t start, uint64_t stopAt);

    //! Records a point into \a index (which says which library recorded them) at the first
    //! place inflating can start from kSeekSpan after the last.
    void recordSeekPoints(GzipIndex *index);

    //! Inflates up to \a size bytes into \a out: fewer only once the text has ended (ended()).
    size_t read(char *out, size_t size);
    //! Inflates and drops the text up to \a offset (or to its end), through \a scratch of
    //! \a size bytes; the bytes inflated.
    uint64_t skipTo(uint64_t offset, char *scratch, size_t size);

    enum class End { NotYet, Clean, CutOff, Corrupt, TrailingGarbage };
    End end() const { return m_end; }
    bool ended() const { return m_end != End::NotYet; }
    //! zlib's words for corrupt data, and where it is (compressed bytes), when Corrupt.
    const std::string &corruptReason() const { return m_corruptReason; }
    uint64_t corruptAt() const { return m_corruptAt; }
    //! Compressed bytes used so far (from the file's start, wherever this started); once the text
    //! has ended cleanly at stopAt, where the next member would start.
    uint64_t compressedOffset() const { return m_consumed - m_avail; }
    //! Offset in the text of the next byte read() gives.
    uint64_t textOffset() const { return m_textOffset; }

private:
    void refill();
    void take(size_t bytes);
    //! Goes on from compressed byte \a offset, reading the file again.
    void goBackTo(uint64_t offset);
    void nextMember();
    //! At least \a bytes of input at m_next, unless the file ends first.
    void fillAtLeast(size_t bytes);
    bool skipInput(size_t bytes);
    void recordPoint();
    void corrupt(const std::string &reason);
    /*!
     * Where ISA-L finds the data corrupt or cut off, zlib inflates the member again up to the
     * text already given and goes on from there: its words, and where it stops, are the
     * reference (ISA-L leaves the last symbol before a cut undecoded, zlib does not). False
     * where the engine is zlib already.
     */
    bool redoWithZlib();

    int m_fd;
    std::unique_ptr<DeflateEngine> m_engine;
    Inflater m_inflater = m_engine->kind(); //!< m_engine's, but zlib after redoWithZlib()
    std::unique_ptr<unsigned char[]> m_in;
    const unsigned char *m_next = nullptr; //!< input not yet handed to the engine
    size_t m_avail = 0;
    uint64_t m_consumed = 0; //!< compressed bytes read into m_in
    size_t m_readSize; //!< bytes the next refill reads
    bool m_fileEnd = false;
    uint64_t m_stopAt = kNoStop;
    uint64_t m_memberStart = 0; //!< compressed offset of the member being inflated
    uint64_t m_memberText = 0; //!< text offset where it starts
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
