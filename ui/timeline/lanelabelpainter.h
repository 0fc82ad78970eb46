// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/paintframe.h"
#include "timeline/tracklayout.h"

class QPainter;

namespace ks {

/*!
 * The label column left of the tracks: group headers with their collapse arrow, lane names
 * with theirs (lanes with nested rows only) and the host threads' roles, the Python band's fold
 * state, curve tracks' names and curves.
 */
class LaneLabelPainter {
public:
    explicit LaneLabelPainter(const TrackLayout &layout)
        : m_layout(layout)
    {
    }

    void paint(QPainter &p, const PaintFrame &frame) const;

private:
    //! A lane's name on its first row of slices, its role on the next (or at the right end).
    void paintLaneLabel(QPainter &p, const PaintFrame &frame, int track) const;
    void paintCurveLabel(QPainter &p, const PaintFrame &frame, const TrackLayout::Track &tr) const;

    const TrackLayout &m_layout;
};

} // namespace ks
