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

private:
    Range rangeOfPoints(size_t first, size_t last, size_t *visited) const;

    std::vector<TimeNs> m_time;
    std::vector<double> m_value;
    std::vector<std::vector<Range>> m_levels; //!< [k][i]: points [i·16^(k+1), (i+1)·16^(k+1))
    size_t m_peak = 0;
};

} // namespace ks
