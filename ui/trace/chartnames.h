// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <array>
#include <string_view>

namespace ks {

//! A chart of a trace's Charts page by the name `--screenshot --view chart --chart NAME` gives it.
struct ChartName {
    std::string_view name;
    int kind; //!< its ChartsView::Kind
    bool groups; //!< its bars are op groups, not pairs (ChartsView::setGroupMode())
};

/*!
 * Every chart by name, once: the command line's check and usage message, the screenshot's choice
 * and the docs' synopsis (tst_cli) read this table; a new chart is added here.
 */
inline constexpr std::array<ChartName, 5> kChartNames {{
    {"top-pairs", 0, false},
    {"top-groups", 0, true},
    {"steps", 1, false},
    {"scatter", 2, false},
    {"roofline", 3, false},
}};

//! The names, in the table's order ("top-pairs", "top-groups", …).
inline QStringList chartNameList()
{
    QStringList out;
    for (const ChartName &c : kChartNames)
        out << QString::fromLatin1(c.name.data(), qsizetype(c.name.size()));
    return out;
}

} // namespace ks
