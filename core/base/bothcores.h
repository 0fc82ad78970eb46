// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <thread>

namespace ks {

//! Below this many events a second thread costs more than it saves (starting one takes tens of µs).
constexpr size_t kParallelMinEvents = 20000;

/*!
 * Runs \a first and \a second, \a first on a second thread when the work is worth one. The two
 * must be independent (they may run in either order or at once).
 */
template<typename First, typename Second>
void runOnBothCores(size_t events, First &&first, Second &&second)
{
    if (events < kParallelMinEvents) {
        first();
        second();
        return;
    }
    std::thread helper(first);
    second();
    helper.join();
}

} // namespace ks
