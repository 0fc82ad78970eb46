// SPDX-License-Identifier: MIT
#include "textchunk.h"

#include <new>

namespace ks {

TextChunk TextChunkPool::take()
{
    TextChunk chunk;
    {
        std::lock_guard lock(m_mutex);
        if (!m_free.empty()) {
            chunk = std::move(m_free.back());
            m_free.pop_back();
        }
    }
    if (!chunk.data)
        chunk.data = std::make_unique_for_overwrite<char[]>(kTextChunkSize + 1);
    chunk.size = 0;
    return chunk;
}

void TextChunkPool::keep(TextChunk chunk) noexcept
{
    if (!chunk.data)
        return;
    std::lock_guard lock(m_mutex);
    try {
        m_free.push_back(std::move(chunk));
    } catch (const std::bad_alloc &) {
        // No room to keep it: the buffer is freed.
    }
}

} // namespace ks
