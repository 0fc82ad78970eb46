// SPDX-License-Identifier: MIT
#include "timeline/curvepainter.h"

#include "common/timeformat.h"
#include "timeline/tracklayout.h"

#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ks {

using namespace timeline;

namespace {

constexpr int kPad = 6; // above and below the curves inside a track

const QColor kForwardPhase(40, 120, 220, 26);
const QColor kBackwardPhase(230, 120, 30, 30);
const QColor kStepLine(120, 120, 120, 150);
const QColor kPeak(200, 40, 40);

//! The colours of a track's curves, in order: the first is filled.
QColor curveColor(const CurveTrack &track, size_t i)
{
    if (track.kind == CurveTrack::Kind::Memory)
        return i == 0 ? QColor(30, 110, 170) : QColor(110, 110, 110);
    return QColor(120, 70, 170);
}

QString valueText(const CurveTrack &track, double v)
{
    return track.kind == CurveTrack::Kind::Memory ? formatBytes(v) : QString::number(v, 'g', 4);
}

} // namespace

QRect CurvePainter::plotArea(const PaintFrame &frame, int top)
{
    return QRect(kLabelWidth, top + kPad, frame.axis.width, kCurveTrackHeight - 2 * kPad);
}

double CurvePainter::valueY(const QRect &area, double value, double lo, double hi)
{
    const double span = hi > lo ? hi - lo : 1;
    return area.bottom() + 1 - (value - lo) / span * area.height();
}

Curve::Range CurvePainter::scale(const CurveTrack &track)
{
    Curve::Range r {0, 0};
    for (const Curve &c : track.curves) {
        if (c.size() == 0)
            continue;
        const Curve::Range all
            = *c.rangeOver(c.times().front(), std::numeric_limits<TimeNs>::max());
        r = {std::min(r.min, all.min), std::max(r.max, all.max)};
    }
    return r;
}

void CurvePainter::paint(QPainter &p, const PaintFrame &frame) const
{
    const int top = frame.top();
    for (size_t c = 0; c < m_curves.tracks.size(); ++c) {
        const int ti = m_layout.curveTrack(c);
        if (ti < 0)
            continue;
        const TrackLayout::Track &tr = m_layout.tracks()[size_t(ti)];
        const int y = top + tr.y;
        if (y > frame.size.height() || y + tr.height < kRulerHeight)
            continue;
        const CurveTrack &track = m_curves.tracks[c];
        const QRect area = plotArea(frame, y);
        paintPhases(p, frame, area);
        const Curve::Range range = scale(track);
        // The top of the scale at the right end, so that heights read as values.
        p.setPen(frame.palette.color(QPalette::PlaceholderText));
        p.setFont(frame.font);
        p.drawText(QRect(area.right() - 204, y, 200, kPad + 14), Qt::AlignRight | Qt::AlignTop,
            QStringLiteral("max ") + valueText(track, range.max));
        // The filled curve last, so that a reserved line never hides the allocated area's top.
        for (size_t i = track.curves.size(); i-- > 0;)
            paintCurve(p, frame, area, track.curves[i], range, curveColor(track, i), i == 0);
        paintPeak(p, frame, area, track, range);
    }
}

void CurvePainter::paintPhases(QPainter &p, const PaintFrame &frame, const QRect &area) const
{
    const TimeAxis &axis = frame.axis;
    const double origin = double(m_graph.model().minTime);
    const double left = area.left(), right = area.right() + 1;
    auto shade = [&](TimeNs a, TimeNs b, const QColor &color) {
        const double x0 = std::max(left, axis.x(double(a) - origin));
        const double x1 = std::min(right, axis.x(double(b) - origin));
        if (x1 > x0)
            p.fillRect(QRectF(x0, area.top() - kPad, x1 - x0, area.height() + 2 * kPad), color);
    };
    for (const StepPhases &ph : m_curves.phases) {
        shade(ph.forwardBegin, ph.forwardEnd, kForwardPhase);
        shade(ph.backwardBegin, ph.backwardEnd, kBackwardPhase);
    }
    p.setPen(QPen(kStepLine, 1));
    auto stepLine = [&](TimeNs t) {
        const double x = axis.x(double(t) - origin);
        if (x >= left && x <= right)
            p.drawLine(QPointF(x, area.top() - kPad), QPointF(x, area.bottom() + kPad));
    };
    for (const ProfilerStep &step : m_graph.steps())
        stepLine(step.start);
    if (!m_graph.steps().empty())
        stepLine(m_graph.steps().back().end);
}

