// SPDX-License-Identifier: MIT
// Out of memory while loading: whichever allocation fails (on the parser's thread, the builder
// thread, the reader thread, or while the model is frozen), the load fails cleanly with the
// offset it reached ("FILE: byte N: not enough memory to load this trace (M MB of text read)"),
// and never ends the process. This executable replaces operator new so that it can make the
// N-th allocation fail. Linking and the window's drawing index fail as cleanly when an allocation
// on one of their helper threads fails, and so does a run read from per-rank databases.
#include "base/jsonallocator.h"
#include "base/parallel.h"
#include "load/tracereader.h"
#include "session/loadedtrace.h"
#include "session/run.h"
#include "session/rundatabase.h"
#include "testutil.h"

#include <QRegularExpression>
#include <QTest>

#include <atomic>
#include <cstdlib>
#include <limits>
#include <new>
#include <string>
#include <thread>

using namespace ks;

#if KS_TEST_ASAN
// jsonAllocationsThrow() asks malloc for more than there is: AddressSanitizer reports that as an
// error unless told to return null, as malloc does.
extern "C" const char *__asan_default_options()
{
    return "allocator_may_return_null=1";
}
#endif

namespace {

std::atomic<bool> g_armed {false};
std::atomic<long> g_countdown {0}; //!< allocations left before one fails
std::atomic<bool> g_otherThreadsOnly {false};
std::atomic<bool> g_failed {false}; //!< an allocation was made to fail
std::atomic<long> g_allocations {0}; //!< counted while armed
std::thread::id g_testThread;

bool failNow()
{
    if (!g_armed.load(std::memory_order_relaxed))
        return false;
    if (g_otherThreadsOnly && std::this_thread::get_id() == g_testThread)
        return false;
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (g_countdown.fetch_sub(1, std::memory_order_relaxed) != 1)
        return false;
    g_armed = false; // one failure: what follows (unwinding, the message) may allocate
    g_failed = true;
    return true;
}

void *allocate(std::size_t size)
{
    if (failNow())
        throw std::bad_alloc();
    if (void *p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}

void *allocateAligned(std::size_t size, std::align_val_t align)
{
    if (failNow())
        throw std::bad_alloc();
    const auto a = std::size_t(align);
    if (void *p = std::aligned_alloc(a, (size + a - 1) / a * a))
        return p;
    throw std::bad_alloc();
}

//! Counts (and, with \a failAt > 0, fails the \a failAt-th of) the allocations of \a load.
template<typename Load> auto withFailingAllocation(long failAt, bool otherThreadsOnly, Load load)
{
    g_testThread = std::this_thread::get_id();
    g_otherThreadsOnly = otherThreadsOnly;
    g_countdown = failAt > 0 ? failAt : -1;
    g_allocations = 0;
    g_failed = false;
    g_armed = true;
    auto result = load();
    g_armed = false;
    return result;
}

//! The events of varied().
std::string variedEvents(int events)
{
    std::string e = R"({"ph":"M","name":"process_name","pid":1,"args":{"name":"p"}})";
    for (int i = 0; i < events; ++i) {
        const std::string n = std::to_string(i), tid = std::to_string(i % 40);
        e += R"(,{"ph":"X","cat":"cpu_op","name":"op)" + n + R"(","pid":1,"tid":)" + tid
            + R"(,"ts":)" + std::to_string(i * 10) + R"(,"dur":25,"args":{"Input Dims":[[)" + n
            + R"(]],"Sequence number":)" + n + "}}";
        e += R"(,{"ph":"X","cat":"kernel","name":"k)" + n + R"(","pid":0,"tid":)" + tid
            + R"(,"ts":)" + std::to_string(i * 10 + 3) + R"(,"dur":4,"args":{"correlation":)" + n
            + "}}";
        e += R"(,{"ph":"s","cat":"ac2g","name":"ac2g","id":)" + n + R"(,"pid":1,"tid":)" + tid
            + R"(,"ts":)" + std::to_string(i * 10 + 1) + "}";
        e += R"(,{"ph":"f","cat":"ac2g","name":"ac2g","id":)" + n + R"(,"pid":0,"tid":)" + tid
            + R"(,"ts":)" + std::to_string(i * 10 + 3) + R"(,"bp":"e"})";
        if (i % 10 == 0)
            e += R"(,{"ph":"C","name":"mem","pid":1,"ts":)" + std::to_string(i * 10)
                + R"(,"args":{"a":1,"b":2}},{"ph":"B","name":"b","pid":1,"tid":99,"ts":)"
                + std::to_string(i * 10) + R"(},{"ph":"E","pid":1,"tid":99,"ts":)"
                + std::to_string(i * 10 + 5) + "}";
    }
    return e;
}

//! A trace that exercises every part of the builder: many lanes, flows, B/E, counters, names.
std::string varied(int events)
{
    return test::traceWith(variedEvents(events));
}

/*!
 * varied() with work for both sides of the linker: a backward node for each forward op (paired
 * by sequence number) and ProfilerSteps around them.
 */
std::string linkable(int events)
{
    std::string e = variedEvents(events);
    const int end = events * 10 + 100;
    for (int i = 0; i < events; ++i)
        e += R"(,{"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":1,"tid":500,"ts":)"
            + std::to_string(end + i * 10) + R"(,"dur":5,"args":{"Sequence number":)"
            + std::to_string(i) + R"(,"Fwd thread id":)" + std::to_string(i % 40) + "}}";
    for (int s = 0; s < 10; ++s)
        e += R"(,{"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" + std::to_string(s)
            + R"(","pid":1,"tid":0,"ts":)" + std::to_string(s * events * 2) + R"(,"dur":)"
            + std::to_string(events * 2) + "}";
    return test::traceWith(e);
}

bool isOutOfMemory(const LoadResult &r, const std::string &name)
{
    static const QRegularExpression re(
        QStringLiteral("^(.+): byte \\d+: not enough memory to load this trace \\(\\d+\\.\\d MB of "
                       "text read\\)$"));
    const auto match = re.match(QString::fromStdString(r.error));
    return r.status == LoadResult::Status::Failed && !r.model && match.hasMatch()
        && match.captured(1) == QString::fromStdString(name);
}

} // namespace

