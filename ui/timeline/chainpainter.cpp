// SPDX-License-Identifier: MIT
#include "timeline/chainpainter.h"

#include "timeline/tracklayout.h"

#include <QPainter>

#include <cmath>

namespace ks {

namespace {

constexpr qreal kStepWidth = 3;
constexpr qreal kHopWidth = 1.5;
constexpr qreal kHalo = 2;

void haloLine(QPainter &p, QPointF a, QPointF b, qreal width)
{
    p.setPen(QPen(QColor(255, 255, 255, 200), width + 2 * kHalo, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(a, b);
    p.setPen(QPen(criticalPathColor(), width, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(a, b);
}

} // namespace

QColor criticalPathColor()
{
    return QColor(240, 70, 0);
}

void drawPathHop(QPainter &p, QPointF from, QPointF to)
{
    const QLineF line(from, to);
    if (line.length() < 1)
        return;
    haloLine(p, from, to, kHopWidth);
    if (line.length() < 12)
        return;
    // The head along the line, its tip on the target.
    const QPointF unit = (to - from) / line.length();
    const QPointF normal(-unit.y(), unit.x());
    QPolygonF head;
    head << to << to - unit * 8 + normal * 4 << to - unit * 8 - normal * 4;
    p.setPen(Qt::NoPen);
    p.setBrush(criticalPathColor());
    p.drawPolygon(head);
}

std::optional<QPointF> ChainPainter::point(
    const PaintFrame &frame, SliceId event, TimeNs time) const
{
    const std::optional<double> y = m_layout.anchorY(event);
    if (!y)
        return std::nullopt;
    return QPointF(frame.axis.x(double(time - m_model.minTime)), *y + frame.top());
}

void ChainPainter::paint(
    QPainter &p, const PaintFrame &frame, const std::vector<ChainStep> &steps) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const double width = frame.size.width();
    auto inView = [&](double left, double right) { return right >= 0 && left <= width; };
    // Hops under the steps, so every step reads whole; a hop's head meets its step's start.
    std::vector<std::pair<QPointF, QPointF>> lines;
    std::optional<QPointF> previousEnd;
    for (const ChainStep &s : steps) {
        const auto a = point(frame, s.event, s.start);
        const auto b = point(frame, s.event, s.end);
        if (a && b && previousEnd && s.fromPrevious
            && inView(std::min(previousEnd->x(), a->x()), std::max(previousEnd->x(), a->x())))
            drawPathHop(p, *previousEnd, *a);
        if (a && b && inView(a->x(), b->x()))
            lines.emplace_back(*a, QPointF(std::max(b->x(), a->x() + 1), b->y()));
        previousEnd = b;
    }
    for (const auto &[a, b] : lines)
        haloLine(p, a, b, kStepWidth);
    p.restore();
}

} // namespace ks
