// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace ks {

/*!
 * \a bytes for a person, in binary units as PyTorch's memory_viz and Nsight write them:
 * "512 B", "1.50 KiB", "12.3 MiB", "6.17 GiB" (three significant digits; negative for a
 * decrease). Exports keep the integer.
 */
std::string bytesText(double bytes);

} // namespace ks