void *operator new(std::size_t size)
{
    return allocate(size);
}
void *operator new[](std::size_t size)
{
    return allocate(size);
}
// The nothrow forms do not fail: their callers (std::stable_sort's buffer) cope by design.
void *operator new(std::size_t size, const std::nothrow_t &) noexcept
{
    return std::malloc(size ? size : 1);
}
void *operator new[](std::size_t size, const std::nothrow_t &) noexcept
{
    return std::malloc(size ? size : 1);
}
void *operator new(std::size_t size, std::align_val_t align)
{
    return allocateAligned(size, align);
}
void *operator new[](std::size_t size, std::align_val_t align)
{
    return allocateAligned(size, align);
}
void operator delete(void *p) noexcept
{
    std::free(p);
}
void operator delete[](void *p) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::size_t) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::size_t) noexcept
{
    std::free(p);
}
void operator delete(void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}
void operator delete[](void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}

class TestLoadMemory : public QObject {
    Q_OBJECT

private slots:
    void failureInAProgressCallback_data();
    void failureInAProgressCallback();
    void failureOnTheBuilderThread_data();
    void failureOnTheBuilderThread();
    void everyAllocationOfALoadMayFail_data();
    void everyAllocationOfALoadMayFail();
    void failureOnAHelperThread_data();
    void failureOnAHelperThread();
    void failureWhileReadingDatabases();
    void jsonAllocationsThrow();
};

void TestLoadMemory::failureInAProgressCallback_data()
{
    QTest::addColumn<QByteArray>("data");
    const QByteArray plain = QByteArray::fromStdString(varied(30000));
    QTest::addRow("plain") << plain;
    QTest::addRow("gzip") << test::gzip(plain);
}

void TestLoadMemory::failureInAProgressCallback()
{
    QFETCH(QByteArray, data);
    const QString path = test::writeTemp(QStringLiteral("progress.json"), data);
    int calls = 0;
    LoadOptions options;
    // Thrown on the parser's thread while the builder thread (files always have one) places
    // events, as a failing allocation there would.
    options.progress = [&](int) {
        if (++calls == 2)
            throw std::bad_alloc();
    };
    const LoadResult r = loadTrace(path.toStdString(), options);
    QVERIFY(calls >= 2); // and the final 1000, as after any failure
    QVERIFY2(isOutOfMemory(r, path.toStdString()), r.error.c_str());
    const QRegularExpression re(QStringLiteral("byte (\\d+): .*\\((\\d+\\.\\d) MB of text read"));
    const auto match = re.match(QString::fromStdString(r.error));
    QVERIFY(match.hasMatch());
    const qint64 at = match.captured(1).toLongLong();
    const qint64 textSize = qint64(varied(30000).size());
    QVERIFY2(at > 0 && at < textSize / 2, r.error.c_str()); // where it stopped, not the end
    QCOMPARE(match.captured(2), QString::number(double(at) / 1e6, 'f', 1));

    // Nothing is left behind that keeps the same file from loading.
    options.progress = {};
    const LoadResult again = loadTrace(path.toStdString(), options);
    QVERIFY2(again.status == LoadResult::Status::Loaded, again.error.c_str());
}

