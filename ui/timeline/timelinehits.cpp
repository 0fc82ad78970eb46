// SPDX-License-Identifier: MIT
#include "timeline/timelinehits.h"

#include "timeline/timelinemetrics.h"

#include <algorithm>
#include <cmath>

namespace ks {

using timeline::kLabelWidth;
using timeline::kRulerHeight;
using timeline::TimeAxis;

TimelineHits::TimelineHits(const TraceModel &model,
    const TimelineIndex &index,
    const TrackLayout &layout,
    const TraceCurves &curves)
    : m_model(model)
    , m_index(index)
    , m_layout(layout)
    , m_curves(curves)
{
}

std::optional<QRectF> TimelineHits::sliceRect(const PaintFrame &frame, SliceId s) const
{
    const SliceTable &t = m_model.slices;
    const std::optional<TrackLayout::Row> row = m_layout.rowOf(s);
    if (!row)
        return std::nullopt;
    const int top = row->y - frame.scrollY + kRulerHeight;
    const TimeAxis &ax = frame.axis;
    const double a = std::max(ax.x(double(t.start[s] - m_model.minTime)), double(kLabelWidth));
    const double b
        = std::min(ax.x(double(t.end(s) - m_model.minTime)), double(kLabelWidth + ax.width));
    if (b < a || top + row->height <= kRulerHeight || top >= frame.size.height())
        return std::nullopt;
    return QRectF(a, top, b - a, row->height);
}

SliceId TimelineHits::sliceAt(const PaintFrame &frame, QPoint pos) const
{
    if (pos.x() < kLabelWidth || pos.y() < kRulerHeight)
        return kNoSlice;
    const int y = pos.y() - kRulerHeight + frame.scrollY;
    const int ti = m_layout.trackAt(y);
    const int row = ti < 0 ? -1 : m_layout.rowAt(ti, y);
    if (row < 0)
        return kNoSlice;
    const LaneId lane = m_layout.tracks()[size_t(ti)].lane;
    // Hits within 3 px count, so that slices a pixel wide can be picked.
    return TimelineIndex::hit(m_model, m_index.slices(lane, m_layout.rows(ti)[size_t(row)].ref),
        m_model.minTime, frame.axis.time(pos.x()), 3 * frame.axis.nsPerPixel);
}

std::optional<std::pair<size_t, int64_t>> TimelineHits::curvePointAt(
    const PaintFrame &frame, QPoint pos) const
{
    if (pos.x() < kLabelWidth || pos.y() < kRulerHeight)
        return std::nullopt;
    const int ti = m_layout.trackAt(pos.y() - kRulerHeight + frame.scrollY);
    if (ti < 0 || m_layout.tracks()[size_t(ti)].curve < 0)
        return std::nullopt;
    const size_t c = size_t(m_layout.tracks()[size_t(ti)].curve);
    const CurveTrack &track = m_curves.tracks[c];
    if (track.curves.empty())
        return std::nullopt;
    const TimeNs t = m_model.minTime
        + TimeNs(std::floor(frame.axis.time(pos.x()) + 3 * frame.axis.nsPerPixel));
    const int64_t point = track.curves[0].pointAt(t);
    if (point < 0)
        return std::nullopt;
    return std::pair(c, point);
}

} // namespace ks
