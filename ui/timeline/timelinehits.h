// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/timeline/curvetracks.h"
#include "analysis/timeline/timelineindex.h"
#include "timeline/paintframe.h"
#include "timeline/tracklayout.h"

#include <QPoint>
#include <QRectF>

#include <optional>
#include <utility>

namespace ks {

/*!
 * What is where on a timeline drawn in a frame (its axis, scroll and size): the slice under a
 * point (within 3 px, so that slices a pixel wide can be picked), where a slice is drawn, the
 * curve point under a point. The view, its tooltips and its tests ask the same.
 */
class TimelineHits {
public:
    TimelineHits(const TraceModel &model,
        const TimelineIndex &index,
        const TrackLayout &layout,
        const TraceCurves &curves);

    //! The visible part of \a s's box, nullopt when it is not on screen.
    std::optional<QRectF> sliceRect(const PaintFrame &frame, SliceId s) const;
    SliceId sliceAt(const PaintFrame &frame, QPoint pos) const;
    //! The curve track under \a pos and the point of its first curve there.
    std::optional<std::pair<size_t, int64_t>> curvePointAt(
        const PaintFrame &frame, QPoint pos) const;

private:
    const TraceModel &m_model;
    const TimelineIndex &m_index;
    const TrackLayout &m_layout;
    const TraceCurves &m_curves;
};

} // namespace ks
