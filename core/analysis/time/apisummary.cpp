// SPDX-License-Identifier: MIT
#include "analysis/time/apisummary.h"

#include <algorithm>
#include <unordered_map>

namespace ks {

namespace {

bool inStep(const OpGraph &graph, SliceId call, int64_t step)
{
    return step == kNoValue || graph.stepAt(graph.model().slices.start[call]) == step;
}

//! The middle of \a durations (reordered).
TimeNs median(std::vector<TimeNs> &durations)
{
    const size_t half = durations.size() / 2;
    std::nth_element(durations.begin(), durations.begin() + ptrdiff_t(half), durations.end());
    const TimeNs upper = durations[half];
    if (durations.size() % 2 == 1)
        return upper;
    const TimeNs lower = *std::max_element(durations.begin(), durations.begin() + ptrdiff_t(half));
    return lower + (upper - lower) / 2;
}

} // namespace

ApiSummary apiSummary(const OpGraph &graph, int64_t step)
{
    const TraceModel &m = graph.model();
    const SliceTable &t = m.slices;
    ApiSummary out;
    std::unordered_map<StringId, size_t> rowOf;
    std::vector<std::vector<TimeNs>> durations;
    for (SliceId s = 0; s < t.size(); ++s) {
        if (t.kind[s] != EventKind::Runtime || !inStep(graph, s, step))
            continue;
        const auto [it, added] = rowOf.try_emplace(t.name[s], out.rows.size());
        if (added) {
            out.rows.push_back({t.name[s], t.category[s], 0, 0, t.dur[s], 0, t.dur[s], 0});
            durations.emplace_back();
        }
        ApiSummaryRow &row = out.rows[it->second];
        ++row.count;
        row.total += t.dur[s];
        row.min = std::min(row.min, t.dur[s]);
        row.max = std::max(row.max, t.dur[s]);
        durations[it->second].push_back(t.dur[s]);
        out.apiTime += t.dur[s];
    }
    for (const SliceId launch : graph.gpuLaunches())
        if (launch != kNoSlice && t.kind[launch] == EventKind::Runtime)
            if (const auto it = rowOf.find(t.name[launch]);
                it != rowOf.end() && inStep(graph, launch, step))
                ++out.rows[it->second].gpuEvents;
    for (size_t r = 0; r < out.rows.size(); ++r)
        out.rows[r].median = median(durations[r]);
    std::sort(out.rows.begin(), out.rows.end(), [&](const auto &a, const auto &b) {
        return a.total != b.total ? a.total > b.total : m.str(a.name) < m.str(b.name);
    });
    return out;
}

} // namespace ks
