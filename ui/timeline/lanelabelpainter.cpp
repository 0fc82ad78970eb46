// SPDX-License-Identifier: MIT
#include "timeline/lanelabelpainter.h"

#include "common/slicecolors.h"
#include "timeline/tracklayout.h"

#include <QPainter>

namespace ks {

using namespace timeline;

void LaneLabelPainter::paint(QPainter &p, const PaintFrame &frame) const
{
    const QPalette &pal = frame.palette;
    const QSize size = frame.size;
    p.fillRect(QRect(0, kRulerHeight, kLabelWidth, size.height() - kRulerHeight),
        pal.color(QPalette::Window));
    p.save();
    p.setClipRect(QRect(0, kRulerHeight, kLabelWidth, size.height() - kRulerHeight));
    const int top = frame.top();
    QFont bold = frame.font;
    bold.setBold(true);
    const QFontMetrics fmBold(bold);
    const std::vector<TrackLayout::Track> &tracks = m_layout.tracks();
    for (size_t i = 0; i < tracks.size(); ++i) {
        const TrackLayout::Track &tr = tracks[i];
        const int y = top + tr.y;
        if (y > size.height())
            break;
        if (y + tr.height < kRulerHeight)
            continue;
        if (tr.header) {
            const bool collapsed = m_layout.groupCollapsed(tr.group);
            p.fillRect(QRect(0, y, kLabelWidth, tr.height), pal.color(QPalette::Button));
            p.setFont(bold);
            p.setPen(pal.color(QPalette::ButtonText));
            const QString text
                = (collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + tr.label;
            p.drawText(QRect(6, y, kLabelWidth - 10, tr.height), Qt::AlignVCenter | Qt::AlignLeft,
                fmBold.elidedText(text, Qt::ElideRight, kLabelWidth - 12));
            p.setPen(pal.color(QPalette::Mid));
            p.drawLine(0, y + tr.height - 1, size.width(), y + tr.height - 1);
            continue;
        }
        if (tr.curve < 0)
            paintLaneLabel(p, frame, int(i));
        else
            paintCurveLabel(p, frame, tr);
        p.setPen(pal.color(QPalette::Midlight));
        p.drawLine(0, y + tr.height - 1, kLabelWidth, y + tr.height - 1);
    }
    p.restore();
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(kLabelWidth - 1, kRulerHeight, kLabelWidth - 1, size.height());
}

void LaneLabelPainter::paintLaneLabel(QPainter &p, const PaintFrame &frame, int track) const
{
    const QPalette &pal = frame.palette;
    const int top = frame.top();
    const TrackLayout::Track &tr = m_layout.tracks()[size_t(track)];
    const std::span<const TrackLayout::Row> rows = m_layout.rows(track);
    const TrackLayout::Row &first = m_layout.firstContentRow(track);
    if (rows.front().band()) {
        // The band's own label, which folds and unfolds the frames under it.
        QFont small = frame.font;
        small.setPixelSize(kPythonBandHeight - 3);
        p.setFont(small);
        p.setPen(pal.color(QPalette::PlaceholderText));
        const QString text = m_layout.pythonFolded(tr.lane)
            ? QStringLiteral("▸ Python frames (folded)")
            : QStringLiteral("▾ Python frames");
        p.drawText(QRect(30, top + rows[0].y, kLabelWidth - 36, rows[0].height),
            Qt::AlignVCenter | Qt::AlignLeft, text);
    }
    p.setFont(frame.font);
    const QFontMetrics fm(frame.font);
    const bool folds = tr.graph < 0 && m_layout.contentDepths(tr.lane) >= 2;
    const QString arrow = !folds          ? QStringLiteral("   ")
        : m_layout.laneCollapsed(tr.lane) ? QStringLiteral("▸ ")
                                          : QStringLiteral("▾ ");
    const QRect r(14, top + first.y, kLabelWidth - 20, kRowHeight);
    const QString text = arrow + tr.label;
    const QColor roleColor
        = tr.detail == QLatin1String("backward") ? SliceColors::pairArrow() : QColor(30, 110, 170);
    if (tr.detail.isEmpty() || &first != &rows.back()) { // room for the role on the next row
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(
            r, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(text, Qt::ElideMiddle, r.width()));
        p.setPen(roleColor);
        if (!tr.detail.isEmpty())
            p.drawText(r.translated(16, kRowHeight).adjusted(0, 0, -16, 0),
                Qt::AlignVCenter | Qt::AlignLeft, tr.detail);
        return;
    }
    // One row: the role at the right end, the name elided to the room left of it.
    const int roleWidth = fm.horizontalAdvance(tr.detail) + 8;
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(r.adjusted(0, 0, -roleWidth, 0), Qt::AlignVCenter | Qt::AlignLeft,
        fm.elidedText(text, Qt::ElideMiddle, r.width() - roleWidth));
    p.setPen(roleColor);
    p.drawText(r, Qt::AlignVCenter | Qt::AlignRight, tr.detail);
}

void LaneLabelPainter::paintCurveLabel(
    QPainter &p, const PaintFrame &frame, const TrackLayout::Track &tr) const
{
    const QPalette &pal = frame.palette;
    const int y = frame.top() + tr.y;
    p.setFont(frame.font);
    const QFontMetrics fm(frame.font);
    const QRect r(14, y, kLabelWidth - 20, kRowHeight + 2 * kLanePad);
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(r, Qt::AlignVCenter | Qt::AlignLeft,
        fm.elidedText(QStringLiteral("   ") + tr.label, Qt::ElideMiddle, r.width()));
    if (!tr.detail.isEmpty() && tr.height > kRowHeight + 2 * kLanePad) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(30, y + kRowHeight, kLabelWidth - 36, kRowHeight),
            Qt::AlignVCenter | Qt::AlignLeft, tr.detail);
    }
}

} // namespace ks
