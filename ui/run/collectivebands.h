// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/pathchain.h"
#include "session/run.h"

#include <QLineF>
#include <QPolygonF>
#include <QWidget>

#include <vector>

namespace ks {

class TimelineView;

/*!
 * Draws one collective over its kernels' rectangles \a shown (top to bottom; true for the last
 * arriver's): a translucent band from each to the next, darker the larger \a weight (its skew
 * over the largest skew), and the last arriver outlined in red. Returns the bands; adds the
 * outlined rectangles to \a lastArrivers.
 */
std::vector<QPolygonF> paintCollective(QPainter &p,
    const std::vector<std::pair<QRectF, bool>> &shown,
    double weight,
    bool current,
    std::vector<QRectF> &lastArrivers);

/*!
 * Paints, over the stacked rank timelines, each collective as a translucent band joining its
 * kernel on one rank to its kernel on the next rank shown, darker the larger the collective's
 * skew, and outlines the last arriver's kernel in red: the rank every other one waits for; when
 * asked, the critical path's passage from a last arriver to the rank whose work follows. It
 * covers its parent and lets every mouse event through; only collectives on screen are drawn.
 */
class CollectiveBands : public QWidget {
    Q_OBJECT
public:
    //! \a timelines: one per rank of \a run, in rank order (null or hidden for collapsed ranks).
    CollectiveBands(const Run &run, std::vector<TimelineView *> timelines, QWidget *parent);

    void setCurrent(int collective);
    int current() const { return m_current; }
    //! Also draws the critical path's hops between ranks (PathChain); empty: none.
    void setPathHops(std::vector<RankHop> hops);

    //! What the last paint drew for one collective.
    struct Band {
        int collective = -1;
        QPolygonF shape; //!< from one rank's kernel to the next shown rank's
        bool current = false;
    };
    const std::vector<Band> &lastBands() const { return m_bands; }
    //! Kernel rectangles outlined as last arrivers by the last paint.
    const std::vector<QRectF> &lastArrivers() const { return m_lastArrivers; }
    //! The path's hops drawn by the last paint.
    const std::vector<QLineF> &lastHops() const { return m_hopLines; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void paintHops(QPainter &p);

    const Run &m_run;
    std::vector<TimelineView *> m_timelines;
    int m_current = -1;
    TimeNs m_maxSkew = 1;
    std::vector<Band> m_bands;
    std::vector<QRectF> m_lastArrivers;
    std::vector<RankHop> m_hops;
    std::vector<QLineF> m_hopLines;
};

} // namespace ks
