// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"

#include <cstdint>
#include <vector>

namespace ks {

/*!
 * SliceId → uint32_t for a subset of a trace's slices (its backward nodes, its forward ops).
 * Open addressing with linear probing in one array kept at most half full: the linker and the
 * module tree look slices up for every GPU event and every ancestor of its launch, and there
 * std::unordered_map's node per entry cost a cache miss more per lookup and more memory.
 */
class SliceIndexMap {
public:
    static constexpr uint32_t kAbsent = ~0u;

    //! The value of \a slice, kAbsent when it has none.
    uint32_t find(SliceId slice) const
    {
        if (m_slots.empty() || slice == kNoSlice)
            return kAbsent;
        const Slot &s = m_slots[probe(slice)];
        return s.slice == slice ? s.value : kAbsent;
    }
    /*!
     * Gives \a slice the value \a value unless it has one already; returns the value it has
     * afterwards. kNoSlice is never stored (kAbsent).
     */
    uint32_t insert(SliceId slice, uint32_t value);
    //! Gives \a slice the value \a value, replacing any it had (kNoSlice: nothing).
    void assign(SliceId slice, uint32_t value);
    size_t size() const { return m_size; }
    size_t memoryUsage() const { return m_slots.capacity() * sizeof(Slot); }

private:
    struct Slot {
        SliceId slice = kNoSlice; //!< kNoSlice: empty
        uint32_t value = 0;
    };

    //! The slot of \a slice, or the empty one where it would go (in a table with slots).
    size_t probe(SliceId slice) const
    {
        // Fibonacci hashing: neighbouring ids (a lane's slices) land far apart.
        size_t i = size_t((uint64_t(slice) * 0x9E3779B97F4A7C15ull) >> m_shift);
        while (m_slots[i].slice != slice && m_slots[i].slice != kNoSlice)
            i = (i + 1) & m_mask;
        return i;
    }
    //! The slot for \a slice (not kNoSlice), growing the table first if a new entry needs room.
    Slot &slotFor(SliceId slice);
    void grow();

    std::vector<Slot> m_slots;
    size_t m_mask = 0;
    unsigned m_shift = 64;
    size_t m_size = 0;
};

} // namespace ks
