// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>

namespace ks {

//! What every message of a step that ran out of memory says ("FILE: byte N: not enough memory to
//! load this trace", "not enough memory to open a run of 8 files", …).
inline constexpr std::string_view kNotEnoughMemory = "not enough memory";

//! Whether \a message is such a message: the headless commands then exit 3 (docs/cli.md).
inline bool saysOutOfMemory(std::string_view message)
{
    return message.find(kNotEnoughMemory) != std::string_view::npos;
}

} // namespace ks
