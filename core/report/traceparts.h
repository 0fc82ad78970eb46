// SPDX-License-Identifier: MIT
// The parts of one trace's report, which the trace, run and comparison reports share.
#pragma once

#include "report/reportcontent.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ks {

constexpr size_t kTopRows = 15; // rows of a "top" table and bars of its chart
constexpr size_t kChartBars = 40; // bars of a per-step or per-rank chart: one PDF page holds them

//! Of rows [0, \a count), at most \a limit with the largest \a key (> 0), largest first.
template<typename Key> std::vector<size_t> topRows(size_t count, size_t limit, Key key)
{
    std::vector<size_t> rows;
    for (size_t r = 0; r < count; ++r) {
        if (key(r) > 0)
            rows.push_back(r);
    }
    std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) { return key(a) > key(b); });
    if (rows.size() > limit)
        rows.resize(limit);
    return rows;
}

//! The parts of one trace but its timeline, their titles after \a prefix ("Rank 0: ").
void addTraceParts(const LoadedTrace &trace, const std::string &prefix, ReportContent &out);

/*!
 * The timeline picture: the pair row and step \a focus names (as on screen), else the step of
 * median length and the dearest pair row inside it.
 */
void chooseTimeline(const LoadedTrace &trace,
    const std::string &prefix,
    const ReportFocus &focus,
    ReportContent &out);

//! \a path's last component.
std::string fileName(const std::string &path);

} // namespace ks
