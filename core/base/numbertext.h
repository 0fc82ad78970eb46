// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string_view>

namespace ks {

/*!
 * Number parsing from the decimal text of a JSON number (or a numeric JSON string).
 * Trace times are microseconds with up to three decimals; converting them through a double
 * loses the last digits of absolute epoch values, so they are converted digit by digit.
 */
struct MicrosText {
    int64_t ns = 0; //!< the value in nanoseconds, rounded half away from zero
    uint8_t decimals = 0; //!< fraction digits as written (0 for "12", 3 for "12.500")
};

/*!
 * Parses \a text ("4458676522709.059", "-3", "12.5", "1.5e3") as microseconds.
 * Returns false when the text is not a finite number or when the value does not fit in
 * int64 nanoseconds (about ±292 years).
 */
bool parseMicros(std::string_view text, MicrosText &out);

/*!
 * Parses an integer ("42", "-7", also "42.0" and " 42"). Returns false for anything else,
 * including fractions, overflow and trailing garbage.
 */
bool parseInteger(std::string_view text, int64_t &out);

//! Parses any JSON number text as double; false when it is not a number.
bool parseDouble(std::string_view text, double &out);

//! Formats \a ns as microseconds with exactly \a decimals fraction digits (at most 3 kept).
void appendMicros(std::string &out, int64_t ns, int decimals);

} // namespace ks
