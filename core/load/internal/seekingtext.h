// SPDX-License-Identifier: MIT
#pragma once

#include "gzipinflater.h"
#include "inputfile.h"

#include <memory>

namespace ks {

/*!
 * A trace file's text from a decompressed offset on, as a RapidJSON input stream, read on
 * demand in small pieces on the calling thread (reading one event must not start a reader
 * thread or read megabytes ahead). Plain files are read from the offset; gzip files are
 * inflated from the last seek point at or before it (from the start without one).
 */
class SeekingText {
public:
    using Ch = char;

    //! \a index must come from this file as it is now (empty: inflate from the start).
    SeekingText(const InputFile &file, const GzipIndex &index, uint64_t offset);
    ~SeekingText();
    SeekingText(const SeekingText &) = delete;
    SeekingText &operator=(const SeekingText &) = delete;

    //! No text at the offset (the file is shorter, or its gzip data ends before).
    bool atEnd() const { return m_cur == m_end; }
    //! Decompressed bytes inflated so far, to reach the offset and beyond (0 for plain files).
    uint64_t inflated() const { return m_inflated; }

    Ch Peek() const { return *m_cur; }
    Ch Take()
    {
        const Ch c = *m_cur;
        if (m_cur != m_end && ++m_cur == m_end)
            fill();
        return c;
    }
    size_t Tell() const { return size_t(m_pieceOffset + uint64_t(m_cur - m_buffer.get())); }
    Ch *PutBegin() { return nullptr; }
    void Put(Ch) { }
    void Flush() { }
    size_t PutEnd(Ch *) { return 0; }

private:
    //! The next piece of text, or the end (m_cur == m_end, pointing at a zero).
    void fill();

    int m_fd;
    std::unique_ptr<GzipInflater> m_gzip; //!< null for plain files
    std::unique_ptr<char[]> m_buffer;
    const char *m_cur = nullptr;
    const char *m_end = nullptr;
    uint64_t m_pieceOffset = 0; //!< text offset of m_buffer[0]
    uint64_t m_next = 0; //!< text offset of the next piece
    uint64_t m_inflated = 0;
};

} // namespace ks
