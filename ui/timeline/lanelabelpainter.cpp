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
    const QFontMetrics fm(frame.font);
    const QFontMetrics fmBold(bold);
    for (const TrackLayout::Track &tr : m_layout.tracks()) {
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
        p.setFont(frame.font);
        const bool expandable = tr.curve < 0 && m_index.depthCount(tr.lane) > 1;
        const QString arrow = !expandable     ? QStringLiteral("   ")
            : m_layout.laneCollapsed(tr.lane) ? QStringLiteral("▸ ")
                                              : QStringLiteral("▾ ");
        const QRect r(14, y, kLabelWidth - 20, std::min(tr.height, kRowHeight + 2 * kLanePad));
        p.setPen(pal.color(QPalette::WindowText));
        const QString text = arrow + tr.label;
        p.drawText(
            r, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(text, Qt::ElideMiddle, r.width()));
        if (!tr.detail.isEmpty() && tr.height > kRowHeight + 2 * kLanePad) {
            const bool backward = tr.detail == QLatin1String("backward");
            p.setPen(tr.curve >= 0 ? pal.color(QPalette::PlaceholderText)
                    : backward     ? SliceColors::pairArrow()
                                   : QColor(30, 110, 170));
            p.drawText(QRect(30, y + kRowHeight, kLabelWidth - 36, kRowHeight),
                Qt::AlignVCenter | Qt::AlignLeft, tr.detail);
        } else if (!tr.detail.isEmpty()) {
            // One-row lanes: the role goes at the right end of the label.
            p.setPen(QColor(30, 110, 170));
            p.drawText(r, Qt::AlignVCenter | Qt::AlignRight, tr.detail);
        }
        p.setPen(pal.color(QPalette::Midlight));
        p.drawLine(0, y + tr.height - 1, kLabelWidth, y + tr.height - 1);
    }
    p.restore();
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(kLabelWidth - 1, kRulerHeight, kLabelWidth - 1, size.height());
}

} // namespace ks
