// SPDX-License-Identifier: MIT
#include "base/outofmemory.h"

#include <sys/mman.h>

namespace ks {

MemoryReserve::MemoryReserve(std::size_t bytes)
    : m_bytes(bytes)
{
    void *room
        = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (room != MAP_FAILED)
        m_room = room;
}

void MemoryReserve::release()
{
    if (m_room)
        munmap(m_room, m_bytes);
    m_room = nullptr;
}

} // namespace ks
