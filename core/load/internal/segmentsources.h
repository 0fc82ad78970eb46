// SPDX-License-Identifier: MIT
// The texts a segmented parse reads: a plain file (each segment read by its own ChunkedText), a
// gzip file (inflated from seek points), and text in memory (tests, fuzzing).
#pragma once

#include "inputfile.h"
#include "segmentedparse.h"

#include <mutex>
#include <string_view>

namespace ks {

class FileSegments : public SegmentedText {
public:
    explicit FileSegments(const InputFile &file)
        : m_file(file)
    {
    }
    uint64_t size() const override { return m_file.size(); }
    std::string bytes(uint64_t offset, size_t n) const override;
    PassResult parse(const TextSlice &slice,
        TraceBuilder &builder,
        const std::function<void(uint64_t)> &reached,
        const std::atomic<bool> *cancel) const override;

private:
    const InputFile &m_file;
};

/*!
 * A gzip file's text, cut as a plain file's is (issue #59): finding each split inflates the text
 * up to it, recording seek points (the trailer's ISIZE gives the size to cut; none where it is
 * not the text's); each segment then inflates from the last point before it. Worth it where
 * inflating is cheap beside parsing (ISA-L). The whole text's seek points are the scan's and
 * those of the segment that read to the end, which also tells how the text ended.
 */
class GzipSegments : public SegmentedText {
public:
    explicit GzipSegments(const InputFile &file)
        : m_file(file)
    {
    }
    uint64_t size() const override { return m_file.textSizeHint(); }
    std::string bytes(uint64_t offset, size_t n) const override;
    PassResult parse(const TextSlice &slice,
        TraceBuilder &builder,
        const std::function<void(uint64_t)> &reached,
        const std::atomic<bool> *cancel) const override;

    //! Once the parse is over: the seek points of the whole text, and how it ended.
    GzipIndex takeIndex();
    TextEnd textEnd() const { return m_end; }

private:
    const InputFile &m_file;
    mutable GzipIndex m_scanned; //!< recorded while finding the splits (before any parse)
    mutable std::mutex m_mutex; //!< for what the segments that read to the end leave
    mutable uint64_t m_toEndFrom = ~uint64_t(0); //!< where the one kept below began
    mutable GzipIndex m_toEndPoints;
    mutable TextEnd m_end;
};

class MemorySegments : public SegmentedText {
public:
    explicit MemorySegments(std::string_view text)
        : m_text(text)
    {
    }
    uint64_t size() const override { return m_text.size(); }
    std::string bytes(uint64_t offset, size_t n) const override;
    PassResult parse(const TextSlice &slice,
        TraceBuilder &builder,
        const std::function<void(uint64_t)> &reached,
        const std::atomic<bool> *cancel) const override;

private:
    std::string_view m_text;
};

} // namespace ks
