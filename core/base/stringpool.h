// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace ks {

using StringId = uint32_t;

/*!
 * Interns byte strings: each distinct string is stored once and named by a small integer.
 * Trace files repeat a few thousand names millions of times, so events keep only the id.
 * Id 0 is always the empty string. Views stay valid for the pool's lifetime.
 */
class StringPool {
public:
    StringPool();
    StringPool(const StringPool &) = delete;
    StringPool &operator=(const StringPool &) = delete;
    StringPool(StringPool &&) = default;
    StringPool &operator=(StringPool &&) = default;

    StringId intern(std::string_view text);
    //! The id of \a text if it was interned, else -1 (as StringId).
    StringId find(std::string_view text) const;
    std::string_view view(StringId id) const { return m_views[id]; }
    size_t size() const { return m_views.size(); }
    //! Bytes held by the stored strings and the index.
    size_t memoryUsage() const;

    static constexpr StringId npos = StringId(-1);

private:
    std::string_view store(std::string_view text);

    static uint64_t hash(std::string_view s) noexcept;
    void grow();

    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::vector<std::unique_ptr<char[]>> m_large; // strings too big to share a block
    size_t m_largeBytes = 0;
    size_t m_blockUsed = 0;
    size_t m_blockSize = 0;
    std::vector<std::string_view> m_views;
    // Open addressing with linear probing: slot = id + 1 (0 empty), with the id's hash alongside
    // so that most probes compare one integer and touch no string.
    std::vector<uint32_t> m_slots;
    std::vector<uint32_t> m_slotHash;
    std::vector<uint32_t> m_hashLow; //!< per id, the hash's low half (slot = hash & mask)
};

} // namespace ks
