// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <array>
#include <string_view>

namespace ks {

//! A view `--screenshot --view NAME` renders.
struct ViewName {
    std::string_view name;
    bool ofRun; //!< a run's (several ranks), not one trace's
};

/*!
 * Every view by name, once: the parser's check and its message, which requests are a run's, and
 * the docs' synopsis (tst_cli) read this table; a new view is added here.
 */
inline constexpr std::array<ViewName, 8> kViewNames {{
    {"timeline", false},
    {"table", false},
    {"chart", false},
    {"window", false},
    {"memory", false},
    {"run", true},
    {"ranks", true},
    {"collectives", true},
}};

//! The view named \a name, null for none.
inline const ViewName *viewNamed(const QString &name)
{
    for (const ViewName &v : kViewNames)
        if (name == QLatin1String(v.name.data(), qsizetype(v.name.size())))
            return &v;
    return nullptr;
}

//! The names, in the table's order.
inline QStringList viewNameList()
{
    QStringList out;
    for (const ViewName &v : kViewNames)
        out << QString::fromLatin1(v.name.data(), qsizetype(v.name.size()));
    return out;
}

} // namespace ks
