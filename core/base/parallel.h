// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

namespace ks {

//! Below this many events a second thread costs more than it saves (starting one takes tens of µs).
constexpr size_t kParallelMinEvents = 20000;

//! The threads a pass over \a events spreads over: two at and above kParallelMinEvents, else one.
unsigned threadsFor(size_t events);

/*!
 * Calls \a task(i) once for every i in [0, n), on up to \a threads threads, the calling thread
 * one of them; indices are handed out in rising order as threads come free, so larger items
 * should come first. An exception thrown by a task (out of memory, most often) stops handing
 * out indices and is rethrown on the calling thread once every thread is done: on a helper
 * thread it would end the process. A helper thread that cannot be started leaves its share to
 * the others. \a whileWaiting, when given, is called on the calling thread about every 50 ms
 * once it has no task left while helpers still run (progress reports); what it throws is
 * rethrown like a task's exception.
 */
void parallelFor(size_t n,
    unsigned threads,
    const std::function<void(size_t)> &task,
    const std::function<void()> &whileWaiting = {});

/*!
 * Calls \a read(i, error) for each i in [0, \a n) on up to \a threads threads (files read side
 * by side); false with the error of the lowest i that failed, what reading them in order would
 * have said. Nothing past a failure is read, and nothing once \a cancel is set ("cancelled").
 */
bool readEach(size_t n,
    unsigned threads,
    std::string &error,
    const std::atomic<bool> *cancel,
    const std::function<bool(size_t, std::string &)> &read);

/*!
 * Runs \a first and \a second, side by side when \a events reach kParallelMinEvents, with
 * parallelFor()'s exception rule. The two must be independent (any order, or at once).
 */
template<typename First, typename Second>
void parallelInvoke(size_t events, First &&first, Second &&second)
{
    parallelFor(2, threadsFor(events), [&](size_t i) { i == 0 ? first() : second(); });
}

} // namespace ks
