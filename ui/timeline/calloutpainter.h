// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/paintframe.h"
#include "timeline/selectionlinks.h"

#include <QRectF>
#include <QString>

#include <vector>

class QPainter;

namespace ks {

class TrackLayout;

/*!
 * The selection's callouts (SelectionLinks::callouts): each a label on a chip above the row of
 * the slice it names (below, where no room is left above), joined to the slice by a leader
 * line, moved clear of the labels placed before it. A picture of a selection so names the op,
 * its counterpart and each stream's kernels however narrow their boxes are.
 */
class CalloutPainter {
public:
    struct Placed {
        SliceId slice;
        QString text;
        QRectF box;
    };

    CalloutPainter(const TraceModel &model, const TrackLayout &layout)
        : m_model(model)
        , m_layout(layout)
    {
    }

    //! Draws the callouts of \a links whose slice is in view, clear of \a taken (the arrows'
    //! count chips), which the placed boxes join.
    void paint(QPainter &p,
        const PaintFrame &frame,
        const SelectionLinks &links,
        std::vector<QRectF> &taken);
    //! The callouts of the last paint(), in drawing order.
    const std::vector<Placed> &placed() const { return m_placed; }

private:
    //! The slice's box in widget pixels, cut to the tracks; nullopt when out of view.
    std::optional<QRectF> sliceBox(const PaintFrame &frame, SliceId s) const;

    const TraceModel &m_model;
    const TrackLayout &m_layout;
    std::vector<Placed> m_placed;
};

} // namespace ks
