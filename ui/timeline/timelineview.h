// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/pathchain.h"
#include "analysis/timeline/timelineindex.h"
#include "common/backgroundtask.h"
#include "common/selectioncontroller.h"
#include "timeline/slicefinder.h"
#include "timeline/timelinecoordinates.h"
#include "timeline/timelinemetrics.h"

#include <QRectF>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QHelpEvent;
class QMenu;
class QScrollBar;
class TestTimeline;

namespace ks {

class ArrowPainter;
class CalloutPainter;
class ChainPainter;
class CurvePainter;
class LaneLabelPainter;
class SelectionLinks;
class SlicePainter;
class TrackGeometry;
class TrackLayout;
class TimeGestures;
class TimelineHits;
class TimelineToolTips;
class ZoomControl;
struct PaintFrame;

/*!
 * The timeline: lanes grouped by process (host threads labelled by role, GPU streams), nested
 * slices, a time ruler, and arrows from the selected op to its counterparts and kernels.
 *
 * The widget owns the pieces of ui/timeline/ and routes input, find, hit testing and tooltips:
 * ZoomControl keeps the visible range inside the trace, TrackLayout stacks the lanes,
 * TrackGeometry caches the level-of-detail rows of the visible range (TimelineIndex::scan), so
 * a frame costs about pixels × visible rows whatever the trace size and a repaint at the same
 * range costs no scan at all, and one painter per pass draws it. render() paints the same
 * picture onto any QPainter (PNG or SVG exports).
 */
class TimelineView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kLabelWidth = timeline::kLabelWidth;
    static constexpr int kRulerHeight = timeline::kRulerHeight;
    static constexpr int kRowHeight = timeline::kRowHeight;
    static constexpr int kHeaderHeight = timeline::kHeaderHeight;

    explicit TimelineView(SelectionController *selection, QWidget *parent = nullptr);
    ~TimelineView() override;

    // The visible time range, in ns relative to the start of the trace. It stays within the
    // trace and a small margin (see ZoomControl): setters clamp.
    double rangeStart() const;
    double rangeSpan() const;
    void setRange(double start, double span);
    void showAll();
    /*!
     * The ruler labels a time t (ns from the trace start) as t + \a ns: 0 labels from the trace's
     * start; a comparison labels from the compared step, a run from its common zero.
     */
    void setRulerOrigin(double ns);
    //! Lets the range reach [begin, end] ns from the trace start (ZoomControl::setExtent).
    void setExtent(double begin, double end);
    //! Shows [a, b) (model times, ns) with a small margin.
    void zoomToInterval(TimeNs a, TimeNs b);
    //! Fits the range measured on the ruler, else the selection with its counterparts (F).
    void fitSelection();
    //! W, S, A, D: zoom in or out around the mouse (the centre when it is elsewhere), or pan by
    //! 15 % of the view; \a key is Qt::Key_W, _S, _A or _D (others do nothing).
    void navigate(int key);
    /*!
     * Makes \a slice visible with its counterparts and every end of its arrows: zooms when
     * they are off screen (or the slice is tiny) and scrolls their lanes into view.
     */
    void revealSlice(SliceId slice);

    //! Highlights \a slices (a module's calls and backward nodes), any lanes; empty clears.
    void setHighlight(std::vector<SliceId> slices);
    const std::vector<SliceId> &highlight() const { return m_highlight; }
    void setShowAllArrows(bool on);
    //! Draws \a steps (this trace's share of a critical path) over the slices; empty clears.
    void setPathChain(std::vector<ChainStep> steps);
    const std::vector<ChainStep> &pathChain() const { return m_chain; }
    //! Where the path is at \a time (model ns) on \a event's row, widget pixels.
    std::optional<QPointF> pathPoint(SliceId event, TimeNs time) const;
    /*!
     * Highlights matches of \a pattern (a regular expression over names; empty clears). The
     * search runs on a worker: findFinished() tells how many it found.
     */
    void setFindPattern(const QString &pattern);
    /*!
     * Selects the next (or previous) match after the selection; false if there is none. While a
     * search runs, the step is taken when it ends.
     */
    bool findNext(bool backward = false);
    //! Matches of the last search, -1 while it runs.
    int findMatchCount() const;

