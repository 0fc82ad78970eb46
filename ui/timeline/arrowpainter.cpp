// SPDX-License-Identifier: MIT
#include "timeline/arrowpainter.h"

#include "common/slicecolors.h"
#include "timeline/selectionlinks.h"
#include "timeline/tracklayout.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace ks {

namespace {

//! One arrow from \a from to \a to; the arrowhead is left off when they are close.
void drawArrow(QPainter &p, QPointF from, QPointF to, const QColor &color, qreal width)
{
    QPainterPath path(from);
    const double dx = std::max(30.0, std::abs(to.x() - from.x()) * 0.4);
    path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
    p.setPen(QPen(color, width));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    // Arrowhead along the curve's final direction (horizontal into the target).
    if (QLineF(from, to).length() > 12) {
        const QPointF tip = to;
        QPolygonF head;
        head << tip << tip + QPointF(-8, -4) << tip + QPointF(-8, 4);
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        p.drawPolygon(head);
    }
}

} // namespace

std::optional<QPointF> ArrowPainter::anchor(const PaintFrame &frame, SliceId s, bool atEnd) const
{
    const SliceTable &t = m_model.slices;
    const std::optional<double> y = m_layout.anchorY(s);
    if (!y)
        return std::nullopt;
    const double time = double((atEnd ? t.end(s) : t.start[s]) - m_model.minTime);
    return QPointF(frame.axis.x(time), *y - frame.scrollY + timeline::kRulerHeight);
}

void ArrowPainter::arrow(QPainter &p,
    const PaintFrame &frame,
    SliceId from,
    SliceId to,
    const QColor &color,
    qreal width) const
{
    const SliceTable &t = m_model.slices;
    const bool forwardInTime = t.start[to] >= t.end(from);
    const auto a = anchor(frame, from, forwardInTime);
    const auto b = anchor(frame, to, false);
    if (a && b)
        drawArrow(p, *a, *b, color, width);
}

QRectF ArrowPainter::clearOf(QRectF box, const std::vector<QRectF> &placed)
{
    for (;;) {
        const auto hit = std::find_if(placed.begin(), placed.end(),
            [&](const QRectF &other) { return other.intersects(box); });
        if (hit == placed.end())
            return box;
        box.moveBottom(hit->top() - 1);
    }
}

void ArrowPainter::bundleLabel(QPainter &p,
    const PaintFrame &frame,
    const SelectionLinks::Arrow &bundle,
    std::vector<QRectF> &placed) const
{
    const auto at = anchor(frame, bundle.to, false);
    if (!at)
        return;
    // "×N" on a chip just before the arrowhead: the arrow stands for N GPU events on that stream.
    const QString text = QStringLiteral("×%1").arg(bundle.count);
    const QFontMetrics metrics(p.font());
    QRectF box(0, 0, metrics.horizontalAdvance(text) + 8, metrics.height() + 2);
    box.moveBottomRight(*at - QPointF(10, 3));
    box = clearOf(box, placed);
    placed.push_back(box);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(255, 255, 255, 220));
    p.drawRoundedRect(box, 3, 3);
    p.setPen(bundle.color.darker(130));
    p.drawText(box, Qt::AlignCenter, text);
}

const std::vector<std::pair<SliceId, SliceId>> &ArrowPainter::pairsInView(const PaintFrame &frame)
{
    const double lo = frame.axis.start, hi = frame.axis.start + frame.axis.span;
    if (m_pairsRange == std::pair(lo, hi))
        return m_pairs;
    m_pairsRange = std::pair(lo, hi);
    m_pairs.clear();
    const SliceTable &t = m_model.slices;
    auto inView = [&](SliceId s) {
        const double a = double(t.start[s] - m_model.minTime);
        return a <= hi && double(t.end(s) - m_model.minTime) >= lo;
    };
    for (const PairRow &row : m_graph.rows()) {
        if (row.forward == kNoSlice)
            continue;
        for (uint32_t i : m_graph.nodesOf(row)) {
            const SliceId node = m_graph.nodes()[i].node;
            if (inView(row.forward) || inView(node))
                m_pairs.emplace_back(row.forward, node);
        }
    }
    return m_pairs;
}

void ArrowPainter::paint(QPainter &p,
    const PaintFrame &frame,
    const SelectionLinks &links,
    bool allPairs,
    std::vector<QRectF> &chips)
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    if (allPairs) {
        QColor c = SliceColors::pairArrow();
        c.setAlpha(110);
        for (auto [forward, node] : pairsInView(frame))
            arrow(p, frame, forward, node, c, 1.0);
    }
    for (const SelectionLinks::Arrow &a : links.arrows()) {
        arrow(p, frame, a.from, a.to, a.color, a.width);
        if (a.count > 1)
            bundleLabel(p, frame, a, chips);
    }
    p.restore();
}

} // namespace ks
