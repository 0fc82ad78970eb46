// SPDX-License-Identifier: MIT
#include "base/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace ks {

unsigned threadsFor(size_t events)
{
    return events < kParallelMinEvents ? 1 : 2;
}

namespace {

//! What the threads of one parallelFor() share.
class SharedLoop {
public:
    SharedLoop(size_t n, const std::function<void(size_t)> &task)
        : m_n(n)
        , m_task(task)
    {
    }

    //! Runs tasks until none is left or one has failed.
    void work()
    {
        for (size_t i = m_next++; i < m_n && !m_stop.load(std::memory_order_relaxed);
             i = m_next++) {
            try {
                m_task(i);
            } catch (...) {
                fail(std::current_exception());
            }
        }
    }

    void helperDone()
    {
        const std::lock_guard lock(m_mutex);
        ++m_helpersDone;
        m_changed.notify_all();
    }

    /*!
     * Waits for \a helpers helpers, calling \a whileWaiting now and then. Whatever it throws is
     * kept like a task's error (the helpers must still be joined): it is not called again.
     */
    void waitFor(size_t helpers, const std::function<void()> &whileWaiting)
    {
        bool calling = bool(whileWaiting);
        std::unique_lock lock(m_mutex);
        while (m_helpersDone < helpers) {
            if (!calling) {
                m_changed.wait(lock);
                continue;
            }
            if (m_changed.wait_for(lock, std::chrono::milliseconds(50))
                == std::cv_status::timeout) {
                lock.unlock();
                try {
                    whileWaiting();
                } catch (...) {
                    calling = false;
                    fail(std::current_exception());
                }
                lock.lock();
            }
        }
    }

    void rethrow() const
    {
        if (m_error)
            std::rethrow_exception(m_error);
    }

private:
    //! Keeps the first error and stops handing out tasks.
    void fail(std::exception_ptr error)
    {
        const std::lock_guard lock(m_mutex);
        if (!m_error)
            m_error = std::move(error);
        m_stop = true;
    }

    const size_t m_n;
    const std::function<void(size_t)> &m_task;
    std::atomic<size_t> m_next {0};
    std::atomic<bool> m_stop {false};
    std::mutex m_mutex;
    std::condition_variable m_changed;
    size_t m_helpersDone = 0;
    std::exception_ptr m_error;
};

} // namespace

void parallelFor(size_t n,
    unsigned threads,
    const std::function<void(size_t)> &task,
    const std::function<void()> &whileWaiting)
{
    SharedLoop loop(n, task);
    const size_t wanted = std::min<size_t>(std::max(1u, threads), n) - (n > 0 ? 1 : 0);
    std::vector<std::thread> helpers;
    try {
        helpers.reserve(wanted);
        for (size_t h = 0; h < wanted; ++h)
            helpers.emplace_back([&loop] {
                loop.work();
                loop.helperDone();
            });
    } catch (const std::system_error &) {
        // No thread to be had: the others take its share.
    } catch (const std::bad_alloc &) {
    }
    loop.work();
    loop.waitFor(helpers.size(), whileWaiting);
    for (std::thread &t : helpers)
        t.join();
    loop.rethrow();
}

bool readEach(size_t n,
    unsigned threads,
    std::string &error,
    const std::atomic<bool> *cancel,
    const std::function<bool(size_t, std::string &)> &read)
{
    std::vector<std::string> errors(n);
    std::atomic<size_t> firstFailure {n};
    parallelFor(n, threads, [&](size_t i) {
        if (i > firstFailure.load())
            return;
        if (cancel && cancel->load(std::memory_order_relaxed))
            errors[i] = "cancelled";
        else if (read(i, errors[i]))
            return;
        for (size_t seen = firstFailure.load(); i < seen;)
            firstFailure.compare_exchange_weak(seen, i);
    });
    if (firstFailure.load() == n)
        return true;
    error = std::move(errors[firstFailure.load()]);
    return false;
}

} // namespace ks
