// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace ks {

//! Text is read and handed to the parser in pieces of at most this size.
inline constexpr size_t kTextChunkSize = size_t(1) << 20;

//! A piece of a trace's text in a buffer of its own, passed on from thread to thread by moving.
struct TextChunk {
    std::unique_ptr<char[]> data; //!< kTextChunkSize + 1 bytes, text followed by a zero
    size_t size = 0;
    uint64_t compressedEnd = 0; //!< compressed bytes consumed when this chunk was complete
};

} // namespace ks
