// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/timelineindex.h"
#include "selectioncontroller.h"

#include <QRegularExpression>
#include <QWidget>

#include <array>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

class QScrollBar;

namespace ks {

/*!
 * The timeline: lanes grouped by process (host threads labelled by role, GPU streams), nested
 * slices, a time ruler, and arrows from the selected op to its counterparts and kernels.
 * Painting draws only the visible range, merging sub-pixel slices (TimelineIndex::scan), so a
 * frame costs about pixels × visible rows whatever the trace size. render() paints the same
 * picture onto any QPainter (PNG or SVG exports).
 */
class TimelineView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kLabelWidth = 240;
    static constexpr int kRulerHeight = 30;
    static constexpr int kRowHeight = 18;
    static constexpr int kHeaderHeight = 22;

    explicit TimelineView(SelectionController *selection, QWidget *parent = nullptr);
    ~TimelineView() override;

    // The visible time range, in ns relative to the start of the trace.
    double rangeStart() const { return m_start; }
    double rangeSpan() const { return m_span; }
    void setRange(double start, double span);
    void showAll();
    //! Shows [a, b) (model times, ns) with a small margin.
    void zoomToInterval(TimeNs a, TimeNs b);
    void fitSelection();
    //! Makes \a slice visible: scrolls to its lane and zooms when it is off screen or tiny.
    void revealSlice(SliceId slice);

    //! Highlights \a slices (a module's calls and backward nodes), any lanes; empty clears.
    void setHighlight(std::vector<SliceId> slices);
    const std::vector<SliceId> &highlight() const { return m_highlight; }
    void setShowAllArrows(bool on);
    bool showAllArrows() const { return m_showAllArrows; }
    //! Highlights matches of \a pattern (a regular expression over names); empty clears.
    int setFindPattern(const QString &pattern);
    //! Selects the next (or previous) match after the selection; false if there is none.
    bool findNext(bool backward = false);

    //! Paints exactly what the widget shows, for exports (\a size in logical pixels).
    void render(QPainter &painter, QSize size);
    //! Centre pixel of \a slice if it is on screen (tests, screenshots).
    std::optional<QPoint> slicePoint(SliceId slice) const;
    SliceId sliceAt(QPoint pos) const;
    void setLaneCollapsed(LaneId lane, bool collapsed);
    //! The ruler's time-range selection, if any (ns relative to the start).
    std::optional<std::pair<double, double>> rangeSelection() const { return m_rangeSelection; }
    int contentHeight() const;

signals:
    void rangeChanged();
    void findStatus(const QString &text);

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

private:
    struct Track {
        bool header = false;
        LaneId lane = kNoLane;
        int group = 0;
        int y = 0; //!< content coordinates (0 = top of the first track)
        int height = 0;
        QString label;
        QString detail; //!< role or process info shown after the label
    };
    struct Group {
        QString label;
        bool collapsed = false;
        std::vector<LaneId> lanes;
    };

    void buildGroups();
    void layoutTracks();
    int trackIndexAt(int contentY) const;
    int laneTrack(LaneId lane) const;
    double nsPerPixel(int width) const;
    double timeAt(int x, int width) const;
    double xOf(double t, int width) const;
    int tracksWidth(int width) const;
    std::optional<QPointF> anchor(SliceId slice, int width, bool atEnd) const;

    QRgb colorOf(SliceId slice) const;
    QRgb mergedColor(SliceStyle style) const;
    void paintAll(QPainter &p, QSize size);
    void paintTracks(QPainter &p, QSize size);
    void paintLane(QPainter &p, const Track &track, int top, QSize size);
    void paintArrows(QPainter &p, QSize size);
    void paintLabels(QPainter &p, QSize size);
    void paintRuler(QPainter &p, QSize size);
    void drawArrow(QPainter &p, QPointF from, QPointF to, const QColor &color, qreal width);

    void zoomAt(double factor, double anchorTime);
    void pan(double ns);
    void syncScrollBar();

    SelectionController *m_selection;
    std::shared_ptr<const LoadedTrace> m_trace;
    const TraceModel &m_model;
    const OpGraph &m_graph;
    std::unique_ptr<TimelineIndex> m_index;

    std::vector<Group> m_groups;
    std::vector<Track> m_tracks;
    std::vector<bool> m_laneCollapsed;
    std::vector<int> m_trackOfLane;

    double m_start = 0;
    double m_span = 1;
    int m_scrollY = 0;
    QScrollBar *m_scrollBar;

    bool m_showAllArrows = false;
    std::vector<SliceId> m_highlight; //!< sorted, so each lane's share is one range
    QRegularExpression m_findRegex;
    std::vector<SliceId> m_findMatches;
    std::vector<bool> m_nameMatches; //!< by StringId

    // Mouse interaction
    QPoint m_pressPos;
    double m_pressStart = 0;
    int m_pressScroll = 0;
    bool m_dragging = false;
    bool m_rulerDrag = false;
    std::optional<std::pair<double, double>> m_rangeSelection;

    mutable std::vector<TimelineIndex::Item> m_items; //!< scratch buffer for painting
    mutable std::unordered_map<uint64_t, QRgb> m_colors; //!< (name, style) → colour
    mutable std::array<QRgb, 16> m_mergedColors {}; //!< per SliceStyle, 0 until computed
};

} // namespace ks
