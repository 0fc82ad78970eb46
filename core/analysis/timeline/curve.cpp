// SPDX-License-Identifier: MIT
#include "analysis/timeline/curve.h"

#include <algorithm>
#include <cmath>

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

size_t Curve::firstAfter(TimeNs t, size_t from, size_t *visited) const
{
    // Gallop: the answer is usually a few points on, and the points nearby are in cache.
    size_t step = 1, lo = from, hi = from;
    while (hi < m_time.size() && m_time[hi] <= t) {
        if (visited)
            ++*visited;
        lo = hi + 1;
        hi += step;
        step *= 2;
    }
    hi = std::min(hi, m_time.size());
    return size_t(std::upper_bound(m_time.begin() + lo, m_time.begin() + hi, t) - m_time.begin());
}

void Curve::columns(TimeNs origin,
    double start,
    double width,
    int count,
    std::vector<Column> &out,
    size_t *visited) const
{
    out.assign(size_t(std::max(0, count)), Column {});
    if (m_time.empty())
        return;
    auto edge = [&](int i) { return origin + TimeNs(std::floor(start + i * width)); };
    size_t end = 0; // the first point at or after the last column's end
    for (int i = 0; i < count; ++i) {
        const TimeNs a = edge(i);
        const TimeNs b = std::max(a + 1, edge(i + 1));
        // [0, next) are at or before a (next − 1 holds at a), [next, end) inside (a, b).
        const size_t next = firstAfter(a, end, visited);
        end = firstAfter(b - 1, next, visited);
        if (end == 0)
            continue; // no point yet
        out[size_t(i)] = rangeOfPoints(next == 0 ? 0 : next - 1, end - 1, visited);
    }
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
        if (level + 1 >= int(m_levels.size()) || hi - lo < 2 * kFanout) {
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
