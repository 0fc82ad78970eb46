// SPDX-License-Identifier: MIT
#include "analysis/time/kernelsummary.h"

#include <algorithm>
#include <unordered_map>

namespace ks {

KernelSummary kernelSummary(const OpGraph &graph, int64_t step)
{
    const TraceModel &m = graph.model();
    const SliceTable &t = m.slices;
    KernelSummary out;
    std::unordered_map<StringId, size_t> rowOf;
    std::vector<std::unordered_map<StringId, uint64_t>> ops;
    const std::vector<SliceId> &events = graph.gpuEvents();
    for (size_t i = 0; i < events.size(); ++i) {
        const SliceId k = events[i];
        const SliceId launch = graph.gpuLaunches()[i];
        if (t.kind[k] != EventKind::Kernel)
            continue;
        if (step != kNoValue && (launch == kNoSlice || graph.stepAt(t.start[launch]) != step))
            continue;
        const StringId written = m.writtenName(k);
        const auto [it, added] = rowOf.try_emplace(written, out.rows.size());
        if (added) {
            out.rows.push_back({written, t.name[k], 0, 0, t.dur[k], t.dur[k], {}, {}});
            ops.emplace_back();
        }
        KernelSummaryRow &row = out.rows[it->second];
        ++row.count;
        row.total += t.dur[k];
        row.min = std::min(row.min, t.dur[k]);
        row.max = std::max(row.max, t.dur[k]);
        row.bySide[size_t(gpuSideOfLaunch(graph, launch))] += t.dur[k];
        out.kernelTime += t.dur[k];
        if (const SliceId op = graph.launchingOp(k); op != kNoSlice)
            ++ops[it->second][t.name[op]];
    }
    for (size_t r = 0; r < out.rows.size(); ++r) {
        auto &list = out.rows[r].ops;
        list.assign(ops[r].begin(), ops[r].end());
        std::sort(list.begin(), list.end(), [&](const auto &a, const auto &b) {
            return a.second != b.second ? a.second > b.second : m.str(a.first) < m.str(b.first);
        });
    }
    std::sort(out.rows.begin(), out.rows.end(), [&](const auto &a, const auto &b) {
        return a.total != b.total ? a.total > b.total : m.str(a.name) < m.str(b.name);
    });
    return out;
}

} // namespace ks
