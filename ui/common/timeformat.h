// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <cstdint>

namespace ks {

//! "850 ns", "12.4 µs", "3.21 ms", "1.204 s": three significant digits, adaptive unit.
QString formatDuration(double ns);
//! A time-axis label for \a ns: the unit suits the value, the decimals the tick \a step (ns).
QString formatTick(double ns, double step);
//! "512 B", "1.50 MiB", "12.3 GiB": bytesText(), binary units as PyTorch's memory_viz writes them.
QString formatBytes(double bytes);
//! A "nice" tick step (1, 2 or 5 × 10^k ns) of at least \a minimum ns.
double niceStep(double minimum);

} // namespace ks
