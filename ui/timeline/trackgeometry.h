// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/timeline/timelineindex.h"
#include "timeline/timelinecoordinates.h"

#include <QFont>
#include <QRectF>
#include <QRgb>
#include <QString>

#include <array>
#include <unordered_map>
#include <vector>

namespace ks {

/*!
 * The drawable level-of-detail geometry of the timeline's rows (cf. Qt Creator's
 * TrackPainterRaster cache): for each (lane, RowRef) asked for, the merged items of
 * TimelineIndex::scan() turned into rectangles with their colour, hatching and elided name.
 * A row is scanned once and then reused until the time axis (range start, span, tracks' left
 * edge and width) or the font changes, so scrolling, collapsing, hover, selection, find and
 * arrows repaint without touching slices. Rows hold no y: they are the same at any scroll
 * position and in any layout, so a collapse never drops them.
 */
class TrackGeometry {
public:
    //! One rectangle of a row, in the order it is drawn.
    struct Piece {
        QRectF rect; //!< widget x; y from the top of the row
        QRgb color;
        SliceId slice; //!< kNoSlice for a run of merged slices
        bool hatch; //!< recomputed forward work
        QRgb textColor;
        QString text; //!< the name elided to the rectangle; empty when it does not fit
    };

    TrackGeometry(const TraceModel &model, const TimelineIndex &index);

    /*!
     * Starts a frame on \a axis with \a font (names are elided with it): keeps the cached rows
     * when both are what the last frame had, and drops them otherwise.
     */
    void prepare(const timeline::TimeAxis &axis, const QFont &font);
    /*!
     * The pieces of row \a ref of \a lane on the prepared axis, scanned on first use. The
     * Python band's pieces are its height and carry no names.
     */
    const std::vector<Piece> &row(LaneId lane, RowRef ref);
    //! Rows scanned since construction (the cache's tests count them).
    size_t scans() const { return m_scans; }

private:
    QRgb colorOf(SliceId slice);
    QRgb mergedColor(SliceStyle style);
    void build(LaneId lane, RowRef ref, std::vector<Piece> &out);

    struct Row {
        bool built = false;
        std::vector<Piece> pieces;
    };

    const TraceModel &m_model;
    const TimelineIndex &m_index;
    timeline::TimeAxis m_axis {0, 1, 0, 1};
    QFont m_font;
    bool m_prepared = false;
    std::vector<std::vector<Row>> m_rows; //!< [lane][TimelineIndex::rowSlot()]
    std::vector<std::pair<LaneId, uint32_t>> m_built; //!< (lane, slot) to drop on a change
    std::vector<TimelineIndex::Item> m_items; //!< scratch buffer for scan()
    size_t m_scans = 0;
    // HSL → RGB per slice is measurable even once per scan: colours are kept per (name, style).
    std::unordered_map<uint64_t, QRgb> m_colors;
    std::array<QRgb, 16> m_mergedColors {}; //!< per SliceStyle, 0 until computed
};

} // namespace ks
