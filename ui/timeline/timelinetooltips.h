// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/timeline/curvetracks.h"
#include "link/opgraph.h"

#include <QCoreApplication>
#include <QString>

namespace ks {

/*!
 * What the timeline says on hover, as rich text: a slice's name, category, start, duration,
 * input dims, sequence number, GPU work, calling Python frame, step, pair (its forward op, the
 * side the slice is on, both sides' GPU time) and, for GPU work, its side; a folded Python band's
 * stack (innermost first); a curve point's values and, for memory, the event's bytes and op.
 */
class TimelineToolTips {
    Q_DECLARE_TR_FUNCTIONS(TimelineView)
public:
    TimelineToolTips(const TraceModel &model, const OpGraph &graph, const TraceCurves &curves);

    QString slice(SliceId s) const;
    //! The stack of Python frame \a frame; \a folded: what a click on its band does.
    QString pythonStack(SliceId frame, bool folded) const;
    //! Point \a point of curve track \a curve (TraceCurves::tracks).
    QString curvePoint(size_t curve, int64_t point) const;

private:
    //! The step \a s ran in (a GPU event: its launch's), its pair and side, as lines.
    QString stepAndPair(SliceId s) const;

    const TraceModel &m_model;
    const OpGraph &m_graph;
    const TraceCurves &m_curves;
};

} // namespace ks