void TestLoadMemory::failureOnTheBuilderThread_data()
{
    QTest::addColumn<double>("at"); // which of the builder thread's allocations fails, 0 to 1
    QTest::addRow("first") << 0.0;
    QTest::addRow("a quarter in") << 0.25;
    QTest::addRow("half way") << 0.5;
    QTest::addRow("last") << 1.0;
}

void TestLoadMemory::failureOnTheBuilderThread()
{
    // A text load with a builder thread and few events runs no other thread (no reader, and
    // freezing the model stays on one core below 20000 events): the failure is the builder's.
    QFETCH(double, at);
    const std::string text = varied(1500);
    const auto load = [&] { return loadTraceText(text, "builder.json", true); };
    const LoadResult full = withFailingAllocation(0, true, load);
    QVERIFY2(full.status == LoadResult::Status::Loaded, full.error.c_str());
    const long allocations = g_allocations;
    QVERIFY(allocations >= 20);
    const LoadResult r = withFailingAllocation(1 + long(at * double(allocations - 1)), true, load);
    QVERIFY(g_failed);
    QVERIFY2(isOutOfMemory(r, "builder.json"), r.error.c_str());
}

void TestLoadMemory::everyAllocationOfALoadMayFail_data()
{
    // 0: text, 1: text with builder thread, 2: file, 3: gzip file, 4: gzip file of 3 members
    // (inflated side by side)
    QTest::addColumn<int>("source");
    QTest::addRow("text") << 0;
    QTest::addRow("text, builder thread") << 1;
    QTest::addRow("plain file") << 2;
    QTest::addRow("gzip file") << 3;
    QTest::addRow("gzip members") << 4;
}

void TestLoadMemory::everyAllocationOfALoadMayFail()
{
    QFETCH(int, source);
    const std::string text = varied(60);
    const QByteArray bytes = QByteArray::fromStdString(text);
    QByteArray file = bytes;
    if (source == 3)
        file = test::gzip(bytes);
    const qsizetype third = bytes.size() / 3;
    if (source == 4)
        file = test::gzip(bytes.left(third)) + test::gzip(bytes.mid(third, third))
            + test::gzip(bytes.mid(2 * third));
    const std::string path = source < 2
        ? std::string("inline.json")
        : test::writeTemp(QStringLiteral("memory-%1.json").arg(source), file).toStdString();
    const auto load
        = [&] { return source < 2 ? loadTraceText(text, path, source == 1) : loadTrace(path); };
    const LoadResult full = withFailingAllocation(0, false, load);
    QVERIFY2(full.status == LoadResult::Status::Loaded, full.error.c_str());
    const long allocations = g_allocations;
    QVERIFY(allocations > 100);
    // Threads make the count vary a little from run to run. A failure must give the clean
    // failure (or, where the loader could do without that allocation, the same trace).
    int failures = 0;
    for (long n = 1; n <= allocations + 20; ++n) {
        const LoadResult r = withFailingAllocation(n, false, load);
        const QString what
            = QStringLiteral("allocation %1: %2").arg(n).arg(QString::fromStdString(r.error));
        if (g_failed && r.status != LoadResult::Status::Loaded) {
            QVERIFY2(isOutOfMemory(r, path), qPrintable(what));
            ++failures;
        } else {
            QVERIFY2(r.status == LoadResult::Status::Loaded, qPrintable(what));
            QCOMPARE(r.model->slices.size(), full.model->slices.size());
            QCOMPARE(r.model->flows.size(), full.model->flows.size());
        }
    }
    QVERIFY(failures > allocations / 2);
}

void TestLoadMemory::failureOnAHelperThread_data()
{
    QTest::addColumn<bool>("display"); // false: OpGraph::build; true: the TimelineIndex
    QTest::addColumn<long>("at"); // which allocation off the calling thread fails
    for (const bool display : {false, true}) {
        const char *what = display ? "drawing index" : "link";
        QTest::addRow("%s, first", what) << display << 1L;
        QTest::addRow("%s, third", what) << display << 3L;
    }
}

