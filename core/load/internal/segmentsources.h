// SPDX-License-Identifier: MIT
// The texts a segmented parse reads: a plain file (each segment read by its own ChunkedText),
// and text in memory (tests, fuzzing).
#pragma once

#include "inputfile.h"
#include "segmentedparse.h"

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
