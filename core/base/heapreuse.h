// SPDX-License-Identifier: MIT
#pragma once

namespace ks {

/*!
 * While one is alive, memory the process frees stays with the allocator (up to kKeptBytes at
 * the top of each malloc heap) instead of going straight back to the kernel. A run loads rank
 * after rank on each thread, and every load frees hundreds of MB of temporaries that the next
 * one allocates again: kept, they are reused as they are; returned, the kernel hands out new
 * pages and zeroes each one on first touch (a third of a run's page faults). When the last
 * scope ends, the allocator trims as before and the excess goes back; glibc then no longer
 * raises its mmap threshold by itself (any mallopt() fixes it where it stands). glibc only;
 * elsewhere, and under the sanitizers' allocators, it does nothing.
 */
class ScopedHeapReuse {
public:
    static constexpr long kKeptBytes = 128L << 20;

    ScopedHeapReuse();
    ~ScopedHeapReuse();
    ScopedHeapReuse(const ScopedHeapReuse &) = delete;
    ScopedHeapReuse &operator=(const ScopedHeapReuse &) = delete;
};

/*!
 * Gives the pages of freed blocks back to the kernel now (glibc's malloc_trim, which also frees
 * whole pages inside free blocks of every thread's heap): after a phase that freed many small
 * blocks that no later allocation will reuse, such as a thousand ranks' graph edges, read on the
 * reading threads and copied into one graph. glibc only; elsewhere it does nothing.
 */
void returnFreedMemory();

} // namespace ks
