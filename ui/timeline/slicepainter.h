// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/paintframe.h"

#include "model/tracemodel.h"

#include <QImage>

#include <array>
#include <optional>
#include <utility>
#include <vector>

class QPainter;

namespace ks {

class SelectionLinks;
class SliceFinder;
class TrackGeometry;
class TrackLayout;

/*!
 * The tracks pass: each visible track's background (paintBackgrounds(), before the grid), then
 * (paint()) its rows' slices from the cached geometry
 * (find matches underlined), its instant events as markers, then the marks over them: highlighted
 * slices, the outlines of the selection and its counterparts. The ruler's range selection is
 * shaded over every track (curves included) by paintRangeSelection().
 */
class SlicePainter {
public:
    //! The state of the marks, owned by the view.
    struct Marks {
        const SliceFinder &finder;
        const std::vector<SliceId> &highlight; //!< sorted
        const SelectionLinks &links;
    };

    SlicePainter(const TraceModel &model, const TrackLayout &layout, TrackGeometry &geometry)
        : m_model(model)
        , m_layout(layout)
        , m_geometry(geometry)
    {
    }

    void paintBackgrounds(QPainter &p, const PaintFrame &frame) const;
    void paint(QPainter &p, const PaintFrame &frame, const Marks &marks);
    //! Shades the ruler's range selection \a range (ns from the trace start) over the tracks.
    static void paintRangeSelection(
        QPainter &p, const PaintFrame &frame, std::optional<std::pair<double, double>> range);

private:
    void paintLane(QPainter &p, const PaintFrame &frame, int track, const Marks &marks);
    //! Washes and outlines the slices of \a lit (sorted) that \a track draws.
    void paintHighlights(
        QPainter &p, const PaintFrame &frame, int track, const std::vector<SliceId> &lit);
    /*!
     * The lane's instant events as small markers at \a rowTop (an `[OutOfMemory]` one larger and
     * red): at most one every two pixels, found by binary search, so a lane of a million memory
     * events costs about its width.
     */
    void paintInstants(QPainter &p, const PaintFrame &frame, LaneId lane, int rowTop) const;
    //! The marker, antialiased once per device pixel ratio.
    const QImage &markerStamp(bool outOfMemory, qreal dpr) const;
    //! The outline rectangle of slice \a s (widget pixels), if its lane shows it.
    std::optional<QRectF> sliceBox(const PaintFrame &frame, SliceId s) const;

    const TraceModel &m_model;
    const TrackLayout &m_layout;
    TrackGeometry &m_geometry;
    mutable std::array<QImage, 2> m_stamps; //!< markerStamp(): plain, [OutOfMemory]
};

} // namespace ks
