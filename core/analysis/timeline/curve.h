// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <optional>
#include <vector>

namespace ks {

/*!
 * A value that changes at points in time and holds between them (a step function): an
 * allocator's total, a `C` counter. Drawing asks for the smallest and largest value in effect
 * over each pixel column; a min/max pyramid (blocks of 16 points, then of 16 blocks, …) answers
 * that in O(log n) whatever the zoom, for about n/15 extra entries.
 */
class Curve {
public:
    struct Range {
        double min = 0, max = 0;
    };
    //! What one pixel column shows: the values in effect over it, nullopt before the first point.
    using Column = std::optional<Range>;

    //! \a time sorted (ties allowed: the last point of a time is what holds after it).
    Curve(std::vector<TimeNs> time, std::vector<double> value);

    size_t size() const { return m_time.size(); }
    const std::vector<TimeNs> &times() const { return m_time; }
    const std::vector<double> &values() const { return m_value; }
    //! The point with the largest value (the first of equals); 0 for an empty curve.
    size_t peakIndex() const { return m_peak; }
    //! The largest value, 0 for an empty curve.
    double peak() const { return m_value.empty() ? 0 : m_value[m_peak]; }

    //! The last point at or before \a t, -1 before the first.
    int64_t pointAt(TimeNs t) const;
    /*!
     * The values in effect anywhere in [\a a, \a b): the one holding at \a a and those of the
     * points inside; nullopt when the curve has no value there (before its first point).
     * \a visited, when given, counts the entries read (the tests' complexity bound).
     */
    std::optional<Range> rangeOver(TimeNs a, TimeNs b, size_t *visited = nullptr) const;

    /*!
     * \a count consecutive columns, column i covering [edges(i), edges(i + 1)) where edges(i) =
     * \a origin + \a start + i · \a width (the double rounded down; at least 1 ns wide; an origin
     * apart, so that epoch times keep their nanoseconds): one sweep that finds each
     * column's points by galloping from the last column's, so a frame reads memory in order
     * rather than by a binary search over the whole curve per column. \a visited as for
     * rangeOver().
     */
    void columns(TimeNs origin,
        double start,
        double width,
        int count,
        std::vector<Column> &out,
        size_t *visited = nullptr) const;

private:
    //! The first point after \a t at or after \a from (galloping, then binary search).
    size_t firstAfter(TimeNs t, size_t from, size_t *visited) const;
    Range rangeOfPoints(size_t first, size_t last, size_t *visited) const;

    std::vector<TimeNs> m_time;
    std::vector<double> m_value;
    std::vector<std::vector<Range>> m_levels; //!< [k][i]: points [i·16^(k+1), (i+1)·16^(k+1))
    size_t m_peak = 0;
};

} // namespace ks
