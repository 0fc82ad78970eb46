// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <system_error>

namespace ks {

//! The text of an errno value ("No such file or directory"): std::strerror's, without its
//! static buffer, so any thread may ask.
inline std::string errnoText(int error)
{
    return std::generic_category().message(error);
}

} // namespace ks
