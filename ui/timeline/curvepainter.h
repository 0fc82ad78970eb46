// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/paintframe.h"

#include "analysis/timeline/curvetracks.h"

#include <QRect>

class QPainter;

namespace ks {

class TrackLayout;

/*!
 * The curve tracks under the lanes (memory per device, `C` counters): the first curve filled,
 * each step's forward and backward phase shaded, a line at each step's start, then the curves
 * as steps and the first one's peak marked. Level of detail like the slices: each pixel column
 * draws the smallest and largest value in effect over it (Curve::columns: one sweep, O(log n) per
 * column at worst), so a frame costs about its width per curve whatever the number of points.
 */
class CurvePainter {
public:
    CurvePainter(const OpGraph &graph, const TraceCurves &curves, const TrackLayout &layout)
        : m_graph(graph)
        , m_curves(curves)
        , m_layout(layout)
    {
    }

    void paint(QPainter &p, const PaintFrame &frame) const;
    //! Where the curves of a track \a height tall whose top is at widget y \a top are drawn.
    static QRect plotArea(const PaintFrame &frame, int top, int height);
    //! The widget y of \a value in \a area for a track whose values span [lo, hi].
    static double valueY(const QRect &area, double value, double lo, double hi);
    //! The value range a track is drawn with: [min(0, lowest), max(0, highest)] over its curves.
    static Curve::Range scale(const CurveTrack &track);

private:
    void paintPhases(QPainter &p, const PaintFrame &frame, const QRect &area) const;
    //! The area under the highest value of each column (opaque: see paint()).
    void paintFill(QPainter &p,
        const PaintFrame &frame,
        const QRect &area,
        const std::vector<Curve::Column> &columns,
        Curve::Range scale,
        const QColor &color) const;
    void paintSteps(QPainter &p,
        const QRect &area,
        const std::vector<Curve::Column> &columns,
        Curve::Range scale,
        const QColor &color) const;
    void paintPeak(QPainter &p,
        const PaintFrame &frame,
        const QRect &area,
        const CurveTrack &track,
        Curve::Range scale) const;

    const OpGraph &m_graph;
    const TraceCurves &m_curves;
    const TrackLayout &m_layout;
    mutable std::vector<std::vector<Curve::Column>> m_columns; //!< per curve, reused each frame
};

} // namespace ks
