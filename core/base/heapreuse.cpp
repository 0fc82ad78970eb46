// SPDX-License-Identifier: MIT
#include "base/heapreuse.h"

#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ks {

namespace {

std::mutex g_mutex;
int g_scopes = 0;

//! glibc's M_TOP_PAD: how much free memory a heap keeps at its top when it trims.
void setTopPad([[maybe_unused]] long bytes)
{
#if defined(__GLIBC__)
    // Only ever called under g_mutex, the one place that sets it.
    mallopt(M_TOP_PAD, int(bytes)); // NOLINT(concurrency-mt-unsafe)
#endif
}

constexpr long kGlibcDefaultTopPad = 128L << 10;

} // namespace

ScopedHeapReuse::ScopedHeapReuse()
{
    const std::lock_guard lock(g_mutex);
    if (g_scopes++ == 0)
        setTopPad(kKeptBytes);
}

ScopedHeapReuse::~ScopedHeapReuse()
{
    const std::lock_guard lock(g_mutex);
    if (--g_scopes == 0)
        setTopPad(kGlibcDefaultTopPad);
}

void returnFreedMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace ks
