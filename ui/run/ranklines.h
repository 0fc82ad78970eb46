// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/time/stepbreakdown.h"
#include "common/backgroundtask.h"
#include "session/run.h"

#include <QWidget>

#include <memory>
#include <vector>

namespace ks {

class TimeGestures;
class ZoomControl;

/*!
 * A run read at a glance: one line per rank under one ruler, each the rank's GPU work as one
 * track coloured by category (gpuWorkLine(): computation by side, then communication, then
 * memcpy; the palette's colours), with each collective drawn as a band joining its kernel on
 * every rank (the last arriver outlined in red), on the run's common clock. Times are ns from
 * the run's zero. Wheel scrolls the ranks, Ctrl+wheel zooms, dragging pans; a double-click on a
 * rank asks for its full timeline (rankActivated()). The lines are worked out on a worker when
 * the view is first made.
 */
class RankLines : public QWidget {
    Q_OBJECT
public:
    //! A rank's row: its line and, under it, room for the collectives' bands to the next rank.
    static constexpr int kRowHeight = 36;
    static constexpr int kLineHeight = 18;

    explicit RankLines(std::shared_ptr<const Run> run, QWidget *parent = nullptr);
    ~RankLines() override;

    double rangeStart() const;
    double rangeSpan() const;
    void setRange(double start, double span);
    void setCurrentCollective(int index);
    //! Whether the lines are worked out (tests wait for it).
    bool ready() const { return !m_lines.empty(); }
    //! Where rank \a rankIndex's line is drawn, in widget pixels.
    QRect rowRect(size_t rankIndex) const;
    //! The x of run time \a t (ns from the run's zero) in widget pixels.
    double xOf(TimeNs t) const;

signals:
    void rangeChanged();
    void rankActivated(size_t rankIndex);

protected:
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    //! Scrolls the rows to \a y px from the first rank's top, within the ranks.
    void scrollTo(int y);
    void paintLine(QPainter &p, size_t rankIndex, const QRect &row) const;
    void paintCollectives(QPainter &p) const;
    //! What the colours mean, in the label column under the ranks.
    void paintLegend(QPainter &p) const;
    int rankAt(int y) const;

    std::shared_ptr<const Run> m_run;
    //! Per rank, its GPU work on the run clock.
    std::vector<std::vector<WorkInterval>> m_lines;
    BackgroundTask<std::vector<std::vector<WorkInterval>>> m_work {this};
    ZoomControl *m_zoom;
    TimeNs m_from = 0; //!< the run's extent on its clock
    int m_scrollY = 0;
    int m_current = -1;
    std::unique_ptr<TimeGestures> m_gestures; //!< zoom, pan and drag, as TimelineView has them
};

} // namespace ks
