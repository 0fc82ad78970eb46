// SPDX-License-Identifier: MIT
#pragma once

#include "base/jsonallocator.h"
#include "gzipinflater.h"
#include "model/tracemodel.h"
#include "textchunk.h"
#include "textscan.h"

#include <rapidjson/reader.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace ks {

class GzipMembers;

/*!
 * A trace file opened for reading, plain or gzip (decided by the magic bytes 1f 8b, not the
 * name). Only regular files are accepted: a FIFO or a device would block or never end.
 * The file is only ever opened read-only.
 */
class InputFile {
public:
    ~InputFile();
    //! Opens \a path; on failure returns null and sets \a error to a one-line reason.
    static std::unique_ptr<InputFile> open(const std::string &path, std::string &error);

    bool compressed() const { return m_compressed; }
    uint64_t size() const { return m_size; }
    int fd() const { return m_fd; }
    /*!
     * How much text the file holds, as far as it says before it is read: its size when plain;
     * for gzip the last member's ISIZE trailer (the text size modulo 2^32: exact for a single
     * member under 4 GiB), 0 when that cannot be right (smaller than the file).
     */
    uint64_t textSizeHint() const { return m_textSizeHint; }
    //! The library that inflates it (fastestInflater() unless told otherwise).
    Inflater inflater() const { return m_inflater; }
    void useInflater(Inflater inflater) { m_inflater = inflater; }

private:
    InputFile() = default;
    int m_fd = -1;
    uint64_t m_size = 0;
    bool m_compressed = false;
    uint64_t m_textSizeHint = 0;
    Inflater m_inflater = fastestInflater();
};

//! A stretch of a file's text with text of its own before and after (segmentedparse.h).
struct TextSlice {
    uint64_t begin = 0, end = 0;
    std::string head, tail;
};

//! How a text ended, as its reader saw it.
struct TextEnd {
    bool outOfMemory = false; //!< memory ran out while reading: the text ends there
    bool cutOff = false; //!< the gzip stream is cut off
    bool trailingGarbage = false; //!< data after the gzip stream, ignored
    std::string corruptReason; //!< the gzip data is corrupt: zlib's words
    uint64_t corruptAt = 0; //!< and where (compressed bytes)
};

/*!
 * The text of a trace file, read on its own thread in chunks a bounded queue ahead of the parser,
 * so that reading (and, for gzip, inflating) overlaps parsing; or read by the parser itself, one
 * chunk per next(), where every core is parsing anyway. Plain files are read with pread
 * into a few recycled buffers: faster than mapping the file (no page-table work per 4 KB page)
 * and resident memory stays a few MB whatever the file size. Concatenated gzip members are read
 * as one stream; a cut-off or corrupt stream ends the text where it breaks (cutOff(),
 * corruptReason()). Inflating records seek points into the text (takeIndex()).
 */
class ChunkedText {
public:
    static constexpr size_t kChunkSize = kTextChunkSize;
    using Chunk = TextChunk;

    enum class Reader {
        OwnThread, //!< a thread that keeps a few chunks ready
        Caller, //!< next() reads the chunk it returns: no thread, no hand-over
    };

    /*!
     * Starts reading from the start of the text. A gzip file is inflated by \a inflaters
     * threads, a stretch of whole members each (GzipMembers), when that is more than one; they run
     * ahead of the parser, and next() hands their chunks on (as Reader::Caller, whatever \a reader
     * says).
     */
    explicit ChunkedText(
        const InputFile &file, Reader reader = Reader::OwnThread, unsigned inflaters = 1);
    /*!
     * Reads \a slice of the text instead: its head, the text's bytes [begin, end), its tail; a
     * slice without a tail runs to the text's end. A gzip file is inflated from the last of
     * \a points at or before begin (from its start without one: \a inflaters is then as above),
     * the text before begin dropped; with \a record, it records seek points from there on.
     */
    ChunkedText(const InputFile &file,
        TextSlice slice,
        Reader reader = Reader::OwnThread,
        unsigned inflaters = 1,
        const GzipIndex *points = nullptr,
        bool record = true);
    ~ChunkedText();
    ChunkedText(const ChunkedText &) = delete;
    ChunkedText &operator=(const ChunkedText &) = delete;

    //! Next chunk in order; an empty chunk (size 0) means the end of the text.
    Chunk next();
    //! Gives a chunk's buffer back for reuse (or frees it). Never throws: destructors call it.
    void recycle(Chunk chunk);

