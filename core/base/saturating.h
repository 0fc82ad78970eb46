// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <limits>

namespace ks {

//! a + b, held at the int64 limits: byte totals summed from a hostile file must not overflow.
constexpr int64_t saturatingAdd(int64_t a, int64_t b)
{
    int64_t sum;
    if (!__builtin_add_overflow(a, b, &sum))
        return sum;
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

//! Adds b to a in place, saturating.
constexpr void addSaturating(int64_t &a, int64_t b)
{
    a = saturatingAdd(a, b);
}

} // namespace ks
