// SPDX-License-Identifier: MIT
#include "export/criticalpathjson.h"

#include "base/jsonwrite.h"
#include "base/numbertext.h"
#include "export/criticalpathtables.h"

#include <algorithm>
#include <numeric>

namespace ks {

namespace {

//! Pair rows by their time on the path, most first, those with none left out.
std::vector<uint32_t> rowsByPathTime(const CriticalPath &path, size_t count)
{
    std::vector<uint32_t> rows(path.ranks[0].rowTime.size());
    std::iota(rows.begin(), rows.end(), 0u);
    std::erase_if(rows, [&](uint32_t r) { return path.ranks[0].rowTime[r] == 0; });
    std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
        return path.ranks[0].rowTime[a] > path.ranks[0].rowTime[b];
    });
    if (rows.size() > count)
        rows.resize(count);
    return rows;
}

void appendWhatIf(std::string &out, const WhatIf &w)
{
    out += "{\"change\": ";
    appendJsonString(out, whatIfText(w.change));
    out += ", \"length_us\": ";
    appendMicros(out, w.length, 3);
    out += '}';
}

} // namespace

void appendCriticalPathJson(std::string &out,
    const OpGraph &graph,
    const CriticalPathAnalysis &analysis,
    const std::optional<WhatIfChange> &whatIf)
{
    const CriticalPath &path = analysis.path();
    out += "{\"step\": ";
    out += path.step == kNoValue ? std::string("null") : std::to_string(path.step);
    if (!path.problem.empty()) {
        out += ", \"problem\": ";
        appendJsonString(out, path.problem);
    }
    out += ", \"model\": ";
    appendJsonString(out, pathModelName(path.model));
    out += ", \"window_us\": ";
    appendMicros(out, path.windowEnd - path.windowStart, 3);
    out += ", \"length_us\": ";
    appendMicros(out, path.length, 3);
    out += ", \"by_bound\": {";
    for (size_t b = 0; b < kPathBounds; ++b) {
        out += b ? ", " : "";
        appendJsonString(out, pathBoundName(PathBound(b)));
        out += ": ";
        appendMicros(out, path.byBound[b], 3);
    }
    out += "}, \"by_side\": {";
    for (size_t i = 0; i < path.bySide.size(); ++i) {
        out += i ? ", " : "";
        appendJsonString(out, path.bySide[i].first);
        out += ": ";
        appendMicros(out, path.bySide[i].second, 3);
    }
    out += "}, \"top_pairs\": [";
    const std::vector<uint32_t> rows = rowsByPathTime(path, 10);
    for (size_t i = 0; i < rows.size(); ++i) {
        const SliceId rep = graph.representativeSlice(graph.rows()[rows[i]]);
        out += i ? ", {\"name\": " : "{\"name\": ";
        appendJsonString(out, graph.model().sliceName(rep));
        out += ", \"critical_us\": ";
        appendMicros(out, path.ranks[0].rowTime[rows[i]], 3);
        out += '}';
    }
    out += "], \"notes\": [";
    for (size_t i = 0; i < path.notes.size(); ++i) {
        out += i ? ", " : "";
        appendJsonString(out, path.notes[i]);
    }
    out += "], \"best_changes\": [";
    const std::vector<WhatIf> best = analysis.bestChanges();
    for (size_t i = 0; i < best.size(); ++i) {
        out += i ? ", " : "";
        appendWhatIf(out, best[i]);
    }
    out += ']';
    if (whatIf) {
        out += ", \"what_if\": ";
        appendWhatIf(out, {*whatIf, analysis.lengthOf(*whatIf)});
    }
    out += '}';
}

} // namespace ks
