// SPDX-License-Identifier: MIT
#include "timeline/slicefinder.h"

#include "common/qstrings.h"

#include <algorithm>
#include <tuple>

namespace ks {

bool SliceFinder::before(SliceId a, SliceId b) const
{
    const SliceTable &t = m_model.slices;
    return std::tie(t.start[a], a) < std::tie(t.start[b], b);
}

bool SliceFinder::setPattern(const QString &pattern, QString *error)
{
    m_matches.clear();
    m_nameMatches.clear();
    if (pattern.isEmpty())
        return true;
    const QRegularExpression regex(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!regex.isValid()) {
        if (error)
            *error = regex.errorString();
        return false;
    }
    // Match each distinct name once, then collect the slices carrying a matching name.
    const StringPool &pool = m_model.strings;
    m_nameMatches.assign(pool.size(), false);
    const SliceTable &t = m_model.slices;
    std::vector<bool> tested(pool.size(), false);
    for (SliceId s = 0; s < t.size(); ++s) {
        const StringId n = t.name[s];
        if (!tested[n]) {
            tested[n] = true;
            const std::string_view name = pool.view(n);
            m_nameMatches[n] = regex.match(toQString(name)).hasMatch();
        }
        if (m_nameMatches[n])
            m_matches.push_back(s);
    }
    std::sort(
        m_matches.begin(), m_matches.end(), [this](SliceId a, SliceId b) { return before(a, b); });
    return true;
}

std::optional<size_t> SliceFinder::next(SliceId current, bool backward) const
{
    if (m_matches.empty())
        return std::nullopt;
    auto less = [this](SliceId a, SliceId b) { return before(a, b); };
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
