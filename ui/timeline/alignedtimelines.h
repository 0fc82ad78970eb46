// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/timelineview.h"

#include <QObject>

#include <algorithm>
#include <vector>

namespace ks {

/*!
 * Timelines on one shared axis: a comparison's base and candidate (relative to the step each
 * compares), or the ranks of a run (on the run's common clock). Every view shows the same span
 * (so the same time per pixel at the same width) from the same offset relative to its own
 * anchor. Whatever changes one view's range (wheel, drag, keys, F/0 framing, setRange) is applied
 * to the others at once. Each view still clamps to its own trace, so near a trace's ends they
 * may differ; the followers' own rangeChanged() is ignored while a change is applied, so nothing
 * loops.
 */
class AlignedTimelines {
public:
    explicit AlignedTimelines(std::vector<TimelineView *> views)
        : m_views(std::move(views))
        , m_anchors(m_views.size(), 0.0)
    {
        for (size_t i = 0; i < m_views.size(); ++i)
            m_connections.push_back(QObject::connect(
                m_views[i], &TimelineView::rangeChanged, m_views[i], [this, i] { follow(i); }));
    }
    ~AlignedTimelines()
    {
        for (const QMetaObject::Connection &c : m_connections)
            QObject::disconnect(c);
    }
    AlignedTimelines(const AlignedTimelines &) = delete;
    AlignedTimelines &operator=(const AlignedTimelines &) = delete;

    //! The times that line up, in ns from each trace's start (its timeline's origin), per view.
    void setAnchors(std::vector<double> anchors) { m_anchors = std::move(anchors); }
    double anchor(size_t view) const { return m_anchors[view]; }
    //! Where view \a view's visible range starts, in ns from its anchor.
    double relativeStart(size_t view) const
    {
        return m_views[view]->rangeStart() - m_anchors[view];
    }

    /*!
     * Shows [start, start + span) ns from the anchors on every view. Where one view cannot show
     * that much (a shorter trace), all take the smallest span, so that their scales stay equal.
     */
    void show(double start, double span)
    {
        apply(start, span);
        double common = span;
        for (const TimelineView *v : m_views)
            common = std::min(common, v->rangeSpan());
        if (common < span)
            apply(start, common);
    }

private:
    void apply(double start, double span)
    {
        m_applying = true;
        for (size_t i = 0; i < m_views.size(); ++i)
            m_views[i]->setRange(start + m_anchors[i], span);
        m_applying = false;
    }

    void follow(size_t from)
    {
        if (m_applying)
            return;
        m_applying = true;
        for (size_t to = 0; to < m_views.size(); ++to) {
            if (to != from)
                m_views[to]->setRange(
                    relativeStart(from) + m_anchors[to], m_views[from]->rangeSpan());
        }
        m_applying = false;
    }

    std::vector<TimelineView *> m_views;
    std::vector<double> m_anchors;
    std::vector<QMetaObject::Connection> m_connections;
    bool m_applying = false; //!< a change is being applied: the views' echoes are not followed
};

} // namespace ks
