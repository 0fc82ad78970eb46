// SPDX-License-Identifier: MIT
// ScopedHeapReuse: while one is alive, memory freed to malloc is handed out again without new page
// faults; once the last one ends, freed memory goes back to the kernel as before. Counted in minor
// page faults (the kernel's count of pages it handed out), never in time.
#include "base/heapreuse.h"

#include <QTest>

#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

using namespace ks;

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kBytes = size_t(96) << 20; // above any trim threshold glibc sets itself (64 MB)
constexpr size_t kPages = kBytes / kPage;

long minorFaults()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

/*!
 * The page faults taken while allocating and writing kBytes in 64 KiB blocks (below glibc's mmap
 * threshold, so from the heap), which are then freed, last first.
 */
long faultsToFill()
{
    constexpr size_t kBlock = size_t(64) << 10;
    std::vector<char *> blocks;
    blocks.reserve(kBytes / kBlock);
    const long before = minorFaults();
    for (size_t i = 0; i < kBytes / kBlock; ++i) {
        char *p = static_cast<char *>(std::malloc(kBlock));
        if (!p)
            qFatal("out of memory");
        std::memset(p, int(i), kBlock);
        asm volatile("" : : "r"(p) : "memory"); // the writes must happen
        blocks.push_back(p);
    }
    const long faults = minorFaults() - before;
    for (size_t i = blocks.size(); i-- > 0;)
        std::free(blocks[i]);
    return faults;
}

} // namespace

class TestHeapReuse : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
#if !defined(__GLIBC__) || KS_TEST_ASAN || KS_TEST_TSAN // the sanitizers bring their own
        QSKIP("glibc's allocator only: elsewhere ScopedHeapReuse does nothing");
#endif
    }

    void withoutAScopeFreedMemoryGoesBack()
    {
        faultsToFill();
        const long again = faultsToFill();
        QVERIFY2(again > long(kPages / 2), qPrintable(QString::number(again)));
    }

    void inAScopeFreedMemoryIsReused()
    {
        const ScopedHeapReuse reuse;
        faultsToFill(); // the heap grows; freeing keeps it
        const long again = faultsToFill();
        QVERIFY2(again < long(kPages / 10), qPrintable(QString::number(again)));
    }

    void nestedScopesKeepItUntilTheLastEnds()
    {
        auto outer = std::make_unique<ScopedHeapReuse>();
        {
            const ScopedHeapReuse inner;
            faultsToFill();
        }
        const long whileOuter = faultsToFill();
        QVERIFY2(whileOuter < long(kPages / 10), qPrintable(QString::number(whileOuter)));
        outer.reset();
        faultsToFill(); // still reused; its frees trim the heap again
        const long after = faultsToFill();
        QVERIFY2(after > long(kPages / 2), qPrintable(QString::number(after)));
    }
};

QTEST_APPLESS_MAIN(TestHeapReuse)
#include "tst_heapreuse.moc"
