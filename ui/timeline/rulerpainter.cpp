// SPDX-License-Identifier: MIT
#include "timeline/rulerpainter.h"

#include "common/timeformat.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ks {

using namespace timeline;

template<typename F> void RulerPainter::forEachTick(const PaintFrame &frame, F f)
{
    const TimeAxis &axis = frame.axis;
    const double step = niceStep(axis.nsPerPixel * 90);
    // Ticks fall on round labels, which are times from the frame's ruler origin.
    const double origin = frame.rulerOrigin;
    const double first = std::ceil((axis.start + origin) / step) * step;
    const int right = kLabelWidth + axis.width;
    for (double t = first; t <= axis.start + origin + axis.span; t += step) {
        const int x = int(std::lround(axis.x(t - origin)));
        if (x >= kLabelWidth && x <= right)
            f(x, t, step);
    }
}

void RulerPainter::paintGrid(QPainter &p, const PaintFrame &frame)
{
    p.setPen(frame.palette.color(QPalette::Midlight));
    forEachTick(
        frame, [&](int x, double, double) { p.drawLine(x, kRulerHeight, x, frame.size.height()); });
}

void RulerPainter::paint(
    QPainter &p, const PaintFrame &frame, std::optional<std::pair<double, double>> rangeSelection)
{
    const QPalette &pal = frame.palette;
    const QSize size = frame.size;
    const TimeAxis &axis = frame.axis;
    const int right = kLabelWidth + axis.width;
    p.fillRect(QRect(0, 0, size.width(), kRulerHeight), pal.color(QPalette::Window));
    p.setPen(pal.color(QPalette::WindowText));
    forEachTick(frame, [&](int x, double t, double step) {
        p.drawLine(x, kRulerHeight - 8, x, kRulerHeight);
        p.drawText(QRect(x + 3, 2, 120, kRulerHeight - 10), Qt::AlignLeft | Qt::AlignVCenter,
            formatTick(t, step));
    });
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, kRulerHeight - 1, size.width(), kRulerHeight - 1);
    // Summary in the label column: the visible span.
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(6, 0, kLabelWidth - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
        tr("view: %1").arg(formatDuration(axis.span)));
    if (!rangeSelection)
        return;
    const double a = std::min(rangeSelection->first, rangeSelection->second);
    const double b = std::max(rangeSelection->first, rangeSelection->second);
    // The band stays over the time axis: never over the label column's summary.
    const double x0 = std::clamp(axis.x(a), double(kLabelWidth), double(right));
    const double x1 = std::clamp(axis.x(b), double(kLabelWidth), double(right));
    if (x1 <= x0)
        return; // the range lies out of view
    p.fillRect(QRectF(QPointF(x0, 0), QPointF(x1, kRulerHeight)), QColor(40, 120, 220, 70));
    const QString label = formatDuration(b - a);
    const QFontMetrics fm(frame.font);
    const double cx = std::clamp((x0 + x1) / 2, double(kLabelWidth) + 40, double(right) - 40);
    const QRectF box(cx - fm.horizontalAdvance(label) / 2.0 - 5, 4,
        fm.horizontalAdvance(label) + 10, kRulerHeight - 8);
    p.fillRect(box, QColor(40, 120, 220));
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, label);
}

} // namespace ks
