// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string_view>

namespace ks {

//! What every message of a step that ran out of memory says ("FILE: byte N: not enough memory to
//! load this trace", "not enough memory to open a run of 8 files", …).
inline constexpr std::string_view kNotEnoughMemory = "not enough memory";

//! Whether \a message is such a message: the headless commands then exit 3 (docs/cli.md).
inline bool saysOutOfMemory(std::string_view message)
{
    return message.find(kNotEnoughMemory) != std::string_view::npos;
}

/*!
 * Address space held back for a later step that cannot fail cleanly, released just before it.
 * Qt's painting does not check its allocations (a glyph cache that could not grow is written
 * through a null pointer: a segfault under `ulimit -v`), so `--screenshot` holds the room its
 * picture needs while it loads: a load that would leave too little runs out of memory itself,
 * cleanly. It maps pages that are never touched (PROT_NONE): it costs no memory, only counts
 * against the address-space limit.
 */
class MemoryReserve {
public:
    explicit MemoryReserve(std::size_t bytes);
    ~MemoryReserve() { release(); }
    MemoryReserve(const MemoryReserve &) = delete;
    MemoryReserve &operator=(const MemoryReserve &) = delete;

    //! False when the room could not be had in the first place.
    bool held() const { return m_room != nullptr; }
    //! Gives the room back to the process.
    void release();

private:
    void *m_room = nullptr;
    std::size_t m_bytes = 0;
};

} // namespace ks
