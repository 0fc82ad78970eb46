// SPDX-License-Identifier: MIT
#include "base/sliceindexmap.h"

#include <bit>

namespace ks {

SliceIndexMap::Slot &SliceIndexMap::slotFor(SliceId slice)
{
    if (2 * (m_size + 1) > m_slots.size())
        grow();
    size_t i = slotOf(slice);
    while (m_slots[i].slice != slice && m_slots[i].slice != kNoSlice)
        i = (i + 1) & m_mask;
    return m_slots[i];
}

uint32_t SliceIndexMap::insert(SliceId slice, uint32_t value)
{
    Slot &s = slotFor(slice);
    if (s.slice == kNoSlice) {
        s = {slice, value};
        ++m_size;
    }
    return s.value;
}

void SliceIndexMap::assign(SliceId slice, uint32_t value)
{
    Slot &s = slotFor(slice);
    if (s.slice == kNoSlice)
        ++m_size;
    s = {slice, value};
}

void SliceIndexMap::grow()
{
    std::vector<Slot> old;
    old.swap(m_slots);
    const size_t capacity = old.empty() ? 16 : 2 * old.size();
    m_slots.assign(capacity, Slot {});
    m_mask = capacity - 1;
    m_shift = 64 - unsigned(std::countr_zero(capacity));
    for (const Slot &s : old) {
        if (s.slice == kNoSlice)
            continue;
        size_t i = slotOf(s.slice);
        while (m_slots[i].slice != kNoSlice)
            i = (i + 1) & m_mask;
        m_slots[i] = s;
    }
}

} // namespace ks
