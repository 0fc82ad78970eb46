// SPDX-License-Identifier: MIT
#include "common/chartaxis.h"

#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace ks {

void setRoundTicks(QValueAxis *axis, double max)
{
    // About six ticks; an empty chart still gets an axis from 0 to 1.
    const double target = max > 0 ? max / 6 : 1.0 / 6;
    const double power = std::pow(10.0, std::floor(std::log10(target)));
    double step = 10 * power;
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * power >= target) {
            step = m * power;
            break;
        }
    }
    const double steps = std::max(1.0, std::floor(max / step + 1e-9) + 1);
    axis->setRange(0, steps * step);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    const int decimals = std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

} // namespace ks
