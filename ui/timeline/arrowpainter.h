// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/paintframe.h"
#include "timeline/selectionlinks.h"

#include "link/opgraph.h"

#include <QPointF>

#include <optional>
#include <utility>
#include <vector>

class QColor;
class QPainter;

namespace ks {

class TrackLayout;

/*!
 * The arrows overlay (cf. Perfetto's flow_events_renderer): the selection's links (see
 * SelectionLinks) and, when asked for, every forward → backward pair with an end in view. An
 * arrow runs from the source's end (its start when the target begins first) to the target's
 * start, at the middle of their rows, as a Bézier curve with antialiasing.
 */
class ArrowPainter {
public:
    ArrowPainter(const TraceModel &model, const OpGraph &graph, const TrackLayout &layout)
        : m_model(model)
        , m_graph(graph)
        , m_layout(layout)
    {
    }

    //! Draws the arrows; the bundles' count chips are added to \a chips.
    void paint(QPainter &p,
        const PaintFrame &frame,
        const SelectionLinks &links,
        bool allPairs,
        std::vector<QRectF> &chips);
    /*!
     * \a box moved up until it overlaps none of \a placed: bundles ending close together (one
     * op's work on neighbouring streams, or a collapsed GPU) stack their count chips.
     */
    static QRectF clearOf(QRectF box, const std::vector<QRectF> &placed);

private:
    //! Where an arrow meets \a slice: its start or end at mid-row; nullopt off the timeline.
    std::optional<QPointF> anchor(const PaintFrame &frame, SliceId slice, bool atEnd) const;
    void arrow(QPainter &p,
        const PaintFrame &frame,
        SliceId from,
        SliceId to,
        const QColor &color,
        qreal width) const;
    //! The count of a bundled arrow, at its head, moved up clear of the chips in \a placed.
    void bundleLabel(QPainter &p,
        const PaintFrame &frame,
        const SelectionLinks::Arrow &bundle,
        std::vector<QRectF> &placed) const;
    //! The pairs with an end in the visible range, kept until the range changes.
    const std::vector<std::pair<SliceId, SliceId>> &pairsInView(const PaintFrame &frame);

    const TraceModel &m_model;
    const OpGraph &m_graph;
    const TrackLayout &m_layout;
    std::vector<std::pair<SliceId, SliceId>> m_pairs;
    std::optional<std::pair<double, double>> m_pairsRange;
};

} // namespace ks
