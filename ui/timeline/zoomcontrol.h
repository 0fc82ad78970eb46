// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

namespace ks {

/*!
 * The timeline's view state (cf. Qt Creator's TimelineZoomControl): the trace's extent and the
 * visible range inside it, in ns relative to the trace start. Every change goes through
 * setRange(), which keeps the range inside the trace as Perfetto and Nsight Systems do: it may
 * overhang either end by a margin of kMargin × min(visible span, trace span), so the whole
 * trace shows with 1 % margins, a zoomed-in view shows at most 1 % of its width beyond the
 * trace, zooming out past the whole trace shows the whole trace, and pans and drags stop at its
 * ends. The range never leaves [minStart(), maxEnd()].
 */
class ZoomControl : public QObject {
    Q_OBJECT
public:
    static constexpr double kMinSpan = 20; //!< ns: the deepest zoom
    static constexpr double kMargin = 0.01;

    //! A trace \a traceSpan ns long (at least kMinSpan), showing all of it.
    explicit ZoomControl(double traceSpan, QObject *parent = nullptr);

    double start() const { return m_start; }
    double span() const { return m_span; }
    //! The widest range: the whole trace with its margins.
    double minStart() const { return m_begin - total() * kMargin; }
    double maxSpan() const { return total() * (1 + 2 * kMargin); }
    double maxEnd() const { return minStart() + maxSpan(); }
    /*!
     * Widens what may be shown to [begin, end] ns from the trace start (begin ≤ 0, end ≥ the
     * trace's span), keeping the range: the ranks of a run show the run's whole extent on one
     * clock, including the time before a rank's first event and after its last.
     */
    void setExtent(double begin, double end);

    /*!
     * Shows \a span ns from \a start, clamped: the span to [kMinSpan, maxSpan()], then the start
     * so that the range overhangs the trace by at most the margin. Non-finite values are
     * ignored. Emits rangeChanged() when the range changes.
     */
    void setRange(double start, double span);
    void showAll() { setRange(minStart(), maxSpan()); }
    //! Scales the span by \a factor, keeping the time \a anchor at the same place on screen
    //! (as far as the bounds allow).
    void zoomAt(double factor, double anchor);
    void pan(double ns) { setRange(m_start + ns, m_span); }

signals:
    void rangeChanged(double start, double span);

private:
    double total() const { return m_end - m_begin; }

    double m_begin = 0;
    double m_end;
    double m_start;
    double m_span;
};

} // namespace ks