void CurvePainter::paintCurve(QPainter &p,
    const PaintFrame &frame,
    const QRect &area,
    const Curve &curve,
    Curve::Range scale,
    const QColor &color,
    bool filled) const
{
    if (curve.size() == 0)
        return;
    const TimeAxis &axis = frame.axis;
    const double origin = double(m_graph.model().minTime);
    const double baseline = valueY(area, std::max(0.0, scale.min), scale.min, scale.max);
    QColor fillColor = color;
    fillColor.setAlpha(70);
    const QPen pen(color, 1, filled ? Qt::SolidLine : Qt::DashLine);
    // Per run of columns with values: the area under the highest value of each column as one
    // polygon, then the steps as one polyline (plain, not antialiased: a stroked path with
    // antialiasing costs several times as much on a full-width curve).
    QPolygonF line, under;
    auto flush = [&] {
        if (line.size() > 1) {
            if (filled) {
                under << QPointF(under.back().x(), baseline)
                      << QPointF(under.front().x(), baseline);
                p.setPen(Qt::NoPen);
                p.setBrush(fillColor);
                p.drawPolygon(under);
            }
            p.setPen(pen);
            p.setBrush(Qt::NoBrush);
            p.drawPolyline(line);
        }
        line.clear();
        under.clear();
    };
    for (int x = area.left(); x <= area.right(); ++x) {
        const TimeNs a = TimeNs(std::floor(axis.time(x) + origin));
        const TimeNs b = std::max(a + 1, TimeNs(std::floor(axis.time(x + 1) + origin)));
        const std::optional<Curve::Range> r = curve.rangeOver(a, b);
        if (!r) {
            flush();
            continue;
        }
        // In effect at the column's start and end: the step's shape where a column holds few
        // points.
        const double first = curve.values()[size_t(std::max<int64_t>(0, curve.pointAt(a)))];
        const double last = curve.values()[size_t(curve.pointAt(b - 1))];
        const double yMax = valueY(area, r->max, scale.min, scale.max);
        line << QPointF(x, valueY(area, first, scale.min, scale.max)) << QPointF(x, yMax)
             << QPointF(x, valueY(area, r->min, scale.min, scale.max))
             << QPointF(x, valueY(area, last, scale.min, scale.max));
        if (filled)
            under << QPointF(x, yMax) << QPointF(x + 1, yMax);
    }
    flush();
}

void CurvePainter::paintPeak(QPainter &p,
    const PaintFrame &frame,
    const QRect &area,
    const CurveTrack &track,
    Curve::Range scale) const
{
    if (track.curves.empty() || track.curves[0].size() == 0)
        return;
    const Curve &c = track.curves[0];
    const double x = frame.axis.x(double(c.times()[c.peakIndex()] - m_graph.model().minTime));
    if (x < area.left() - 4 || x > area.right() + 4)
        return;
    const double y = valueY(area, c.peak(), scale.min, scale.max);
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(kPeak);
    const QPointF marker[] = {{x - 5, y - 8}, {x + 5, y - 8}, {x, y - 1}};
    p.drawPolygon(marker, 3);
    p.setPen(kPeak);
    const QString text = QStringLiteral("peak ") + valueText(track, c.peak());
    const int w = QFontMetrics(frame.font).horizontalAdvance(text) + 4;
    const bool leftOf = x + 8 + w > area.right();
    p.drawText(QRectF(leftOf ? x - 8 - w : x + 8, y - 12, w, 14), Qt::AlignVCenter, text);
    p.restore();
}

} // namespace ks
