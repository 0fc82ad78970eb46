// SPDX-License-Identifier: MIT
#include "base/unitstext.h"

#include "base/numbertext.h"

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

std::string durationText(double ns)
{
    struct Unit {
        double ns;
        const char *name;
    };
    static constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};
    const double magnitude = std::fabs(ns);
    const Unit *u = &kUnits[3];
    for (const Unit &candidate : kUnits) {
        if (magnitude >= candidate.ns) {
            u = &candidate;
            break;
        }
    }
    const double v = ns / u->ns;
    const int decimals = u->ns == 1 ? 0 : std::fabs(v) >= 100 ? 1 : std::fabs(v) >= 10 ? 2 : 3;
    char text[48];
    std::snprintf(text, sizeof text, "%.*f %s", decimals, v, u->name);
    return text;
}

std::string spanText(double ns)
{
    struct Unit {
        double ns;
        const char *name;
    };
    static constexpr Unit kLong[] = {{86400e9, "days"}, {3600e9, "h"}, {60e9, "min"}};
    for (const Unit &u : kLong) {
        const double v = ns / u.ns;
        if (std::fabs(v) < 1)
            continue;
        const int decimals = std::fabs(v) >= 100 ? 0 : std::fabs(v) >= 10 ? 1 : 2;
        char text[48];
        std::snprintf(text, sizeof text, "%.*f %s", decimals, v, u.name);
        return text;
    }
    return durationText(ns);
}

std::string percentText(double part, double whole, int decimals)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, whole > 0 ? 100.0 * part / whole : 0.0);
    return text;
}

std::string meanMicrosText(TimeNs total, uint64_t count)
{
    const auto n = TimeNs(count);
    return microsText((2 * total + n) / (2 * n));
}

std::string microsText(TimeNs ns)
{
    std::string out;
    appendMicros(out, ns, 3);
    return out;
}

} // namespace ks
