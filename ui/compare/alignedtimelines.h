// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/timelineview.h"

#include <QObject>

#include <algorithm>
#include <array>

namespace ks {

/*!
 * Two timelines on one step-relative axis (a comparison's base and candidate): both show the same
 * span (so the same time per pixel at the same width) from the same offset relative to their own
 * anchor, the start of the step compared. Whatever changes one view's range (wheel, drag, keys,
 * F/0 framing, setRange) is applied to the other at once. Each view still clamps to its own
 * trace, so near a trace's ends the two may differ; the follower's own rangeChanged() is ignored
 * while a change is applied, so nothing loops.
 */
class AlignedTimelines {
public:
    AlignedTimelines(TimelineView *base, TimelineView *candidate)
        : m_views {base, candidate}
    {
        for (int side = 0; side < 2; ++side)
            m_connections[size_t(side)] = QObject::connect(m_views[size_t(side)],
                &TimelineView::rangeChanged, m_views[size_t(side)], [this, side] { follow(side); });
    }
    ~AlignedTimelines()
    {
        for (const QMetaObject::Connection &c : m_connections)
            QObject::disconnect(c);
    }
    AlignedTimelines(const AlignedTimelines &) = delete;
    AlignedTimelines &operator=(const AlignedTimelines &) = delete;

    //! The times that line up, in ns from each trace's start (its timeline's origin).
    void setAnchors(double base, double candidate) { m_anchors = {base, candidate}; }
    double anchor(int side) const { return m_anchors[size_t(side)]; }
    //! Where view \a side's visible range starts, in ns from its anchor.
    double relativeStart(int side) const
    {
        return m_views[size_t(side)]->rangeStart() - m_anchors[size_t(side)];
    }

    /*!
     * Shows [start, start + span) ns from the anchors on both views. Where one view cannot show
     * that much (a shorter trace), both take the smaller span, so that their scales stay equal.
     */
    void show(double start, double span)
    {
        apply(start, span);
        const double common = std::min(m_views[0]->rangeSpan(), m_views[1]->rangeSpan());
        if (common < span)
            apply(start, common);
    }

private:
    void apply(double start, double span)
    {
        m_applying = true;
        for (size_t side = 0; side < 2; ++side)
            m_views[side]->setRange(start + m_anchors[side], span);
        m_applying = false;
    }

    void follow(int from)
    {
        if (m_applying)
            return;
        m_applying = true;
        const auto to = size_t(1 - from);
        m_views[to]->setRange(
            relativeStart(from) + m_anchors[to], m_views[size_t(from)]->rangeSpan());
        m_applying = false;
    }

    std::array<TimelineView *, 2> m_views;
    std::array<double, 2> m_anchors {};
    std::array<QMetaObject::Connection, 2> m_connections;
    bool m_applying = false; //!< a change is being applied: the views' echoes are not followed
};

} // namespace ks
