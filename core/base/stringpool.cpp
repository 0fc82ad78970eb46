// SPDX-License-Identifier: MIT
#include "base/stringpool.h"

#include <cstring>

namespace ks {

namespace {
constexpr size_t kBlockSize = 256 * 1024;
}

StringPool::StringPool()
{
    m_slots.assign(1024, 0);
    m_slotHash.assign(1024, 0);
    m_views.emplace_back();
    const uint64_t h = hash({});
    m_hashLow.push_back(uint32_t(h));
    m_slots[h & 1023] = 1;
    m_slotHash[h & 1023] = uint32_t(h >> 32);
}

uint64_t StringPool::hash(std::string_view s) noexcept
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
    h ^= h >> 31;
    h *= 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

void StringPool::grow()
{
    // From the slots' hashes, never the strings: growing must not touch every string again.
    const size_t capacity = m_slots.size() * 2;
    std::vector<uint32_t> slots(capacity, 0), hashes(capacity, 0);
    const size_t mask = capacity - 1;
    for (size_t old = 0; old < m_slots.size(); ++old) {
        if (m_slots[old] == 0)
            continue;
        size_t i = m_hashLow[m_slots[old] - 1] & mask;
        while (slots[i] != 0)
            i = (i + 1) & mask;
        slots[i] = m_slots[old];
        hashes[i] = m_slotHash[old];
    }
    m_slots = std::move(slots);
    m_slotHash = std::move(hashes);
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
    const uint64_t h = hash(text);
    const auto tag = uint32_t(h >> 32);
    const size_t mask = m_slots.size() - 1;
    size_t i = h & mask;
    for (; m_slots[i] != 0; i = (i + 1) & mask) {
        if (m_slotHash[i] == tag && m_views[m_slots[i] - 1] == text)
            return m_slots[i] - 1;
    }
    const auto id = StringId(m_views.size());
    m_views.push_back(store(text));
    m_hashLow.push_back(uint32_t(h));
    m_slots[i] = id + 1;
    m_slotHash[i] = tag;
    if (m_views.size() * 2 > m_slots.size())
        grow(); // keeps the load factor under one half
    return id;
}

StringId StringPool::find(std::string_view text) const
{
    const uint64_t h = hash(text);
    const auto tag = uint32_t(h >> 32);
    const size_t mask = m_slots.size() - 1;
    for (size_t i = h & mask; m_slots[i] != 0; i = (i + 1) & mask) {
        if (m_slotHash[i] == tag && m_views[m_slots[i] - 1] == text)
            return m_slots[i] - 1;
    }
    return npos;
}

size_t StringPool::memoryUsage() const
{
    return m_blocks.size() * kBlockSize + m_largeBytes
        + m_views.capacity() * sizeof(std::string_view) + m_hashLow.capacity() * sizeof(uint32_t)
        + m_slots.capacity() * 2 * sizeof(uint32_t);
}

} // namespace ks
