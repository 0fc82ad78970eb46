// SPDX-License-Identifier: MIT
#pragma once

#include "base/bothcores.h"

#include <exception>

namespace ks {

/*!
 * runOnBothCores(), where an exception on either side is rethrown on the calling thread once
 * both are done: on the helper thread it would end the process, and out of memory while
 * building must fail the load instead.
 */
template<typename First, typename Second>
void runOnBothCoresRethrowing(size_t events, First &&first, Second &&second)
{
    std::exception_ptr firstError;
    std::exception_ptr secondError;
    runOnBothCores(
        events,
        [&] {
            try {
                first();
            } catch (...) {
                firstError = std::current_exception();
            }
        },
        [&] {
            try {
                second();
            } catch (...) {
                secondError = std::current_exception();
            }
        });
    if (firstError)
        std::rethrow_exception(firstError);
    if (secondError)
        std::rethrow_exception(secondError);
}

} // namespace ks
