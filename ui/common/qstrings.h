// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <string_view>

namespace ks {

//! Core's UTF-8 text (names, paths, messages) as a QString.
inline QString toQString(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace ks
