// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace ks {

/*!
 * Appends \a text as a JSON string literal. Control characters are escaped and invalid UTF-8
 * sequences are replaced by U+FFFD, so the output is always valid JSON in UTF-8 whatever the
 * trace contained.
 */
void appendJsonString(std::string &out, std::string_view text);

//! Appends \a text with invalid UTF-8 sequences replaced by U+FFFD.
void appendValidUtf8(std::string &out, std::string_view text);

//! True when \a text is valid UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
bool isValidUtf8(std::string_view text);

//! Length of the valid UTF-8 sequence starting at \a s[i], or 0 if it is invalid.
size_t utf8SequenceLength(std::string_view s, size_t i);

} // namespace ks
