// SPDX-License-Identifier: MIT
#include "analysis/curve.h"

#include <algorithm>

namespace ks {

namespace {
constexpr size_t kFanout = 16;

Curve::Range merged(Curve::Range a, Curve::Range b)
{
    return {std::min(a.min, b.min), std::max(a.max, b.max)};
}
} // namespace

Curve::Curve(std::vector<TimeNs> time, std::vector<double> value)
    : m_time(std::move(time))
    , m_value(std::move(value))
{
    m_value.resize(m_time.size());
    for (size_t i = 1; i < m_value.size(); ++i) {
        if (m_value[i] > m_value[m_peak])
            m_peak = i;
    }
    // Level 0 summarises blocks of points, each further level blocks of the one below; only
    // whole blocks are summarised by rangeOfPoints, a partial last block is harmless.
    std::vector<Range> below;
    below.reserve(m_value.size());
    for (double v : m_value)
        below.push_back({v, v});
    while (below.size() > kFanout) {
        std::vector<Range> level((below.size() + kFanout - 1) / kFanout);
        for (size_t i = 0; i < below.size(); ++i)
            level[i / kFanout] = i % kFanout == 0 ? below[i] : merged(level[i / kFanout], below[i]);
        m_levels.push_back(level);
        below = std::move(level);
    }
}

int64_t Curve::pointAt(TimeNs t) const
{
    return int64_t(std::upper_bound(m_time.begin(), m_time.end(), t) - m_time.begin()) - 1;
}

std::optional<Curve::Range> Curve::rangeOver(TimeNs a, TimeNs b, size_t *visited) const
{
    const int64_t first = pointAt(a);
    const int64_t last = std::max(first, pointAt(b - 1)); // points at b belong to the next column
    if (last < 0)
        return std::nullopt;
    return rangeOfPoints(size_t(std::max<int64_t>(first, 0)), size_t(last), visited);
}

Curve::Range Curve::rangeOfPoints(size_t first, size_t last, size_t *visited) const
{
    Range r {m_value[first], m_value[first]};
    size_t lo = first, hi = last + 1; // [lo, hi) at the current level
    auto at = [&](int level, size_t i) {
        if (visited)
            ++*visited;
        return level < 0 ? Range {m_value[i], m_value[i]} : m_levels[size_t(level)][i];
    };
    for (int level = -1;; ++level) {
        // Climb while a whole block lies inside; read the ragged ends at this level.
        if (size_t(level + 1) >= m_levels.size() || hi - lo < 2 * kFanout) {
            for (size_t i = lo; i < hi; ++i)
                r = merged(r, at(level, i));
            return r;
        }
        for (; lo % kFanout != 0; ++lo)
            r = merged(r, at(level, lo));
        for (; hi % kFanout != 0; --hi)
            r = merged(r, at(level, hi - 1));
        lo /= kFanout;
        hi /= kFanout;
    }
}

} // namespace ks
