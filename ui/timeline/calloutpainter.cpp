// SPDX-License-Identifier: MIT
#include "timeline/calloutpainter.h"

#include "timeline/tracklayout.h"

#include <QPainter>

#include <algorithm>

namespace ks {

using namespace timeline;

namespace {

constexpr qreal kGap = 4; //!< between a slice's row and its callout
constexpr qreal kScrollBarRoom = 18; //!< the view's scroll bar covers the tracks' right edge

bool overlapsAny(const QRectF &box, const std::vector<QRectF> &taken)
{
    return std::any_of(
        taken.begin(), taken.end(), [&](const QRectF &other) { return other.intersects(box); });
}

/*!
 * \a box moved up (\a step < 0) or down until it overlaps none of \a taken; nullopt when it
 * leaves [\a top, \a bottom] first.
 */
std::optional<QRectF> clearOf(
    QRectF box, const std::vector<QRectF> &taken, qreal step, qreal top, qreal bottom)
{
    while (box.top() >= top && box.bottom() <= bottom) {
        if (!overlapsAny(box, taken))
            return box;
        box.translate(0, step);
    }
    return std::nullopt;
}

} // namespace

std::optional<QRectF> CalloutPainter::sliceBox(const PaintFrame &frame, SliceId s) const
{
    const SliceTable &t = m_model.slices;
    const std::optional<double> mid = m_layout.anchorY(s);
    if (!mid)
        return std::nullopt;
    const double x0 = frame.axis.x(double(t.start[s] - m_model.minTime));
    const double x1 = frame.axis.x(double(t.end(s) - m_model.minTime));
    const double y = *mid - frame.scrollY + kRulerHeight;
    const QRectF box(QPointF(std::max<double>(x0, kLabelWidth), y - kRowHeight / 2.0),
        QPointF(std::min<double>(std::max(x1, x0 + 1), frame.size.width()), y + kRowHeight / 2.0));
    if (box.right() < kLabelWidth || box.left() > frame.size.width() || box.bottom() < kRulerHeight
        || box.top() > frame.size.height())
        return std::nullopt;
    return box;
}

void CalloutPainter::paint(
    QPainter &p, const PaintFrame &frame, const SelectionLinks &links, std::vector<QRectF> &taken)
{
    m_placed.clear();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QFontMetricsF metrics(p.font());
    // Clear of the vertical scroll bar on the right.
    const qreal right = frame.size.width() - kScrollBarRoom, bottom = frame.size.height() - 2;
    const qreal widest = right - kLabelWidth - 4;
    for (const SelectionLinks::Callout &c : links.callouts()) {
        const std::optional<QRectF> slice = sliceBox(frame, c.slice);
        if (!slice)
            continue;
        // Too long for the view: cut in the middle, keeping the count and the time at the ends.
        const QString text = metrics.horizontalAdvance(c.text) + 10 <= widest
            ? c.text
            : metrics.elidedText(c.text, Qt::ElideMiddle, widest - 10);
        QRectF box(0, 0, metrics.horizontalAdvance(text) + 10, metrics.height() + 4);
        box.moveLeft(std::clamp(slice->left(), qreal(kLabelWidth + 2), right - box.width()));
        box.moveBottom(slice->top() - kGap);
        std::optional<QRectF> at = clearOf(box, taken, -2, kRulerHeight + 2, bottom);
        if (!at) { // no room above: below the row, moving down
            box.moveTop(slice->bottom() + kGap);
            at = clearOf(box, taken, 2, kRulerHeight + 2, bottom);
        }
        if (!at)
            continue;
        taken.push_back(*at);
        m_placed.push_back({c.slice, text, *at});
        // The leader from the chip's nearer edge to the slice's row, at the slice's left.
        const qreal x = std::clamp(slice->left() + 2, at->left() + 3, at->right() - 3);
        const bool above = at->bottom() <= slice->top();
        p.setPen(QPen(c.color, 1));
        p.drawLine(QPointF(x, above ? at->bottom() : at->top()),
            QPointF(slice->left() + 1, above ? slice->top() : slice->bottom()));
        p.setBrush(QColor(255, 255, 255, 235));
        p.drawRoundedRect(*at, 3, 3);
        p.setPen(c.color.darker(120));
        p.drawText(*at, Qt::AlignCenter, text);
    }
    p.restore();
}

} // namespace ks
