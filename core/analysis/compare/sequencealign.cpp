// SPDX-License-Identifier: MIT
#include "analysis/compare/sequencealign.h"

#include <algorithm>
#include <unordered_map>

namespace ks {

namespace {

using Match = SequenceMatch;

/*!
 * Exact longest common subsequence of \a a and \a b, appended to \a out (offset by \a aOff,
 * \a bOff) in increasing order. Computed over suffixes so that the walk from the front takes a
 * match as soon as one is possible; on ties the base element is skipped first.
 */
void alignExact(std::span<const uint32_t> a,
    std::span<const uint32_t> b,
    uint32_t aOff,
    uint32_t bOff,
    std::vector<Match> &out)
{
    enum : uint8_t { Take, SkipBase, SkipCandidate };
    const size_t n = a.size(), m = b.size();
    std::vector<uint8_t> dir(n * m);
    std::vector<uint32_t> next(m + 1, 0), cur(m + 1, 0);
    for (size_t i = n; i-- > 0;) {
        cur[m] = 0;
        for (size_t j = m; j-- > 0;) {
            uint8_t &d = dir[i * m + j];
            if (a[i] == b[j]) {
                cur[j] = next[j + 1] + 1;
                d = Take;
            } else if (next[j] >= cur[j + 1]) {
                cur[j] = next[j];
                d = SkipBase;
            } else {
                cur[j] = cur[j + 1];
                d = SkipCandidate;
            }
        }
        std::swap(cur, next);
    }
    size_t i = 0, j = 0;
    while (i < n && j < m) {
        switch (dir[i * m + j]) {
        case Take:
            out.emplace_back(aOff + uint32_t(i), bOff + uint32_t(j));
            ++i;
            ++j;
            break;
        case SkipBase:
            ++i;
            break;
        default:
            ++j;
            break;
        }
    }
}

/*!
 * Alignment too large for alignExact(): the k-th occurrence of a key in \a a is paired with the
 * k-th in \a b, and the longest chain of those pairs that do not cross is kept.
 */
void alignByOccurrence(std::span<const uint32_t> a,
    std::span<const uint32_t> b,
    uint32_t aOff,
    uint32_t bOff,
    std::vector<Match> &out)
{
    std::unordered_map<uint32_t, std::vector<uint32_t>> positions; // key → indices in a
    for (uint32_t i = 0; i < a.size(); ++i)
        positions[a[i]].push_back(i);
    std::unordered_map<uint32_t, uint32_t> seen;
    std::vector<Match> pairs;
    for (uint32_t j = 0; j < b.size(); ++j) {
        const auto it = positions.find(b[j]);
        if (it == positions.end())
            continue;
        const uint32_t k = seen[b[j]]++;
        if (k < it->second.size())
            pairs.emplace_back(it->second[k], j);
    }
    std::sort(pairs.begin(), pairs.end());
    // Longest strictly increasing run of candidate indices (patience sorting with back links).
    std::vector<uint32_t> tails; // index into pairs of the smallest tail of each length
    std::vector<int64_t> back(pairs.size(), -1);
    for (uint32_t p = 0; p < pairs.size(); ++p) {
        const auto pos = std::lower_bound(tails.begin(), tails.end(), pairs[p].second,
            [&](uint32_t t, uint32_t v) { return pairs[t].second < v; });
        if (pos != tails.begin())
            back[p] = *(pos - 1);
        if (pos == tails.end())
            tails.push_back(p);
        else
            *pos = p;
    }
    std::vector<Match> chain;
    for (int64_t p = tails.empty() ? -1 : int64_t(tails.back()); p >= 0; p = back[size_t(p)])
        chain.push_back(pairs[size_t(p)]);
    std::reverse(chain.begin(), chain.end()); // the back links run from the end
    for (const auto &[a, b] : chain)
        out.emplace_back(aOff + a, bOff + b);
}

} // namespace

void alignSequences(std::span<const uint32_t> a,
    std::span<const uint32_t> b,
    uint32_t aOff,
    uint32_t bOff,
    size_t exactCells,
    std::vector<Match> &out)
{
    const size_t n = a.size(), m = b.size();
    size_t prefix = 0;
    while (prefix < n && prefix < m && a[prefix] == b[prefix]) {
        out.emplace_back(aOff + uint32_t(prefix), bOff + uint32_t(prefix));
        ++prefix;
    }
    size_t suffix = 0;
    while (suffix < n - prefix && suffix < m - prefix && a[n - 1 - suffix] == b[m - 1 - suffix])
        ++suffix;
    const auto middleA = a.subspan(prefix, n - prefix - suffix);
    const auto middleB = b.subspan(prefix, m - prefix - suffix);
    if (!middleA.empty() && !middleB.empty()) {
        if (middleA.size() * middleB.size() <= exactCells)
            alignExact(middleA, middleB, aOff + uint32_t(prefix), bOff + uint32_t(prefix), out);
        else
            alignByOccurrence(
                middleA, middleB, aOff + uint32_t(prefix), bOff + uint32_t(prefix), out);
    }
    for (size_t k = suffix; k > 0; --k)
        out.emplace_back(aOff + uint32_t(n - k), bOff + uint32_t(m - k));
}

std::vector<SequenceMatch> alignKeysThenOps(std::span<const uint32_t> keysA,
    std::span<const uint32_t> keysB,
    std::span<const uint32_t> opsA,
    std::span<const uint32_t> opsB,
    size_t exactCells)
{
    std::vector<SequenceMatch> matches;
    alignSequences(keysA, keysB, 0, 0, exactCells, matches);
    std::vector<SequenceMatch> all;
    uint32_t i0 = 0, j0 = 0;
    auto gap = [&](uint32_t i1, uint32_t j1) {
        if (i1 > i0 && j1 > j0)
            alignSequences(
                opsA.subspan(i0, i1 - i0), opsB.subspan(j0, j1 - j0), i0, j0, exactCells, all);
    };
    for (const SequenceMatch &match : matches) {
        gap(match.first, match.second);
        all.push_back(match);
        i0 = match.first + 1;
        j0 = match.second + 1;
    }
    gap(uint32_t(keysA.size()), uint32_t(keysB.size()));
    return all;
}

} // namespace ks
