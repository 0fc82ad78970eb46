// SPDX-License-Identifier: MIT
#include "export/criticalpathtables.h"

#include "base/unitstext.h"

#include <algorithm>
#include <cstdio>

namespace ks {

CellTable criticalSegmentTable(const CriticalPathAnalysis &analysis)
{
    CellTable t;
    t.addColumn("rank", Cell::Integer, "Rank");
    t.addColumn("order", Cell::Integer, "Order");
    t.addColumn("kind", Cell::Text, "Kind");
    t.addColumn("name", Cell::Text, "Event");
    t.addColumn("start_us", Cell::Number, "Start (µs)");
    t.addColumn("dur_us", Cell::Number, "Duration (µs)");
    t.addColumn("bound_by", Cell::Text, "Bound by");
    t.addColumn("pair_fwd_name", Cell::Text, "Pair");
    t.addColumn("side", Cell::Text, "Side");
    t.addColumn("collective", Cell::Integer, "Collective");
    const std::vector<PathSegment> &segments = analysis.path().segments;
    for (size_t i = 0; i < segments.size(); ++i) {
        const PathSegment &s = segments[i];
        const PathRankInput &rank = analysis.ranks()[s.rank];
        t.addRow();
        t.add(std::to_string(rank.rank));
        t.add(std::to_string(i));
        t.add(std::string(pathEdgeKindName(s.kind)));
        const PathGraph &graph = *analysis.graph(s.rank);
        t.add(s.event == kNoSlice ? std::string() : std::string(graph.eventName(s.event)));
        t.add(microsText(s.start + rank.clockOffset));
        t.add(microsText(s.dur));
        t.add(std::string(pathBoundName(s.bound)));
        t.add(std::string(graph.pairName(s.row)));
        t.add(std::string(s.side));
        t.add(s.collective < 0 ? std::string() : std::to_string(s.collective));
    }
    return t;
}

CellTable criticalBoundTable(const CriticalPath &path)
{
    CellTable t;
    t.addColumn("bound_by", Cell::Text, "Bound by");
    t.addColumn("us", Cell::Number, "On the path (µs)");
    t.addColumn("percent", Cell::Number, "% of the path");
    for (size_t b = 0; b < kPathBounds; ++b) {
        t.addRow();
        t.add(std::string(pathBoundName(PathBound(b))));
        t.add(microsText(path.byBound[b]));
        t.add(percentText(double(path.byBound[b]), double(path.length), 1));
    }
    return t;
}

CellTable criticalPairTable(const CriticalPathAnalysis &analysis, size_t count)
{
    struct Entry {
        uint32_t rank;
        int row;
        TimeNs time;
    };
    std::vector<Entry> entries;
    const CriticalPath &path = analysis.path();
    for (uint32_t r = 0; r < path.ranks.size(); ++r)
        for (size_t row = 0; row < path.ranks[r].rowTime.size(); ++row)
            if (path.ranks[r].rowTime[row] > 0)
                entries.push_back({r, int(row), path.ranks[r].rowTime[row]});
    std::stable_sort(entries.begin(), entries.end(),
        [](const Entry &a, const Entry &b) { return a.time > b.time; });
    entries.resize(std::min(entries.size(), count));
    CellTable t;
    t.addColumn("rank", Cell::Integer, "Rank");
    t.addColumn("pair_fwd_name", Cell::Text, "Pair");
    t.addColumn("critical_us", Cell::Number, "On the path (µs)");
    t.addColumn("percent", Cell::Number, "% of the path");
    for (const Entry &e : entries) {
        const PathRankInput &rank = analysis.ranks()[e.rank];
        t.addRow();
        t.add(std::to_string(rank.rank));
        t.add(std::string(analysis.graph(e.rank)->pairName(e.row)));
        t.add(microsText(e.time));
        t.add(percentText(double(e.time), double(path.length), 1));
    }
    return t;
}

CellTable whatIfTable(const std::vector<WhatIf> &changes, TimeNs length)
{
    CellTable t;
    t.addColumn("change", Cell::Text, "Change");
    t.addColumn("length_us", Cell::Number, "Path would take (µs)");
    t.addColumn("saved_us", Cell::Number, "Saved (µs)");
    for (const WhatIf &w : changes) {
        t.addRow();
        t.add(whatIfText(w.change));
        t.add(microsText(w.length));
        t.add(microsText(length - w.length));
    }
    return t;
}

CellTable criticalRankTable(const CriticalPathAnalysis &analysis)
{
    CellTable t;
    t.addColumn("rank", Cell::Integer, "Rank");
    t.addColumn("on_path_us", Cell::Number, "On the path (µs)");
    t.addColumn("slack_us", Cell::Number, "Slack (µs)");
    t.addColumn("late_start_us", Cell::Number, "Late start (µs)");
    t.addColumn("problem", Cell::Text, "Problem");
    const CriticalPath &path = analysis.path();
    for (size_t r = 0; r < path.ranks.size(); ++r) {
        const RankOnPath &onPath = path.ranks[r];
        t.addRow();
        t.add(std::to_string(analysis.ranks()[r].rank));
        t.add(microsText(onPath.time));
        t.add(onPath.slack == kNoValue ? std::string() : microsText(onPath.slack));
        t.add(onPath.problem.empty() ? microsText(onPath.lateStart) : std::string());
        t.add(onPath.problem);
    }
    return t;
}

} // namespace ks
