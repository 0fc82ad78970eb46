// SPDX-License-Identifier: MIT
#include "analysis/toppairs.h"

#include <algorithm>

namespace ks {

TimeNs pairCost(const PairRow &row, PairCost cost)
{
    const TimeNs both = row.forwardGpu.time + row.backwardGpu.time;
    return cost == PairCost::WithRecompute ? both + row.recomputeGpu.time : both;
}

std::vector<uint32_t> topPairRows(const OpGraph &graph, size_t limit, PairCost cost, int64_t step)
{
    const std::vector<PairRow> &rows = graph.rows();
    std::vector<uint32_t> out;
    for (uint32_t r = 0; r < rows.size(); ++r) {
        if ((step == kNoValue || rows[r].step == step) && pairCost(rows[r], cost) > 0)
            out.push_back(r);
    }
    const auto dearer = [&](uint32_t a, uint32_t b) {
        const TimeNs ca = pairCost(rows[a], cost), cb = pairCost(rows[b], cost);
        return ca != cb ? ca > cb : a < b;
    };
    const size_t top = std::min(limit, out.size());
    std::partial_sort(out.begin(), out.begin() + std::ptrdiff_t(top), out.end(), dearer);
    out.resize(top);
    return out;
}

} // namespace ks