void TestLoadMemory::failureOnAHelperThread()
{
    // Above kParallelMinEvents both spread over a helper thread (parallelFor): a bad_alloc there
    // must reach the caller, which fails the load with a message, instead of std::terminate.
    QFETCH(bool, display);
    QFETCH(long, at);
    static const std::string text = linkable(12000);
    const std::string name = "helper.json";
    // A fresh trace each time: what was built once is never built again.
    const auto attempt = [&](long failAt) {
        LoadResult loaded = loadTraceText(text, name);
        if (!display)
            return withFailingAllocation(
                failAt, true, [&] { return linkTrace(std::move(loaded)); });
        OpenResult linked = linkTrace(std::move(loaded));
        return withFailingAllocation(
            failAt, true, [&] { return readyForWindow(linked, WindowUse::Tab); });
    };
    const OpenResult full = attempt(0);
    QVERIFY2(full.trace, full.error.c_str());
    QVERIFY(full.trace->model->slices.size() >= kParallelMinEvents);
    // Which thread takes which part varies (on a busy machine the caller may take all): try
    // until the helper reaches that allocation.
    for (int tries = 0; tries < 50; ++tries) {
        const OpenResult r = attempt(at);
        if (!g_failed) {
            QVERIFY(r.trace);
            continue;
        }
        const std::string expected = name + ": byte " + std::to_string(text.size())
            + ": not enough memory to " + (display ? "display" : "link") + " this trace";
        QVERIFY(!r.trace);
        QCOMPARE(r.error, expected);
        return;
    }
    QFAIL("no allocation on a helper thread failed in 50 tries");
}

/*
 * A run from per-rank databases (read side by side): whichever allocation fails, on whichever
 * thread, the run, its pairs or its critical path fail with "not enough memory", or the read
 * copes (a helper thread that could not start), and the process goes on.
 */
void TestLoadMemory::failureWhileReadingDatabases()
{
    const std::string trace
        = test::writeTemp(QStringLiteral("rank.json"), QByteArray::fromStdString(linkable(300)))
              .toStdString();
    std::string error;
    const auto rank = openRun({trace}, {}, error);
    QVERIFY2(rank, error.c_str());
    const std::string db = test::tempDir().toStdString() + "/rank.sqlite";
    QVERIFY2(writeRunDatabase(
                 *rank, db, {}, [](const std::string &) { return std::string(); }, error),
        error.c_str());
    const std::vector<std::string> databases {db, db, db};
    const auto readAll = [&databases] { // allocating nothing of its own: moves only
        RunOptions options;
        options.parallel = 2;
        std::string failed;
        const auto run = openRun(databases, options, failed);
        if (run && !run->failures.empty())
            failed = run->failures.front().error;
        const bool read = run && run->failures.empty() && run->pairsProblem.empty()
            && run->criticalPath({}, &failed);
        return std::make_pair(read, std::move(failed));
    };
    withFailingAllocation(0, false, readAll);
    const long allocations = g_allocations;
    QVERIFY(allocations > 100);
    int failures = 0;
    for (long at = 1; at <= allocations; at += std::max(1L, allocations / 300)) {
        const auto [read, failed] = withFailingAllocation(at, false, readAll);
        if (read)
            continue;
        QVERIFY(g_failed);
        QVERIFY2(failed.starts_with("not enough memory to "), failed.c_str());
        ++failures;
    }
    QVERIFY(failures > 0);
}

/*
 * What RapidJSON allocates (a reader's stack, a document's nodes) goes through malloc, not
 * operator new: where malloc fails, ThrowingAllocator throws rather than hand RapidJSON the null
 * it would write through.
 */
void TestLoadMemory::jsonAllocationsThrow()
{
    ThrowingAllocator allocator;
    const size_t tooMuch = std::numeric_limits<size_t>::max() / 2; // malloc gives null
    // Kept in a volatile: clang may assume an allocation whose block is never used succeeds.
    void *volatile unused = nullptr;
    QVERIFY_THROWS_EXCEPTION(std::bad_alloc, unused = allocator.Malloc(tooMuch));
    QVERIFY_THROWS_EXCEPTION(std::bad_alloc, unused = allocator.Realloc(nullptr, 0, tooMuch));
    QCOMPARE(unused, nullptr);
    void *block = allocator.Realloc(allocator.Malloc(16), 16, 32);
    QVERIFY(block);
    ThrowingAllocator::Free(block);
    QCOMPARE(allocator.Malloc(0), nullptr);
}

QTEST_GUILESS_MAIN(TestLoadMemory)
#include "tst_loadmemory.moc"
