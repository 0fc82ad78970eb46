// SPDX-License-Identifier: MIT
#pragma once

#include <QPoint>

#include <functional>

class QWheelEvent;

namespace ks {

class ZoomControl;

/*!
 * How a time view moves under the mouse, the same in each (TimelineView, RankLines): Ctrl+wheel
 * zooms at the cursor, Shift+wheel or a sideways wheel pans a tenth of the range, the wheel
 * scrolls three rows a notch; a left drag over the tracks, once past kDragThreshold, pans time
 * and scrolls rows from where it began — a drag past the trace's end stops there and comes back
 * as soon as the mouse does.
 */
class TimeGestures {
public:
    static constexpr int kDragThreshold = 4; //!< px before a press becomes a pan

    /*!
     * Moves \a zoom's range and the rows' scroll offset (\a scroll, \a setScroll, which clamps);
     * the tracks begin \a labelWidth px from the left; a row is \a rowHeight px.
     */
    TimeGestures(ZoomControl *zoom,
        int labelWidth,
        int rowHeight,
        std::function<int()> scroll,
        std::function<void(int)> setScroll);

    //! Handles \a event over tracks \a tracksWidth px wide.
    void wheel(QWheelEvent *event, int tracksWidth);
    void press(QPoint pos);
    //! Follows the mouse at \a pos with the left button down; true while it drags the view.
    bool move(QPoint pos, int tracksWidth);
    //! Ends the press: true when it was a drag, false for a click.
    bool release();

private:
    ZoomControl *m_zoom;
    int m_labelWidth;
    int m_rowHeight;
    std::function<int()> m_scroll;
    std::function<void(int)> m_setScroll;
    QPoint m_pressPos;
    double m_pressStart = 0;
    int m_pressScroll = 0;
    bool m_dragging = false;
};

} // namespace ks