    //! Paints exactly what the widget shows, for exports (\a size in logical pixels).
    void render(QPainter &painter, QSize size);
    //! Centre pixel of \a slice if it is on screen (tests, screenshots).
    std::optional<QPoint> slicePoint(SliceId slice) const;
    //! The part of \a slice's row rectangle that is on screen, if any (widget pixels).
    std::optional<QRectF> sliceRect(SliceId slice) const;
    SliceId sliceAt(QPoint pos) const;
    /*!
     * On a memory curve: the op that allocated or freed at the point in effect under \a pos (or
     * one at most 3 px to its right), kNoSlice elsewhere.
     */
    SliceId curveOpAt(QPoint pos) const;
    //! Where curve track \a curve (index into TraceCurves::tracks) plots, if it is on screen.
    std::optional<QRect> curveArea(size_t curve) const;
    void setLaneCollapsed(LaneId lane, bool collapsed);
    /*!
     * Folds (or unfolds) the Python frames of \a lane as a click on its band does, and keeps
     * the folds for the trace's next opening.
     */
    void setPythonFolded(LaneId lane, bool folded);
    bool pythonFolded(LaneId lane) const;
    //! "Ops only": hides every lane's Python frames, band included.
    void setPythonHidden(bool hidden);
    //! Draws graph replays one lane per graph instead of on their streams.
    void setGraphsCompacted(bool compacted);
    /*!
     * Fills \a menu with the track menu (fillTrackMenu()) of the label at widget point \a pos;
     * false, leaving it empty, where there is no track. Changes are kept for the trace's next
     * opening, as folds are.
     */
    bool fillTrackMenu(QMenu &menu, QPoint pos);
    //! The ruler's time-range selection, if any (ns relative to the start).
    std::optional<std::pair<double, double>> rangeSelection() const { return m_rangeSelection; }
    int contentHeight() const;

signals:
    void rangeChanged();
    //! A click on a memory curve, on the point of `[memory]` event \a event.
    void memoryEventClicked(uint32_t event);
    void findStatus(const QString &text);
    void findFinished(int matches);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    friend class ::TestTimeline; // counts the cache's scans

    //! The frame a picture \a size logical pixels large shows.
    PaintFrame frame(QSize size) const;
    //! The time axis of a picture \a width logical pixels wide.
    timeline::TimeAxis axis(int width) const;
    int tracksWidth(int width) const;
    double nsPerPixel() const;
    double timeAt(int x) const;
    void layoutChanged();
    //! After the user folded something: keeps the folds for the trace and redraws.
    void foldsChanged();
    //! The selection \a s, its counterparts and both ends of each of its arrows.
    std::vector<SliceId> linkedSlices(SliceId s);
    //! From the earliest start to the latest end of \a linked (linkedSlices(): the selection
    //! first).
    std::pair<TimeNs, TimeNs> linkedInterval(const std::vector<SliceId> &linked) const;
    //! Scrolls the rows of \a s and \a linked (its linkedSlices()) into view (revealSlice()'s
    //! vertical half).
    void revealLanes(SliceId s, const std::vector<SliceId> &linked);
    //! Hands the range selection to the selection controller (its statistics: details panel).
    void publishRange();
    void syncScrollBar();
    void paintAll(QPainter &p, QSize size);
    void showToolTip(const QHelpEvent &help);
    //! The curve track under \a pos and the point of its first curve there (see curveOpAt).
    std::optional<std::pair<size_t, int64_t>> curvePointAt(QPoint pos) const;

    SelectionController *m_selection;
    std::shared_ptr<const LoadedTrace> m_trace;
    const TraceModel &m_model;
    const OpGraph &m_graph;
    const TimelineIndex *m_index; //!< the trace's, built by the loader (LoadedTrace)
    const TraceCurves &m_curves; //!< the trace's, built by the loader too
    std::unique_ptr<TimelineToolTips> m_toolTips;
    std::unique_ptr<TrackLayout> m_layout;
    std::unique_ptr<TrackGeometry> m_geometry;
    std::unique_ptr<SelectionLinks> m_links;
    std::unique_ptr<SliceFinder> m_finder;
    std::unique_ptr<SlicePainter> m_slicePainter;
    std::unique_ptr<ArrowPainter> m_arrowPainter;
    std::unique_ptr<CalloutPainter> m_calloutPainter;
    std::unique_ptr<ChainPainter> m_chainPainter;
    std::unique_ptr<CurvePainter> m_curvePainter;
    std::unique_ptr<LaneLabelPainter> m_labelPainter;
    std::unique_ptr<TimelineHits> m_hits;
    ZoomControl *m_zoom;

    int m_scrollY = 0;
    QScrollBar *m_scrollBar;

    bool m_showAllArrows = false;
    double m_rulerOrigin = 0;
    std::vector<SliceId> m_highlight; //!< sorted, so each lane's share is one range
    std::vector<ChainStep> m_chain;

    // Mouse interaction
    std::unique_ptr<TimeGestures> m_gestures; //!< zoom, pan and drag, as RankLines has them
    bool m_rulerDrag = false;
    bool m_clicking = false; //!< a click here is selecting: no reframing
    bool m_fitPending = false; //!< no folds kept for the trace: the first frame fits the GPU in
    BackgroundTask<SliceFinder::Result> m_find {this};
    bool m_findPending = false;
    std::optional<bool> m_findStep; //!< findNext() asked for while searching: backward?
    std::optional<std::pair<double, double>> m_rangeSelection;
};

} // namespace ks
