// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"

#include <string>

namespace ks {

/*!
 * \a bytes for a person, in binary units as PyTorch's memory_viz and Nsight write them:
 * "512 B", "1.50 KiB", "12.3 MiB", "6.17 GiB" (three significant digits; negative for a
 * decrease). Exports keep the integer.
 */
std::string bytesText(double bytes);

//! \a ns for a person: "850 ns", "12.4 µs", "3.21 ms", "1.204 s" (three or four significant
//! digits, the unit suiting the value).
std::string durationText(double ns);

//! \a ns for a person, long spans too: durationText() below a minute, then "12.0 min",
//! "3.50 h", "888 days" (three significant digits).
std::string spanText(double ns);

//! \a part's share of \a whole in %, with \a decimals decimals ("12.79"); 0 for an empty whole.
std::string percentText(double part, double whole, int decimals);

//! The mean of \a count durations totalling \a total, rounded to the ns, as microsText().
std::string meanMicrosText(TimeNs total, uint64_t count);

//! \a ns as µs with three decimals ("1234.500"): what the exports and tables write.
std::string microsText(TimeNs ns);

} // namespace ks
