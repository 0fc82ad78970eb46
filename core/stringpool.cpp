// SPDX-License-Identifier: MIT
#include "stringpool.h"

#include <cstring>

namespace ks {

namespace {
constexpr size_t kBlockSize = 256 * 1024;
}

StringPool::StringPool()
{
    m_views.push_back({});
    m_index.emplace(std::string_view(), 0);
}

size_t StringPool::Hash::operator()(std::string_view s) const noexcept
{
    // FNV-1a over 8-byte words: names are short and this is on the parser's hot path.
    uint64_t h = 1469598103934665603ull;
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        h = (h ^ w) * 1099511628211ull;
        h ^= h >> 29;
    }
    for (; i < s.size(); ++i)
        h = (h ^ uint8_t(s[i])) * 1099511628211ull;
    return size_t(h ^ (h >> 32));
}

std::string_view StringPool::store(std::string_view text)
{
    if (text.size() > kBlockSize / 4) {
        // Huge strings get a block of their own so that they do not waste a shared one.
        auto &block = m_large.emplace_back(std::make_unique<char[]>(text.size()));
        std::memcpy(block.get(), text.data(), text.size());
        m_largeBytes += text.size();
        return {block.get(), text.size()};
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > m_blockSize) {
        m_blocks.push_back(std::make_unique<char[]>(kBlockSize));
        m_blockSize = kBlockSize;
        m_blockUsed = 0;
    }
    char *dst = m_blocks.back().get() + m_blockUsed;
    std::memcpy(dst, text.data(), text.size());
    m_blockUsed += text.size();
    return {dst, text.size()};
}

StringId StringPool::intern(std::string_view text)
{
    auto it = m_index.find(text);
    if (it != m_index.end())
        return it->second;
    const std::string_view stored = store(text);
    const auto id = StringId(m_views.size());
    m_views.push_back(stored);
    m_index.emplace(stored, id);
    return id;
}

StringId StringPool::find(std::string_view text) const
{
    auto it = m_index.find(text);
    return it == m_index.end() ? npos : it->second;
}

size_t StringPool::memoryUsage() const
{
    return m_blocks.size() * kBlockSize + m_largeBytes
        + m_views.capacity() * sizeof(std::string_view)
        + m_index.size() * (sizeof(std::string_view) + sizeof(StringId) + 2 * sizeof(void *));
}

} // namespace ks
