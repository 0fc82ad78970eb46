// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/paintframe.h"

#include "analysis/criticalpath/pathchain.h"

#include <vector>

class QPainter;

namespace ks {

class TrackLayout;
struct TraceModel;

/*!
 * The critical path drawn over one timeline: each step a thick line along its event's row over
 * the time it is on the path, joined to the step before by a line with an arrowhead, crossing
 * lanes as the path does (nesting, launch, sync). A white halo keeps it readable on any slice.
 */
class ChainPainter {
public:
    ChainPainter(const TraceModel &model, const TrackLayout &layout)
        : m_model(model)
        , m_layout(layout)
    {
    }

    void paint(QPainter &p, const PaintFrame &frame, const std::vector<ChainStep> &steps) const;
    //! Where the path is at \a time on \a event's row, in widget coordinates; nullopt off the
    //! timeline (its lane hidden).
    std::optional<QPointF> point(const PaintFrame &frame, SliceId event, TimeNs time) const;

private:
    const TraceModel &m_model;
    const TrackLayout &m_layout;
};

//! The path's colour: an orange-red no slice family uses.
QColor criticalPathColor();
//! A line from \a from to \a to in the path's colour over a white halo, with an arrowhead at
//! \a to when it is long enough to carry one.
void drawPathHop(QPainter &p, QPointF from, QPointF to);

} // namespace ks
