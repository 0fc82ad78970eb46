// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace ks {

//! Text is read and handed to the parser in pieces of at most this size.
inline constexpr size_t kTextChunkSize = size_t(1) << 20;

//! A piece of a trace's text in a buffer of its own, passed on from thread to thread by moving.
struct TextChunk {
    std::unique_ptr<char[]> data; //!< kTextChunkSize + 1 bytes, text followed by a zero
    size_t size = 0;
    uint64_t compressedEnd = 0; //!< compressed bytes consumed when this chunk was complete
};

//! Chunk buffers kept for reuse, shared by the threads that fill and empty them.
class TextChunkPool {
public:
    //! A kept buffer when there is one, else a new one (std::bad_alloc when there is no memory);
    //! its size is 0.
    TextChunk take();
    //! Keeps \a chunk's buffer for reuse, or frees it where there is no room. Never throws:
    //! destructors call it.
    void keep(TextChunk chunk) noexcept;

private:
    std::mutex m_mutex;
    std::vector<TextChunk> m_free;
};

} // namespace ks
