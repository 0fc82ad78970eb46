// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"

#include <QColor>
#include <QString>

#include <vector>

namespace ks {

/*!
 * What the selected slice is linked to, worked out once per selection rather than per lane and
 * frame: its counterparts (forward ↔ backward) and the arrows to draw for it, launch → GPU work
 * for it and its counterparts, then the pair arrows. An op (or a step) with more GPU work than
 * reads as separate arrows gets one bundled arrow per GPU stream instead, to the first event
 * there, labelled with how many it stands for. Callouts name what the arrows join, for pictures
 * where their boxes are too narrow for text.
 */
class SelectionLinks {
public:
    //! Launch → GPU arrows drawn one by one for one op; beyond this, one bundle per stream.
    static constexpr size_t kReadableArrows = 24;

    struct Arrow {
        SliceId from, to;
        QColor color;
        qreal width;
        size_t count = 1; //!< GPU events a bundled arrow stands for (1: a single arrow)
    };

    //! A label naming linked work: the selection, a counterpart, or one stream's GPU work under
    //! one of them (at its first event).
    struct Callout {
        SliceId slice;
        QString text;
        QColor color;
    };

    SelectionLinks(const TraceModel &model, const OpGraph &graph)
        : m_model(model)
        , m_graph(graph)
    {
    }

    //! Recomputes the links when \a selected differs from the last call.
    void update(SliceId selected);
    SliceId selected() const { return m_selected; }
    const std::vector<SliceId> &counterparts() const { return m_counterparts; }
    const std::vector<Arrow> &arrows() const { return m_arrows; }
    //! The selection's callout first, then its counterparts', then the GPU work's.
    const std::vector<Callout> &callouts() const { return m_callouts; }
    //! Selections worked out since construction (the cache's tests count them).
    size_t computations() const { return m_computations; }

private:
    void compute();
    void addLaunchArrows(SliceId root, qreal width);
    void addCallouts(const std::vector<SliceId> &roots);

    const TraceModel &m_model;
    const OpGraph &m_graph;
    SliceId m_selected = kNoSlice;
    std::vector<SliceId> m_counterparts;
    std::vector<Arrow> m_arrows;
    std::vector<Callout> m_callouts;
    size_t m_computations = 0;
};

} // namespace ks
