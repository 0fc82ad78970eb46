// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/paintframe.h"

class QPainter;

namespace ks {

class TimelineIndex;
class TrackLayout;

/*!
 * The label column left of the tracks: group headers with their collapse arrow, lane names
 * with theirs (lanes with nested rows only) and the host threads' roles.
 */
class LaneLabelPainter {
public:
    LaneLabelPainter(const TimelineIndex &index, const TrackLayout &layout)
        : m_index(index)
        , m_layout(layout)
    {
    }

    void paint(QPainter &p, const PaintFrame &frame) const;

private:
    const TimelineIndex &m_index;
    const TrackLayout &m_layout;
};

} // namespace ks