    bool cutOff() const { return m_cutOff; }
    const std::string &corruptReason() const { return m_corruptReason; }
    uint64_t corruptAt() const { return m_corruptAt; }
    bool trailingGarbage() const { return m_trailingGarbage; }
    //! Memory ran out while reading: the text ends there.
    bool outOfMemory() const { return m_outOfMemory; }
    //! All of the above; once the text has been read to its end.
    TextEnd textEnd() const;
    //! Stops reading (if it still does) and hands over the seek points of a gzip file.
    GzipIndex takeIndex();

private:
    enum class Stage { Head, Body, Tail, Done };

    void stop();
    //! Fills \a chunk (a buffer, size 0) with the next piece of text and its zero; false at the
    //! text's end.
    bool fill(Chunk &chunk);
    bool fillBody(Chunk &chunk);
    bool fillPlain(Chunk &chunk);
    bool fillInflated(Chunk &chunk);
    bool fillFromMembers(Chunk &chunk);
    //! Drops what an inflated chunk holds before the slice; whether anything is left.
    bool keepSliced(Chunk &chunk);
    void noteEnd(GzipInflater::End end, const std::string &corruptReason, uint64_t corruptAt);
    //! Waits for room in the queue and returns a buffer; false when asked to stop.
    bool takeBuffer(Chunk &chunk);
    void publish(Chunk &chunk);
    void finish();

    int m_fd;
    bool m_compressed;
    Inflater m_inflater;
    Reader m_reader;
    Stage m_stage = Stage::Head;
    uint64_t m_offset = 0; //!< next byte of the file to read
    uint64_t m_inflated = 0; //!< text inflated so far
    std::unique_ptr<GzipInflater> m_gzip;
    std::unique_ptr<GzipMembers> m_members;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Chunk> m_ready;
    TextChunkPool m_buffers;
    bool m_done = false;
    bool m_stop = false;
    // Written by the inflater before m_done is set; read after.
    bool m_cutOff = false;
    bool m_trailingGarbage = false;
    bool m_outOfMemory = false;
    std::string m_corruptReason;
    uint64_t m_corruptAt = 0;
    GzipIndex m_index;
    TextSlice m_slice; //!< the whole file unless constructed with a slice
    const GzipIndex *m_startPoints = nullptr; //!< where inflating may start, if not at 0
    bool m_record = true; //!< records seek points into m_index
};

/*!
 * RapidJSON input stream over ChunkedText chunks. Each chunk ends with a zero byte so Peek()
 * needs no check; Take() checks once per character whether the chunk is used up.
 */
class ChunkStream {
public:
    using Ch = char;
    explicit ChunkStream(ChunkedText &source);
    ~ChunkStream();

    Ch Peek() const { return *m_cur; }
    Ch Take()
    {
        const Ch c = *m_cur;
        if (m_cur < m_last)
            ++m_cur;
        else
            advance();
        return c;
    }
    size_t Tell() const { return size_t(m_chunkOffset + uint64_t(m_cur - m_base)); }
    //! The characters a scan may read ahead without Peek(): from the next to the chunk's last,
    //! which is left to Take() (it moves on to the next chunk). Empty at the text's end.
    const Ch *scanBegin() const { return m_cur; }
    const Ch *scanEnd() const { return m_last; }
    //! Moves to \a p, in [scanBegin(), scanEnd()].
    void skipTo(const Ch *p) { m_cur = p; }
    Ch *PutBegin() { return nullptr; }
    void Put(Ch) { }
    void Flush() { }
    size_t PutEnd(Ch *) { return 0; }

    //! Compressed bytes behind the chunk being parsed (for progress).
    uint64_t compressedOffset() const { return m_chunk.compressedEnd; }
    //! Decompressed bytes seen so far; the total once the end was reached.
    uint64_t textSeen() const { return m_chunkOffset + m_chunk.size; }
    bool atEnd() const { return m_end; }

private:
    void advance();

    ChunkedText &m_source;
    ChunkedText::Chunk m_chunk;
    const char *m_cur = nullptr;
    const char *m_base = nullptr; //!< start of the current chunk's text
    const char *m_last = nullptr; //!< last character of the chunk (the one before the zero)
    uint64_t m_chunkOffset = 0;
    bool m_end = false;
    char m_empty[1] = {0};
};

} // namespace ks

namespace rapidjson {

//! Called by RapidJSON before each character of a string it would copy alone (textscan.h).
template<>
template<>
inline void ks::JsonReader::ScanCopyUnescapedString(
    ks::ChunkStream &is, ks::JsonReader::StackStream<char> &os)
{
    ks::copyPlainRun(is, os);
}

} // namespace rapidjson
