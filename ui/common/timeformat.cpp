// SPDX-License-Identifier: MIT
#include "common/timeformat.h"

#include "base/unitstext.h"

#include <QLocale>

#include <cmath>

namespace ks {

namespace {
struct Unit {
    double ns;
    const char *name;
};
constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};

const Unit &unitFor(double magnitude)
{
    for (const Unit &u : kUnits) {
        if (magnitude >= u.ns)
            return u;
    }
    return kUnits[3];
}
} // namespace

QString formatDuration(double ns)
{
    return QString::fromStdString(durationText(ns));
}

QString formatTick(double ns, double step)
{
    // The unit follows the value (354.5 ms, not 354500 µs); decimals follow the step.
    const Unit &u = unitFor(std::max(std::fabs(ns), step));
    const double v = ns / u.ns;
    const double stepInUnit = step / u.ns;
    // Enough decimals to tell neighbouring ticks apart.
    int decimals = 0;
    while (decimals < 6
        && std::fabs(stepInUnit * std::pow(10.0, decimals)
               - std::round(stepInUnit * std::pow(10.0, decimals)))
            > 1e-6)
        ++decimals;
    return QString::number(v, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(u.name);
}

double niceStep(double minimum)
{
    if (minimum <= 1)
        return 1;
    const double power = std::pow(10.0, std::floor(std::log10(minimum)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * power >= minimum)
            return m * power;
    }
    return 10 * power;
}

QString formatBytes(double bytes)
{
    return QString::fromStdString(bytesText(bytes));
}

} // namespace ks
