// SPDX-License-Identifier: MIT
#include "analysis/ranks/rankpairs.h"

#include "analysis/compare/sequencealign.h"
#include "analysis/compare/tracediff.h"
#include "analysis/modules/modulepaths.h"
#include "analysis/pairs/pairkeys.h"
#include "base/parallel.h"

#include <algorithm>
#include <cmath>

namespace ks {

namespace {

double rateOrNaN(const SideEfficiency *side)
{
    const std::optional<double> rate = side ? side->tflopsPerS() : std::nullopt;
    return rate ? *rate : std::nan("");
}

/*!
 * The rows of rank \a other matched with the first rank's (TraceDiff's Matched entries, step by
 * position), as (first rank's row, other rank's row).
 */
std::vector<SequenceMatch> matchWithFirst(const RankPairRows &first, const RankPairRows &other)
{
    const RankPairRows *sides[2] = {&first, &other};
    std::vector<SequenceMatch> matched;
    for (const RowSlot &s : slotsByPosition(groupByStep({first.step, other.step}))) {
        std::vector<uint32_t> keys[2], ops[2];
        for (int side = 0; side < 2; ++side) {
            for (uint32_t r : s.rows[size_t(side)]) {
                keys[side].push_back(sides[side]->key[r]);
                ops[side].push_back(sides[side]->opKey[r]);
            }
        }
        const DiffOptions defaults;
        for (const auto &[i, j] :
            alignKeysThenOps(keys[0], keys[1], ops[0], ops[1], defaults.exactAlignCells)) {
            if (keys[0][i] == keys[1][j]) // not a changed op matched by its name alone
                matched.emplace_back(s.rows[0][i], s.rows[1][j]);
        }
    }
    return matched;
}

} // namespace

void rekeyPairRows(RankPairRows &rows, const StringPool &from, StringPool &to)
{
    for (size_t row = 0; row < rows.size(); ++row) {
        rows.key[row] = to.intern(from.view(rows.key[row]));
        rows.opKey[row] = to.intern(from.view(rows.opKey[row]));
    }
}

RankPairRows rankPairRows(
    const ModuleTree &modules, const OpEfficiency *efficiency, StringPool &keys)
{
    const OpGraph &g = modules.graph();
    const TraceModel &m = g.model();
    RankPairRows out;
    std::string names;
    for (size_t r = 0; r < g.rows().size(); ++r) {
        const PairRow &row = g.rows()[r];
        names.clear();
        g.appendNodeNames(row, names);
        const ModuleId module = moduleOfRow(modules, row);
        const bool hasForward = row.forward != kNoSlice;
        const PairKeys k = pairKeys(hasForward,
            hasForward ? m.sliceName(row.forward) : std::string_view(),
            module == kNoModule ? std::string_view() : std::string_view(modules.node(module).path),
            hasForward ? m.str(m.slices.inputDims[row.forward]) : std::string_view(), names,
            row.recompute);
        const PairEfficiency *e = efficiency ? &efficiency->pairs()[r] : nullptr;
        out.step.push_back(row.step);
        out.key.push_back(keys.intern(k.key));
        out.opKey.push_back(keys.intern(k.opKey));
        out.hasForward.push_back(hasForward);
        out.forwardGpu.push_back(row.forwardGpu.time);
        out.backwardGpu.push_back(row.backwardGpu.time);
        out.forwardTflops.push_back(rateOrNaN(e ? &e->forward : nullptr));
        out.backwardTflops.push_back(rateOrNaN(e ? &e->backward : nullptr));
    }
    return out;
}

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

RankPairs matchRankPairs(
    std::vector<RankPairRows> ranks, unsigned threads, const std::atomic<bool> *cancel)
{
    RankPairs out;
    if (ranks.empty())
        return out;
    const size_t n = ranks.size();
    out.pairs.resize(ranks.front().size());
    out.unmatchedRows.assign(n, 0);
    for (size_t i = 0; i < out.pairs.size(); ++i) {
        RankPair &p = out.pairs[i];
        p.rows.assign(n, -1);
        p.forwardGpu.assign(n, 0);
        p.backwardGpu.assign(n, 0);
        p.rows[0] = int64_t(i);
    }
    // Each rank is compared with the first on its own: the comparisons run side by side, each
    // writing only its rank's column.
    parallelFor(n - 1, threads, [&](size_t k) {
        const size_t r = k + 1;
        if (cancel && cancel->load(std::memory_order_relaxed))
            return;
        const auto matched = matchWithFirst(ranks.front(), ranks[r]);
        for (const auto &[first, row] : matched)
            out.pairs[first].rows[r] = row;
        out.unmatchedRows[r] = ranks[r].size() - matched.size();
    });
    for (RankPair &p : out.pairs) {
        bool any = false;
        TimeNs low = 0, high = 0;
        for (size_t r = 0; r < n; ++r) {
            if (p.rows[r] < 0)
                continue;
            const auto row = size_t(p.rows[r]);
            const TimeNs backward = ranks[r].backwardGpu[row];
            p.forwardGpu[r] = ranks[r].forwardGpu[row];
            p.backwardGpu[r] = backward;
            ++p.ranksPresent;
            if (ranks[r].gpuUnknown)
                continue;
            ++p.ranksTimed;
            if (!any || backward > high) {
                high = backward;
                p.slowestRankIndex = uint32_t(r);
            }
            low = any ? std::min(low, backward) : backward;
            any = true;
        }
        p.backwardSpread = high - low;
    }
    out.ranks = std::move(ranks);
    return out;
}

} // namespace ks
