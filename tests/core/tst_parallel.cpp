// SPDX-License-Identifier: MIT
// parallelFor() and parallelInvoke(): every index once, exceptions from any thread on the caller.
#include "base/parallel.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace ks;

class TestParallel : public QObject {
    Q_OBJECT

private slots:
    void everyIndexOnce_data();
    void everyIndexOnce();
    void anExceptionOnAHelperReachesTheCaller();
    void anExceptionWhileWaitingReachesTheCaller();
    void waitingCallsBack();
    void invokeRunsBoth();
};

void TestParallel::everyIndexOnce_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("threads");
    QTest::addRow("none") << 0 << 4;
    QTest::addRow("one thread") << 100 << 1;
    QTest::addRow("zero threads means one") << 10 << 0;
    QTest::addRow("more threads than items") << 3 << 8;
    QTest::addRow("many") << 10000 << 4;
}

void TestParallel::everyIndexOnce()
{
    QFETCH(int, n);
    QFETCH(int, threads);
    std::vector<std::atomic<int>> calls(static_cast<size_t>(n));
    parallelFor(size_t(n), unsigned(threads), [&](size_t i) { ++calls[i]; });
    for (const auto &c : calls)
        QCOMPARE(c.load(), 1);
}

void TestParallel::anExceptionOnAHelperReachesTheCaller()
{
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> threwOnHelper {false};
    std::atomic<int> ran {0};
    // The caller's tasks wait (10 s at most) until a helper has thrown: then one surely did.
    bool caught = false;
    try {
        parallelFor(64, 2, [&](size_t) {
            ++ran;
            if (std::this_thread::get_id() != caller) {
                threwOnHelper = true;
                throw std::bad_alloc();
            }
            for (int ms = 0; ms < 10000 && !threwOnHelper; ++ms)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
    } catch (const std::bad_alloc &) {
        caught = true;
    }
    QVERIFY(threwOnHelper);
    QVERIFY(caught);

    // Once a task failed, no new task starts. (Checked on one thread: with two, the caller may
    // take tasks while the helper's exception is still unwinding, before it is recorded.)
    ran = 0;
    QVERIFY_THROWS_EXCEPTION(std::bad_alloc, parallelFor(64, 1, [&](size_t) {
        ++ran;
        throw std::bad_alloc();
    }));
    QCOMPARE(ran.load(), 1);

    // The first error wins, whichever thread it came from.
    try {
        parallelFor(2, 1, [](size_t i) {
            if (i == 0)
                throw std::runtime_error("first");
            throw std::logic_error("second");
        });
        QFAIL("no exception");
    } catch (const std::runtime_error &e) {
        QCOMPARE(std::string(e.what()), std::string("first"));
    }
}

void TestParallel::anExceptionWhileWaitingReachesTheCaller()
{
    // A progress callback that throws (out of memory in a report) must not leave the helpers
    // running: they are joined, and the caller gets the exception.
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> helperFinished {false};
    std::atomic<bool> started {false};
    int calls = 0;
    QVERIFY_THROWS_EXCEPTION(std::bad_alloc,
        parallelFor(
            2, 2,
            [&](size_t) {
                // The caller's task waits (10 s at most) for the helper's to start.
                if (std::this_thread::get_id() == caller) {
                    for (int ms = 0; ms < 10000 && !started; ++ms)
                        std::this_thread::sleep_for(std::chrono::milliseconds(1));
                    return;
                }
                started = true;
                std::this_thread::sleep_for(std::chrono::milliseconds(300));
                helperFinished = true;
            },
            [&] {
                ++calls;
                throw std::bad_alloc();
            }));
    QVERIFY(started);
    QVERIFY(helperFinished); // joined before the exception left
    QCOMPARE(calls, 1); // not called again once it threw
}

void TestParallel::waitingCallsBack()
{
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> release {false};
    int calls = 0;
    parallelFor(
        2, 2,
        [&](size_t) {
            // The helper's task waits until the caller was called back a few times.
            while (std::this_thread::get_id() != caller && !release)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        },
        [&] {
            QCOMPARE(std::this_thread::get_id(), caller);
            if (++calls == 2)
                release = true;
        });
    // The caller may have taken both tasks before the helper started: then nothing waited.
    QVERIFY(calls == 0 || calls >= 2);
}

void TestParallel::invokeRunsBoth()
{
    for (const size_t events : {size_t(1), kParallelMinEvents}) {
        std::atomic<int> first {0}, second {0};
        parallelInvoke(
            events, [&] { ++first; }, [&] { ++second; });
        QCOMPARE(first.load(), 1);
        QCOMPARE(second.load(), 1);
    }
    QCOMPARE(threadsFor(kParallelMinEvents - 1), 1u);
    QCOMPARE(threadsFor(kParallelMinEvents), 2u);
}

QTEST_GUILESS_MAIN(TestParallel)
#include "tst_parallel.moc"
