// SPDX-License-Identifier: MIT
#include "base/bytestext.h"

#include <cmath>
#include <cstdio>

namespace ks {

std::string bytesText(double bytes)
{
    static constexpr const char *kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = std::abs(bytes);
    size_t unit = 0;
    while (v >= 1024 && unit + 1 < std::size(kUnits)) {
        v /= 1024;
        ++unit;
    }
    if (unit + 1 < std::size(kUnits) && v >= 1023.5) { // would print as "1024 KiB"
        v /= 1024;
        ++unit;
    }
    // Three significant digits; whole bytes stay whole.
    const int decimals = unit == 0 ? 0 : v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
    char text[48];
    std::snprintf(text, sizeof text, "%s%.*f %s", bytes < 0 ? "-" : "", decimals, v, kUnits[unit]);
    return text;
}

} // namespace ks
