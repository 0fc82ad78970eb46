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
    //! Its kind's entry in the Charts page's choice (a kind's groups share its entry: empty).
    std::string_view label;
};

/*!
 * Every chart by name, once: the command line's check and usage message, the screenshot's choice,
 * the Charts page's choice of kind and the docs' synopsis (tst_cli) read this table; a new chart
 * is added here.
 */
inline constexpr std::array<ChartName, 5> kChartNames {{
    {"top-pairs", 0, false, "Top op pairs by GPU time"},
    {"top-groups", 0, true, {}},
    {"steps", 1, false, "GPU time per ProfilerStep"},
    {"scatter", 2, false, "Backward vs forward GPU time per op"},
    {"roofline", 3, false, "Roofline: achieved vs peak"},
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
