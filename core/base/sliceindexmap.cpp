// SPDX-License-Identifier: MIT
#include "base/sliceindexmap.h"

#include <bit>

namespace ks {

SliceIndexMap::Slot &SliceIndexMap::slotFor(SliceId slice)
{
    if (!m_slots.empty()) {
        Slot &s = m_slots[probe(slice)];
        if (s.slice == slice || 2 * (m_size + 1) <= m_slots.size())
            return s;
    }
    grow();
    return m_slots[probe(slice)];
}

uint32_t SliceIndexMap::insert(SliceId slice, uint32_t value)
{
    if (slice == kNoSlice)
        return kAbsent;
    Slot &s = slotFor(slice);
    if (s.slice == kNoSlice) {
        s = {slice, value};
        ++m_size;
    }
    return s.value;
}

void SliceIndexMap::assign(SliceId slice, uint32_t value)
{
    if (slice == kNoSlice)
        return;
    Slot &s = slotFor(slice);
    if (s.slice == kNoSlice)
        ++m_size;
    s = {slice, value};
}

void SliceIndexMap::grow()
{
    // The new table first: if it cannot be had, the map stays as it was.
    std::vector<Slot> slots(m_slots.empty() ? 16 : 2 * m_slots.size());
    slots.swap(m_slots);
    m_mask = m_slots.size() - 1;
    m_shift = 64 - unsigned(std::countr_zero(m_slots.size()));
    for (const Slot &s : slots) {
        if (s.slice != kNoSlice)
            m_slots[probe(s.slice)] = s;
    }
}

} // namespace ks
