// SPDX-License-Identifier: MIT
#include "timeline/slicefinder.h"

#include "common/qstrings.h"

#include <algorithm>
#include <tuple>

namespace ks {

bool SliceFinder::before(const TraceModel &model, SliceId a, SliceId b)
{
    const SliceTable &t = model.slices;
    return std::tie(t.start[a], a) < std::tie(t.start[b], b);
}

SliceFinder::Result SliceFinder::search(
    const TraceModel &model, const QRegularExpression &regex, const std::atomic<bool> &stop)
{
    // Match each distinct name once, then collect the slices carrying a matching name.
    Result r;
    const StringPool &pool = model.strings;
    r.nameMatches.assign(pool.size(), false);
    const SliceTable &t = model.slices;
    std::vector<bool> tested(pool.size(), false);
    for (SliceId s = 0; s < t.size(); ++s) {
        if ((s & 0xffff) == 0 && stop)
            return {};
        const StringId n = t.name[s];
        if (!tested[n]) {
            tested[n] = true;
            r.nameMatches[n] = regex.match(toQString(pool.view(n))).hasMatch();
        }
        if (r.nameMatches[n])
            r.matches.push_back(s);
    }
    std::sort(r.matches.begin(), r.matches.end(),
        [&model](SliceId a, SliceId b) { return before(model, a, b); });
    return r;
}

SliceFinder::Result SliceFinder::search(
    const TraceModel &model, const std::vector<ArgFilter> &filters, const std::atomic<bool> &stop)
{
    Result r;
    const SliceTable &t = model.slices;
    r.sliceMatches.assign(t.size(), false);
    for (SliceId s = 0; s < t.size(); ++s) {
        if ((s & 0xffff) == 0 && stop)
            return {};
        if (meetsArgFilters(model, s, filters)) {
            r.sliceMatches[s] = true;
            r.matches.push_back(s);
        }
    }
    std::sort(r.matches.begin(), r.matches.end(),
        [&model](SliceId a, SliceId b) { return before(model, a, b); });
    return r;
}

void SliceFinder::setResult(Result result)
{
    m_matches = std::move(result.matches);
    m_nameMatches = std::move(result.nameMatches);
    m_sliceMatches = std::move(result.sliceMatches);
}

std::optional<size_t> SliceFinder::next(SliceId current, bool backward) const
{
    if (m_matches.empty())
        return std::nullopt;
    auto less = [this](SliceId a, SliceId b) { return before(m_model, a, b); };
    if (current == kNoSlice)
        return backward ? m_matches.size() - 1 : 0;
    if (!backward) {
        auto it = std::upper_bound(m_matches.begin(), m_matches.end(), current, less);
        return it == m_matches.end() ? 0 : size_t(it - m_matches.begin());
    }
    auto it = std::lower_bound(m_matches.begin(), m_matches.end(), current, less);
    return it == m_matches.begin() ? m_matches.size() - 1 : size_t(it - m_matches.begin()) - 1;
}

} // namespace ks
