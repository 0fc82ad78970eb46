// SPDX-License-Identifier: MIT
#include "analysis/pairs/toppairs.h"

#include <algorithm>

namespace ks {

PairCost pairCost(const PairRow &row)
{
    return {row.forwardGpu.time, row.backwardGpu.time, row.recomputedGpu.time};
}

std::vector<uint32_t> topByCost(
    size_t count, size_t limit, const std::function<PairCost(uint32_t)> &cost)
{
    std::vector<std::pair<TimeNs, uint32_t>> ranked; // (−total, index): ascending is dearest first
    for (uint32_t i = 0; i < count; ++i) {
        const TimeNs total = cost(i).total();
        if (total > 0)
            ranked.emplace_back(-total, i);
    }
    const size_t top = std::min(limit, ranked.size());
    std::partial_sort(ranked.begin(), ranked.begin() + std::ptrdiff_t(top), ranked.end());
    std::vector<uint32_t> out;
    out.reserve(top);
    for (size_t k = 0; k < top; ++k)
        out.push_back(ranked[k].second);
    return out;
}

std::vector<uint32_t> topPairRows(const OpGraph &graph, size_t limit, int64_t step)
{
    const std::vector<PairRow> &rows = graph.rows();
    return topByCost(rows.size(), limit, [&](uint32_t r) {
        return step == kNoValue || rows[r].step == step ? pairCost(rows[r]) : PairCost {};
    });
}

} // namespace ks
