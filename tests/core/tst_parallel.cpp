// SPDX-License-Identifier: MIT
// parallelFor() and parallelInvoke(): every index once, exceptions from any thread on the caller;
// usableCores(): the CPUs this process may use, under its cgroup's limit.
#include "base/parallel.h"
#include "base/usablecores.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sched.h>

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
    void coresAreThoseOfTheAffinityMask();
    void cgroupLimit_data();
    void cgroupLimit();
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

void TestParallel::coresAreThoseOfTheAffinityMask()
{
    // Pinned to one CPU (as taskset -c 0 or a one-CPU Slurm task would), before the first call.
    cpu_set_t all;
    QCOMPARE(sched_getaffinity(0, sizeof all, &all), 0);
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &all)) {
            CPU_SET(cpu, &one);
            break;
        }
    }
    QCOMPARE(sched_setaffinity(0, sizeof one, &one), 0);
    const unsigned cores = usableCores();
    QCOMPARE(sched_setaffinity(0, sizeof all, &all), 0);
    QCOMPARE(cores, 1u);
}

void TestParallel::cgroupLimit_data()
{
    // cpu.max of the root, of /a and of /a/b ("" : no file); the process's /proc/self/cgroup.
    QTest::addColumn<QByteArrayList>("cpuMax");
    QTest::addColumn<QByteArray>("procSelfCgroup");
    QTest::addColumn<unsigned>("limit");
    const QByteArray inB = "0::/a/b\n";
    QTest::addRow("no limit anywhere")
        << QByteArrayList {"", "max 100000", "max 100000"} << inB << 0u;
    QTest::addRow("own group, rounded up") << QByteArrayList {"", "", "250000 100000"} << inB << 3u;
    QTest::addRow("a parent's is lower")
        << QByteArrayList {"", "100000 100000", "400000 100000"} << inB << 1u;
    QTest::addRow("the root's counts")
        << QByteArrayList {"200000 100000", "", "400000 100000"} << inB << 2u;
    QTest::addRow("under one core is one")
        << QByteArrayList {"", "", "50000 100000"} << QByteArray("0::/a/b") << 1u;
    QTest::addRow("below the process's group: not its")
        << QByteArrayList {"", "", "200000 100000"} << QByteArray("0::/a\n") << 0u;
    QTest::addRow("v2 line among v1 lines") << QByteArrayList {"", "300000 100000", ""}
                                            << QByteArray("4:memory:/x\n1:cpu:/a\n0::/a/b\n") << 3u;
    QTest::addRow("cgroup v1 only")
        << QByteArrayList {"", "300000 100000", ""} << QByteArray("1:cpu:/a\n") << 0u;
    QTest::addRow("not a number") << QByteArrayList {"", "", "lots 100000"} << inB << 0u;
    QTest::addRow("period zero") << QByteArrayList {"", "", "100000 0"} << inB << 0u;
}

void TestParallel::cgroupLimit()
{
    QFETCH(QByteArrayList, cpuMax);
    QFETCH(QByteArray, procSelfCgroup);
    QFETCH(unsigned, limit);
    QTemporaryDir root;
    QVERIFY(QDir(root.path()).mkpath(QStringLiteral("a/b")));
    const QStringList groups {QString(), QStringLiteral("/a"), QStringLiteral("/a/b")};
    for (qsizetype i = 0; i < groups.size(); ++i) {
        if (cpuMax[i].isEmpty())
            continue;
        QFile file(root.path() + groups[i] + QStringLiteral("/cpu.max"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(cpuMax[i] + '\n');
    }
    QCOMPARE(cgroupCpuLimit(root.path().toStdString(), procSelfCgroup.toStdString()), limit);
}

QTEST_GUILESS_MAIN(TestParallel)
#include "tst_parallel.moc"
