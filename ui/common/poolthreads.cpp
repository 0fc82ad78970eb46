// SPDX-License-Identifier: MIT
#include "common/poolthreads.h"

#include <QThread>
#include <QThreadPool>

#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace ks {

void startPoolThreads()
{
    QThreadPool *pool = QThreadPool::globalInstance();
    const int count = pool->maxThreadCount();
    // A pool thread that cannot start leaves the pool waiting for it for ever: whether as many
    // threads can start is tried first, with threads that say so.
    std::vector<std::thread> trial;
    trial.reserve(size_t(count));
    bool started = true;
    for (int i = 0; i < count && started; ++i) {
        try {
            trial.emplace_back([] {});
        } catch (const std::system_error &) {
            started = false;
        }
    }
    for (std::thread &t : trial)
        t.join();
    if (!started)
        throw std::bad_alloc(); // no memory for the threads' stacks: exit 3
    pool->setExpiryTimeout(-1);
    // start() makes a thread at once while none is idle: tasks that each hold theirs a moment
    // make one thread each. Nothing waits for them.
    for (int i = 0; i < count; ++i)
        pool->start([] { QThread::msleep(20); });
}

} // namespace ks
