// SPDX-License-Identifier: MIT
#include "timeline/curvepainter.h"

#include "common/palette.h"
#include "common/timeformat.h"
#include "timeline/tracklayout.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace ks {

using namespace timeline;

namespace {

constexpr int kPad = 6; // above and below the curves inside a track

//! The forward and backward colours of every chart, faint behind the curves.
QColor phaseColor(WorkPart part)
{
    QColor c = workColor(part);
    c.setAlpha(part == WorkPart::Forward ? 26 : 30);
    return c;
}
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

QRect CurvePainter::plotArea(const PaintFrame &frame, int top, int height)
{
    return QRect(kLabelWidth, top + kPad, frame.axis.width, height - 2 * kPad);
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
        const QRect area = plotArea(frame, y, tr.height);
        const Curve::Range range = scale(track);
        m_columns.resize(track.curves.size());
        for (size_t i = 0; i < track.curves.size(); ++i)
            track.curves[i].columns(m_graph.model().minTime, frame.axis.time(area.left()),
                frame.axis.nsPerPixel, area.width(), m_columns[i]);
        // Opaque fill, then the translucent phases over it (wide rectangles blend fast), then
        // the steps: a translucent column one pixel wide would cost twenty times an opaque one.
        if (!track.curves.empty())
            paintFill(p, frame, area, m_columns[0], range, curveColor(track, 0));
        paintPhases(p, frame, area);
        for (size_t i = track.curves.size(); i-- > 0;)
            paintSteps(p, area, m_columns[i], range, curveColor(track, i));
        // The top of the scale at the right end, so that heights read as values.
        p.setPen(frame.palette.color(QPalette::PlaceholderText));
        p.setFont(frame.font);
        p.drawText(QRect(area.right() - 204, y, 200, kPad + 14), Qt::AlignRight | Qt::AlignTop,
            QStringLiteral("max ") + valueText(track, range.max));
        paintPeak(p, frame, area, track, range);
    }
}

void CurvePainter::paintPhases(QPainter &p, const PaintFrame &frame, const QRect &area) const
{
    const TimeAxis &axis = frame.axis;
    const TimeNs origin = m_graph.model().minTime;
    const double left = area.left(), right = area.right() + 1;
    const std::vector<ProfilerStep> &steps = m_graph.steps();
    // Level of detail: a step narrower than kMinStepPx gets no shading and no line (thousands of
    // steps in a frame would only cover the track in translucent slivers, slowly).
    constexpr double kMinStepPx = 4;
    auto wide = [&](const ProfilerStep &s) {
        return axis.x(double(s.end - origin)) - axis.x(double(s.start - origin)) >= kMinStepPx;
    };
    auto shade = [&](TimeNs a, TimeNs b, const QColor &color) {
        const double x0 = std::max(left, axis.x(double(a - origin)));
        const double x1 = std::min(right, axis.x(double(b - origin)));
        if (x1 > x0)
            p.fillRect(QRectF(x0, area.top() - kPad, x1 - x0, area.height() + 2 * kPad), color);
    };
    for (const StepPhases &ph : m_curves.phases) {
        if (!wide(steps[ph.step]))
            continue;
        shade(ph.forwardBegin, ph.forwardEnd, phaseColor(WorkPart::Forward));
        shade(ph.backwardBegin, ph.backwardEnd, phaseColor(WorkPart::Backward));
    }
    p.setPen(QPen(kStepLine, 1));
    auto stepLine = [&](TimeNs t) {
        const double x = axis.x(double(t - origin));
        if (x >= left && x <= right)
            p.drawLine(QPointF(x, area.top() - kPad), QPointF(x, area.bottom() + kPad));
    };
    for (const ProfilerStep &step : steps) {
        if (wide(step))
            stepLine(step.start);
    }
    if (!steps.empty() && wide(steps.back()))
        stepLine(steps.back().end);
}

namespace {
//! A column's vertical extent, top to bottom; empty (top == bottom) draws nothing.
using Extent = std::pair<double, double>;
constexpr Extent kNothing {0, 0};

/*!
 * Fills, for each run of columns with the same vertical extent, one rectangle: a flat stretch of a
 * curve is one call, not one per pixel (each fillRect costs about the same, wide or narrow).
 */
template<typename ExtentOf>
void fillRuns(QPainter &p, const QRect &area, size_t count, const QColor &color, ExtentOf extent)
{
    size_t runStart = 0;
    Extent run = kNothing;
    auto flush = [&](size_t end) {
        if (run.second > run.first)
            p.fillRect(QRectF(area.left() + double(runStart), run.first, double(end - runStart),
                           run.second - run.first),
                color);
    };
    for (size_t i = 0; i < count; ++i) {
        const Extent e = extent(i);
        if (e != run) {
            flush(i);
            run = e;
            runStart = i;
        }
    }
    flush(count);
}
} // namespace

void CurvePainter::paintFill(QPainter &p,
    const PaintFrame &frame,
    const QRect &area,
    const std::vector<Curve::Column> &columns,
    Curve::Range scale,
    const QColor &color) const
{
    // The colour at 30 % over the base, as an opaque colour.
    const QColor base = frame.palette.color(QPalette::Base);
    const auto mix = [](int c, int b) { return (c * 3 + b * 7) / 10; };
    const QColor fill(mix(color.red(), base.red()), mix(color.green(), base.green()),
        mix(color.blue(), base.blue()));
    const double baseline = valueY(area, std::max(0.0, scale.min), scale.min, scale.max);
    fillRuns(p, area, columns.size(), fill, [&](size_t i) {
        if (!columns[i])
            return kNothing;
        return Extent(std::round(valueY(area, columns[i]->max, scale.min, scale.max)), baseline);
    });
}

void CurvePainter::paintSteps(QPainter &p,
    const QRect &area,
    const std::vector<Curve::Column> &columns,
    Curve::Range scale,
    const QColor &color) const
{
    // Each column from its highest to its lowest value (one pixel high at least): it holds the
    // value at its start, the last column's end, so neighbouring columns join into the step line.
    fillRuns(p, area, columns.size(), color, [&](size_t i) {
        if (!columns[i])
            return kNothing;
        const double top = std::min(
            std::floor(valueY(area, columns[i]->max, scale.min, scale.max)), double(area.bottom()));
        const double bottom = std::min(
            std::floor(valueY(area, columns[i]->min, scale.min, scale.max)), double(area.bottom()));
        return Extent(top, std::max(top + 1, bottom + 1));
    });
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
