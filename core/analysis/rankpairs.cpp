// SPDX-License-Identifier: MIT
#include "analysis/rankpairs.h"

#include "analysis/tracediff.h"
#include "base/parallel.h"

#include <algorithm>

namespace ks {

size_t RankPairs::matchedOnAnother() const
{
    return size_t(std::count_if(
        pairs.begin(), pairs.end(), [](const RankPair &p) { return p.ranksPresent >= 2; }));
}

size_t RankPairs::matchedOnEvery(size_t ranks) const
{
    return size_t(std::count_if(
        pairs.begin(), pairs.end(), [&](const RankPair &p) { return p.ranksPresent == ranks; }));
}

RankPairs matchRankPairs(const RankTraces &ranks, unsigned threads, const std::atomic<bool> *cancel)
{
    RankPairs out;
    if (ranks.empty())
        return out;
    const size_t n = ranks.size();
    const auto &reference = ranks.front().graph->rows();
    out.pairs.resize(reference.size());
    out.unmatchedRows.assign(n, 0);
    for (size_t i = 0; i < reference.size(); ++i) {
        RankPair &p = out.pairs[i];
        p.rows.assign(n, -1);
        p.forwardGpu.assign(n, 0);
        p.backwardGpu.assign(n, 0);
        p.rows[0] = int64_t(i);
    }
    // Each rank is compared with the first on its own: the comparisons run side by side, each
    // writing only its rank's column.
    DiffOptions options;
    options.rollups = false;
    options.cancel = cancel;
    parallelFor(n - 1, threads, [&](size_t k) {
        const size_t r = k + 1;
        const auto diff = TraceDiff::compare(*ranks.front().modules, *ranks[r].modules, options);
        if (!diff)
            return;
        uint64_t matched = 0;
        for (const DiffEntry &e : diff->entries()) {
            if (e.status == DiffStatus::Matched && e.base.present() && e.candidate.present()) {
                out.pairs[size_t(e.base.row)].rows[r] = e.candidate.row;
                ++matched;
            }
        }
        out.unmatchedRows[r] = ranks[r].graph->rows().size() - matched;
    });
    for (RankPair &p : out.pairs) {
        bool any = false;
        TimeNs low = 0, high = 0;
        for (size_t r = 0; r < n; ++r) {
            if (p.rows[r] < 0)
                continue;
            const PairRow &row = ranks[r].graph->rows()[size_t(p.rows[r])];
            p.forwardGpu[r] = row.forwardGpu.time;
            p.backwardGpu[r] = row.backwardGpu.time;
            ++p.ranksPresent;
            if (!any || row.backwardGpu.time > high) {
                high = row.backwardGpu.time;
                p.slowestRankIndex = uint32_t(r);
            }
            low = any ? std::min(low, row.backwardGpu.time) : row.backwardGpu.time;
            any = true;
        }
        p.backwardSpread = high - low;
    }
    return out;
}

} // namespace ks
