// SPDX-License-Identifier: MIT
#include "timeline/slicepainter.h"

#include "common/slicecolors.h"
#include "timeline/selectionlinks.h"
#include "timeline/slicefinder.h"
#include "timeline/trackgeometry.h"
#include "timeline/tracklayout.h"

#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>

namespace ks {

using namespace timeline;

void SlicePainter::paintBackgrounds(QPainter &p, const PaintFrame &frame) const
{
    const int top = frame.top();
    const QSize size = frame.size;
    const QColor stripe = frame.palette.color(QPalette::AlternateBase);
    const std::vector<TrackLayout::Track> &tracks = m_layout.tracks();
    for (size_t i = 0; i < tracks.size(); ++i) {
        const TrackLayout::Track &tr = tracks[i];
        const int y = top + tr.y;
        if (y > size.height())
            break;
        if (y + tr.height < kRulerHeight)
            continue;
        if (tr.header)
            p.fillRect(QRect(kLabelWidth, y, size.width(), tr.height),
                frame.palette.color(QPalette::Window));
        else if (i % 2 == 0)
            p.fillRect(QRect(kLabelWidth, y, size.width(), tr.height), stripe);
    }
}

void SlicePainter::paint(QPainter &p, const PaintFrame &frame, const Marks &marks)
{
    m_geometry.prepare(frame.axis, frame.font);
    const int top = frame.top();
    const std::vector<TrackLayout::Track> &tracks = m_layout.tracks();
    for (size_t i = 0; i < tracks.size(); ++i) {
        const TrackLayout::Track &tr = tracks[i];
        const int y = top + tr.y;
        if (y > frame.size.height())
            break;
        if (y + tr.height < kRulerHeight || tr.header || tr.curve >= 0)
            continue; // curve tracks are CurvePainter's
        paintLane(p, frame, int(i), marks);
    }
}

void SlicePainter::paintRangeSelection(
    QPainter &p, const PaintFrame &frame, std::optional<std::pair<double, double>> range)
{
    if (!range)
        return;
    // Within the tracks: a range that runs out of view never shades the lane labels.
    const auto clampX = [&](double x) {
        return std::clamp(x, double(kLabelWidth), double(kLabelWidth + frame.axis.width));
    };
    const double x0 = clampX(frame.axis.x(range->first));
    const double x1 = clampX(frame.axis.x(range->second));
    p.fillRect(QRectF(QPointF(std::min(x0, x1), kRulerHeight),
                   QPointF(std::max(x0, x1), frame.size.height())),
        QColor(40, 120, 220, 40));
}

const QImage &SlicePainter::markerStamp(bool outOfMemory, qreal dpr) const
{
    QImage &stamp = m_stamps[outOfMemory ? 1 : 0];
    if (stamp.isNull() || stamp.devicePixelRatio() != dpr) {
        const double half = outOfMemory ? 5 : 3.5;
        const QSizeF size(2 * half + 2, half * 1.6 + 2);
        stamp = QImage((size * dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
        stamp.setDevicePixelRatio(dpr);
        stamp.fill(Qt::transparent);
        QPainter sp(&stamp);
        sp.setRenderHint(QPainter::Antialiasing);
        sp.setPen(Qt::NoPen);
        sp.setBrush(outOfMemory ? QColor(220, 20, 20) : QColor(70, 70, 70));
        const QPointF marker[] = {{1, 0}, {1 + 2 * half, 0}, {1 + half, half * 1.6}};
        sp.drawPolygon(marker, 3);
    }
    return stamp;
}

void SlicePainter::paintInstants(
    QPainter &p, const PaintFrame &frame, LaneId lane, int rowTop) const
{
    const Lane &l = m_model.lanes[lane];
    const InstantTable &in = m_model.instants;
    if (l.instantBegin == l.instantEnd)
        return;
    const TimeAxis &axis = frame.axis;
    const auto begin = in.time.begin() + l.instantBegin, end = in.time.begin() + l.instantEnd;
    const TimeNs origin = m_model.minTime; // apart from the doubles: epoch times keep their ns
    const int right = kLabelWidth + axis.width;
    const qreal dpr = p.device() ? p.device()->devicePixelRatioF() : 1;
    auto it = std::lower_bound(begin, end, origin + TimeNs(std::floor(axis.start)));
    while (it != end) {
        const double x = axis.x(double(*it - origin));
        if (x > right)
            break;
        const size_t i = size_t(it - in.time.begin());
        const bool oom = m_model.str(in.name[i]) == "[OutOfMemory]";
        // A stamp drawn once: blitting it costs a fraction of rasterising an antialiased shape.
        const QImage &stamp = markerStamp(oom, dpr);
        p.drawImage(QPointF(x - stamp.width() / (2 * dpr), rowTop), stamp);
        // The next marker starts two pixels further: the ones in between would hide under this one.
        it = std::lower_bound(it + 1, end, origin + TimeNs(std::ceil(axis.time(int(x) + 2))));
    }
}

std::optional<QRectF> SlicePainter::sliceBox(const PaintFrame &frame, SliceId s) const
{
    const std::optional<TrackLayout::Row> row = m_layout.rowOf(s);
    if (!row)
        return std::nullopt;
    const SliceTable &t = m_model.slices;
    const double x0 = frame.axis.x(double(t.start[s] - m_model.minTime));
    const double x1 = std::max(x0 + 2, frame.axis.x(double(t.end(s) - m_model.minTime)));
    return QRectF(x0, frame.top() + row->y + 0.5, x1 - x0, row->height - 1);
}

void SlicePainter::paintHighlights(
    QPainter &p, const PaintFrame &frame, int track, const std::vector<SliceId> &lit)
{
    // Highlighted slices (a module's work) get a translucent wash and an outline.
    for (LaneId lane : m_layout.lanesOf(track)) {
        auto first = std::lower_bound(lit.begin(), lit.end(), m_model.lanes[lane].sliceBegin);
        auto last = std::lower_bound(first, lit.end(), m_model.lanes[lane].sliceEnd);
        for (auto it = first; it != last; ++it) {
            const std::optional<QRectF> box
                = m_layout.trackOf(*it) == track ? sliceBox(frame, *it) : std::nullopt;
            if (!box || box->right() < kLabelWidth || box->left() > frame.size.width())
                continue;
            p.fillRect(*box, QColor(255, 215, 0, 90));
            p.setPen(QPen(QColor(200, 140, 0), 1.5));
            p.setBrush(Qt::NoBrush);
            p.drawRect(*box);
        }
    }
}

void SlicePainter::paintLane(QPainter &p, const PaintFrame &frame, int track, const Marks &marks)
{
    const LaneId lane = m_layout.tracks()[size_t(track)].lane;
    const QSize size = frame.size;
    p.setFont(frame.font);
    // Recomputed forward work inside backward lanes is hatched, to tell it apart at a glance.
    const QBrush hatch(QColor(20, 40, 90, 150), Qt::BDiagPattern);
    const bool finding = marks.finder.active();
    for (const TrackLayout::Row &row : m_layout.rows(track)) {
        const int rowY = frame.top() + row.y;
        if (rowY > size.height() || rowY + row.height < kRulerHeight)
            continue;
        for (const TrackGeometry::Piece &piece : m_geometry.row(lane, row.ref)) {
            const QRectF r = piece.rect.translated(0, rowY);
            p.fillRect(r, QColor::fromRgb(piece.color));
            if (piece.hatch)
                p.fillRect(r, hatch);
            if (piece.slice == kNoSlice)
                continue;
            if (finding && marks.finder.matches(piece.slice))
                p.fillRect(QRectF(r.left(), r.bottom() - 2, r.width(), 3), QColor(255, 200, 0));
            if (!piece.text.isEmpty()) {
                p.setPen(QColor::fromRgb(piece.textColor));
                p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, piece.text);
            }
        }
    }
    // Markers go on the first row of ops, under the Python band.
    paintInstants(p, frame, lane, frame.top() + m_layout.firstContentRow(track).y);
    paintHighlights(p, frame, track, marks.highlight);
    // Outline the selection and its counterparts when they are on this track.
    auto outline = [&](SliceId s, const QColor &color) {
        const std::optional<QRectF> box
            = m_layout.trackOf(s) == track ? sliceBox(frame, s) : std::nullopt;
        if (!box)
            return;
        p.setPen(QPen(color, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(*box);
    };
    if (marks.links.selected() != kNoSlice) {
        for (SliceId c : marks.links.counterparts())
            outline(c, SliceColors::counterpartOutline());
        outline(marks.links.selected(), SliceColors::selectionOutline());
    }
}

} // namespace ks
