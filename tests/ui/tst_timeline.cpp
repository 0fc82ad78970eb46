// SPDX-License-Identifier: MIT
// The timeline's pieces (ui/timeline/) and the view that owns them, offscreen: the range stays
// inside the trace (zoom-out, framing, pans, drags), the layout, hit testing far from a parent,
// and the geometry cache (repaints without a rescan, never stale).
#include "analysis/timeline/argfilter.h"
#include "common/qstrings.h"
#include "memorytrace.h"
#include "testutil.h"
#include "timeline/arrowpainter.h"
#include "timeline/calloutpainter.h"
#include "timeline/foldmemory.h"
#include "timeline/selectionlinks.h"
#include "timeline/timelineview.h"
#include "timeline/trackgeometry.h"
#include "timeline/tracklayout.h"
#include "timeline/zoomcontrol.h"

#include <QApplication>
#include <QMenu>
#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include <set>

using namespace ks;

namespace {

using test::completeEvent;

/*
 * 10 ms on three lanes (times in µs):
 *   main 1: ProfilerStep#1 [0, 10000] > aten::conv2d [0, 10] N=10 > launch corr 1,
 *           then 40 aten::add [100 + 100 i, +20], then aten::late [9000, 9100] N=11
 *   autograd 2: evaluate_function: ConvolutionBackward0 [8000, 8500] N=10 > the node itself
 *           [8001, 8499] > launch corr 2
 *   stream 7: k_fwd [60, 80] corr 1, k_bwd [8600, 8700] corr 2
 * aten::conv2d, the first op, starts with the trace; aten::late lies 9 ms after its parent's
 * start.
 */
std::string demoTraceEvents()
{
    std::string e;
    e += completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 10000);
    e += completeEvent(
        "cpu_op", "aten::conv2d", 1, 0, 10, R"("Sequence number":10,"Fwd thread id":0)");
    e += completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 2, 3, R"("correlation":1)");
    for (int i = 0; i < 40; ++i)
        e += completeEvent("cpu_op", "aten::add", 1, 100 + 100 * i, 20);
    e += completeEvent(
        "cpu_op", "aten::late", 1, 9000, 100, R"("Sequence number":11,"Fwd thread id":0)");
    e += completeEvent("cpu_op", "autograd::engine::evaluate_function: ConvolutionBackward0", 2,
        8000, 500, R"("Sequence number":10,"Fwd thread id":1)");
    e += completeEvent("cpu_op", "ConvolutionBackward0", 2, 8001, 498,
        R"("Sequence number":10,"Fwd thread id":1)");
    e += completeEvent("cuda_runtime", "cudaLaunchKernel", 2, 8100, 5, R"("correlation":2)");
    e += completeEvent("kernel", "k_fwd", 7, 60, 20, R"("correlation":1)");
    e += completeEvent("kernel", "k_bwd", 7, 8600, 100, R"("correlation":2)");
    e.pop_back();
    return e;
}

std::string demoTrace()
{
    return test::traceWith(demoTraceEvents());
}

//! Shows \a v offscreen at \a size with the whole trace in view, as the pixel checks need it.
void showOffscreen(TimelineView &v, QSize size)
{
    v.resize(size);
    v.setAttribute(Qt::WA_DontShowOnScreen);
    v.show();
    v.showAll();
}

SliceId named(const TraceModel &m, std::string_view name)
{
    for (SliceId s = 0; s < m.slices.size(); ++s)
        if (m.sliceName(s) == name)
            return s;
    return kNoSlice;
}

void sendMouse(QWidget *w, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons)
{
    const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
    QMouseEvent e(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}

void wheel(QWidget *w, QPoint pos, int dy, Qt::KeyboardModifiers modifiers)
{
    QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, dy), Qt::NoButton, modifiers,
        Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}

//! The labels of the timeline's tracks, top to bottom (\a lanesOnly: no headers, no curves).
QStringList trackLabels(const LoadedTrace &trace, bool lanesOnly)
{
    const TimelineIndex index(*trace.model, *trace.graph);
    const TrackLayout layout(*trace.model, index, trace.curves());
    QStringList labels;
    for (const TrackLayout::Track &t : layout.tracks()) {
        if (!lanesOnly || (!t.header && t.curve < 0))
            labels << t.label;
    }
    return labels;
}

} // namespace

class TestTimeline : public QObject {
    Q_OBJECT
    std::shared_ptr<const LoadedTrace> m_trace;
    double m_total = 0; // ns

    //! The view must lie within the trace and its margin: 1 % of the trace span at most.
    void verifyInside(const TimelineView &v)
    {
        const double margin = 0.01 * m_total * 1.000001;
        QVERIFY2(v.rangeStart() >= -margin, qPrintable(QString::number(v.rangeStart())));
        QVERIFY2(v.rangeStart() + v.rangeSpan() <= m_total + margin,
            qPrintable(QString::number(v.rangeStart() + v.rangeSpan())));
    }

private slots:
    void initTestCase()
    {
        // Folds are remembered in the settings (this test program's own): none from a last run.
        QSettings().remove(QStringLiteral("timelineFolds"));
        QSettings().remove(QStringLiteral("timeline"));
        m_trace = test::link(demoTrace());
        QVERIFY(m_trace);
        m_total = double(m_trace->model->maxTime - m_trace->model->minTime);
        QCOMPARE(m_total, 10'000'000.0);
    }

    // ---- ZoomControl on its own

    void zoomControlClampsAndSignalsChangesOnly()
    {
        ZoomControl z(1000);
        QSignalSpy changed(&z, &ZoomControl::rangeChanged);
        QCOMPARE(z.start(), -10.0);
        QCOMPARE(z.span(), 1020.0);
        z.showAll();
        QCOMPARE(changed.count(), 0); // already there
        z.setRange(-5000, 100000); // wider than everything: the whole trace
        QCOMPARE(z.start(), z.minStart());
        QCOMPARE(z.span(), z.maxSpan());
        QCOMPARE(changed.count(), 0);
        z.setRange(500, 1); // under the deepest zoom
        QCOMPARE(z.span(), ZoomControl::kMinSpan);
        QCOMPARE(z.start(), 500.0);
        QCOMPARE(changed.count(), 1);
        z.setRange(std::nan(""), 100);
        z.setRange(0, std::numeric_limits<double>::infinity());
        QCOMPARE(changed.count(), 1);
        // The margin follows the span: zoomed in, at most 1 % of the view lies past an end.
        z.setRange(-400, 100);
        QCOMPARE(z.start(), -1.0);
        z.setRange(5000, 100);
        QCOMPARE(z.start() + z.span(), 1001.0);
        // A trace shorter than the deepest zoom still has a range.
        ZoomControl tiny(0);
        QVERIFY(tiny.span() >= ZoomControl::kMinSpan);
    }

    void zoomControlZoomsAtTheAnchor()
    {
        ZoomControl z(1'000'000);
        z.setRange(200'000, 100'000);
        z.zoomAt(0.5, 230'000); // 30 % into the view
        QCOMPARE(z.span(), 50'000.0);
        QCOMPARE((230'000 - z.start()) / z.span(), 0.3);
        // At the deepest zoom the anchor stays put.
        z.zoomAt(1e-9, 230'000);
        QCOMPARE(z.span(), ZoomControl::kMinSpan);
        QCOMPARE((230'000 - z.start()) / z.span(), 0.3);
        // Out past the whole trace: the whole trace.
        for (int i = 0; i < 50; ++i)
            z.zoomAt(1.25, 990'000);
        QCOMPARE(z.start(), z.minStart());
        QCOMPARE(z.span(), z.maxSpan());
    }

    // Instant events are markers at the top of their lane: a [memory] event dark, an
    // [OutOfMemory] one red; the slice under them keeps its colour elsewhere.
    void instantMarkersAreDrawn()
    {
        auto trace = test::link(test::traceWith(
            R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":1000},)"
            R"({"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":300,"args":{"Bytes":8}},)"
            R"({"ph":"i","s":"t","name":"[OutOfMemory]","pid":1,"tid":1,"ts":700,"args":{"Bytes":8}},)"
            R"({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}})"));
        QVERIFY(trace);
        SelectionController selection(trace);
        TimelineView v(&selection);
        showOffscreen(v, QSize(1000, 300));
        const std::optional<QRectF> box = v.sliceRect(0);
        QVERIFY(box);
        const QImage image = v.grab().toImage();
        auto at = [&](double fraction) {
            return image.pixelColor(
                int(box->left() + fraction * box->width()), int(box->top()) + 2);
        };
        const QColor memory = at(0.3), oom = at(0.7), plain = at(0.5);
        QVERIFY2(memory.red() < 110 && memory.green() < 110 && memory.blue() < 110,
            qPrintable(memory.name()));
        QVERIFY2(oom.red() > 180 && oom.green() < 80, qPrintable(oom.name()));
        QVERIFY(plain != memory && plain != oom);
    }

    // Memory curves under the lanes (the fixture of tests/memorytrace.h in a step [50, 700) µs):
    // filled up to Total Allocated, phases shaded, the peak marked, a click selects the op that
    // allocated or freed at that point.
    void memoryCurvesAreDrawnAndSelectTheirOp()
    {
        auto trace = test::link(test::traceWith(
            R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":50,"dur":650},)"
            + test::memoryEvents()));
        QVERIFY(trace);
        const TraceModel &m = *trace->model;
        QCOMPARE(trace->curves().tracks.size(), size_t(2));
        SelectionController selection(trace);
        TimelineView v(&selection);
        showOffscreen(v, QSize(1000, 600));
        const std::optional<QRect> area = v.curveArea(1); // cuda:0
        QVERIFY(area);
        QVERIFY(area->top() > v.sliceRect(named(m, "MmBackward0"))->bottom());
        // The CPU's 16 B next to cuda:0's 2 KiB: a thin track, not a full one.
        const std::optional<QRect> cpu = v.curveArea(0);
        QVERIFY(cpu);
        QVERIFY2(cpu->height() > 0 && cpu->height() < area->height() / 2,
            qPrintable(QStringLiteral("%1 vs %2").arg(cpu->height()).arg(area->height())));
        const auto xAt = [&](double us) {
            return int(area->left()
                + (us * 1000 - double(m.minTime) - v.rangeStart()) / v.rangeSpan() * area->width());
        };
        // Scale [0, 2048] bytes (reserved); allocated is 416 from 180 to 550 µs.
        const auto yOf
            = [&](double bytes) { return area->bottom() + 1 - bytes / 2048 * area->height(); };
        const QImage image = v.grab().toImage();
        const QColor filled = image.pixelColor(xAt(300), int(yOf(200)));
        const QColor plain = image.pixelColor(xAt(300), int(yOf(1200)));
        const QColor beforeFirst = image.pixelColor(xAt(80), int(yOf(200)));
        QVERIFY2(filled.blue() > filled.red() + 30, qPrintable(filled.name()));
        QCOMPARE(beforeFirst, plain); // no value before the first event: nothing drawn
        const QColor forward = image.pixelColor(xAt(150), int(yOf(1200)));
        const QColor backward = image.pixelColor(xAt(580), int(yOf(1200)));
        QVERIFY2(forward != plain && forward.blue() > forward.red(), qPrintable(forward.name()));
        QVERIFY2(
            backward != plain && backward.red() > backward.blue(), qPrintable(backward.name()));
        const QColor peak = image.pixelColor(xAt(180), int(yOf(416)) - 5);
        QVERIFY2(peak.red() > 150 && peak.green() < 100, qPrintable(peak.name()));

        QSignalSpy moments(&v, &TimelineView::memoryEventClicked);
        sendMouse(
            &v, QEvent::MouseButtonPress, QPoint(xAt(185), area->center().y()), Qt::LeftButton);
        sendMouse(
            &v, QEvent::MouseButtonRelease, QPoint(xAt(185), area->center().y()), Qt::NoButton);
        QCOMPARE(m.sliceName(selection.current()), std::string_view("aten::mm")); // allocated F
        // ... and the moment goes to the Memory tab: F's allocation, 180 µs.
        QCOMPARE(moments.size(), 1);
        const uint32_t clicked = moments[0][0].value<uint32_t>();
        QCOMPARE(m.memory.time[clicked], TimeNs(180'000));
        QCOMPARE(m.memory.bytes[clicked], int64_t(128));
        sendMouse(
            &v, QEvent::MouseButtonPress, QPoint(xAt(555), area->center().y()), Qt::LeftButton);
        sendMouse(
            &v, QEvent::MouseButtonRelease, QPoint(xAt(555), area->center().y()), Qt::NoButton);
        QCOMPARE(m.sliceName(selection.current()), std::string_view("MmBackward0")); // freed A
        QCOMPARE(v.curveOpAt(QPoint(xAt(70), area->center().y())), kNoSlice);
    }

    // Level of detail for the phases: 400 steps of 10 µs in a 750-pixel track are too narrow to
    // shade; zoomed in, the first step's forward phase is.
    void narrowStepsAreNotShaded()
    {
        std::string events;
        for (int i = 0; i < 400; ++i) {
            const int t = i * 10;
            events += R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)"
                + std::to_string(i) + R"(","pid":1,"tid":1,"ts":)" + std::to_string(t)
                + R"(,"dur":10},)" + test::op("aten::mm", 1, t + 1, 3, i + 1)
                + test::op("MmBackward0", 2, t + 5, 3, i + 1);
        }
        auto trace = test::link(test::traceWith(events + test::memory(1, 2, 1, 0, 1, 8, 8, 64)
            + R"({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}})"));
        QVERIFY(trace);
        QCOMPARE(trace->curves().phases.size(), size_t(400));
        SelectionController selection(trace);
        TimelineView v(&selection);
        showOffscreen(v, QSize(1000, 400));
        const std::optional<QRect> area = v.curveArea(0);
        QVERIFY(area);
        const int y = area->top() + 3; // above the curve (8 of 64 bytes)
        // Tinted pixels: the background, stripes and grid are grey (r = g = b).
        auto tinted = [&](const QImage &image) {
            int n = 0;
            for (int x = area->left(); x < area->right(); ++x) {
                const QColor c = image.pixelColor(x, y);
                n += std::abs(c.red() - c.blue()) > 6 ? 1 : 0;
            }
            return n;
        };
        QCOMPARE(tinted(v.grab().toImage()), 0);
        v.setRange(0, 10'000); // the first step, 10 µs wide: its phases are shaded
        QVERIFY(tinted(v.grab().toImage()) > 50);
    }

    void countersAreDrawn()
    {
        std::string events;
        for (int i = 0; i <= 10; ++i)
            events += R"({"ph":"C","name":"queue","pid":1,"ts":)" + std::to_string(i * 100)
                + R"(,"args":{"depth":)" + std::to_string(i) + "}},";
        auto trace = test::link(test::traceWith(events
            + R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":1000})"));
        QVERIFY(trace);
        SelectionController selection(trace);
        TimelineView v(&selection);
        showOffscreen(v, QSize(1000, 400));
        const std::optional<QRect> area = v.curveArea(0);
        QVERIFY(area);
        const QImage image = v.grab().toImage().copy(*area);
        // The rising steps: the curve's colour low at the left, high at the right.
        auto curveRows = [&](int x) {
            std::vector<int> rows;
            for (int y = 0; y < image.height(); ++y) {
                const QColor c = image.pixelColor(x, y);
                if (c.red() > c.green() + 25 && c.blue() > c.green() + 40)
                    rows.push_back(y);
            }
            return rows;
        };
        const std::vector<int> left = curveRows(area->width() / 8),
                               right = curveRows(area->width() * 7 / 8);
        QVERIFY(!left.empty() && !right.empty());
        QVERIFY2(right.front() < left.front() - 20,
            qPrintable(QStringLiteral("%1 %2").arg(right.front()).arg(left.front())));
    }

    // A range measured on the ruler and then panned half out of view shades the tracks and the
    // ruler up to the label column, never over it.
    void measuredRangeStaysOffTheLabels()
    {
        SelectionController selection(m_trace);
        TimelineView v(&selection);
        v.resize(1000, 300);
        v.setAttribute(Qt::WA_DontShowOnScreen);
        v.show();
        v.setRange(0.2 * m_total, 0.4 * m_total);
        const QRect labels(0, 0, TimelineView::kLabelWidth, v.height());
        const QImage before = v.grab().toImage().copy(labels);
        // Measure from 300 px to 600 px into the tracks, then show from the range's middle on.
        const int x0 = TimelineView::kLabelWidth + 300, x1 = TimelineView::kLabelWidth + 600;
        sendMouse(&v, QEvent::MouseButtonPress, QPoint(x0, 10), Qt::LeftButton);
        sendMouse(&v, QEvent::MouseMove, QPoint(x1, 10), Qt::LeftButton);
        sendMouse(&v, QEvent::MouseButtonRelease, QPoint(x1, 10), Qt::NoButton);
        QVERIFY(v.rangeSelection());
        const auto [a, b] = *v.rangeSelection();
        v.setRange(0.2 * m_total, 0.4 * m_total); // unchanged: the range is in view
        const QImage inView = v.grab().toImage();
        QCOMPARE(inView.copy(labels), before);
        QVERIFY(inView.pixelColor(x0 + 150, 10) != before.pixelColor(10, 10)); // the band
        v.setRange((a + b) / 2, 0.4 * m_total);
        QCOMPARE(v.grab().toImage().copy(labels), before);
    }

    // ---- The reported bug: the view stays inside the trace

    void zoomingOutStopsAtTheWholeTrace()
    {
        SelectionController selection(m_trace);
        TimelineView v(&selection);
        v.resize(1200, 500);
        v.showAll();
        const double start = v.rangeStart(), span = v.rangeSpan();
        QCOMPARE(start, -0.01 * m_total);
        QCOMPARE(span, 1.02 * m_total);
        for (int i = 0; i < 10; ++i)
            QTest::keyClick(&v, Qt::Key_S);
        for (int i = 0; i < 10; ++i)
            wheel(&v, QPoint(TimelineView::kLabelWidth + 10, 100), -120, Qt::ControlModifier);
        QCOMPARE(v.rangeStart(), start);
        QCOMPARE(v.rangeSpan(), span);
        // Zoomed in at the end, then out again: back to the whole trace, never past it.
        v.setRange(m_total * 0.99, m_total / 100);
        for (int i = 0; i < 40; ++i) {
            wheel(&v, QPoint(v.width() - 30, 100), -120, Qt::ControlModifier);
            verifyInside(v);
        }
        QCOMPARE(v.rangeStart(), start);
        QCOMPARE(v.rangeSpan(), span);
    }

    void framingTheFirstOpStaysInside()
    {
        const TraceModel &m = *m_trace->model;
        const SliceId conv = named(m, "aten::conv2d");
        QVERIFY(conv != kNoSlice);
        SelectionController selection(m_trace);
        TimelineView v(&selection);
        v.resize(1200, 500);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        // Selecting reveals it with its backward node (8 ms later) and both kernels, with
        // nothing more than the margin before it.
        selection.select(conv);
        QVERIFY(v.rangeSpan() > 8'700'000);
        QCOMPARE(v.rangeStart(), -0.01 * v.rangeSpan());
        QVERIFY(v.slicePoint(conv));
        QVERIFY(v.slicePoint(named(m, "k_bwd")));
        v.zoomToInterval(m.slices.start[conv], m.slices.end(conv));
        QCOMPARE(v.rangeStart(), -0.01 * v.rangeSpan());
        QVERIFY(v.slicePoint(conv));
        // Fit frames the op with its backward node, still from the trace's start.
        v.fitSelection();
        QVERIFY(v.rangeSpan() > 8'000'000);
        QCOMPARE(v.rangeStart(), -0.01 * v.rangeSpan());
        verifyInside(v);
        // The last op framed at the other end.
        const SliceId late = named(m, "aten::late");
        v.zoomToInterval(m.slices.start[late], m.slices.end(late) + 995'000);
        verifyInside(v);
        QCOMPARE(v.rangeStart() + v.rangeSpan(), m_total + 0.01 * v.rangeSpan());
    }

    void pansStopAtTheEnds()
    {
        SelectionController selection(m_trace);
        TimelineView v(&selection);
        v.resize(1200, 500);
        v.setRange(m_total / 2, m_total / 10);
        for (int i = 0; i < 30; ++i)
            QTest::keyClick(&v, Qt::Key_D);
        verifyInside(v);
        QCOMPARE(v.rangeStart() + v.rangeSpan(), m_total + 0.01 * v.rangeSpan());
        for (int i = 0; i < 30; ++i)
            wheel(&v, QPoint(500, 100), -120, Qt::ShiftModifier);
        QCOMPARE(v.rangeStart() + v.rangeSpan(), m_total + 0.01 * v.rangeSpan());
        for (int i = 0; i < 150; ++i)
            wheel(&v, QPoint(500, 100), 120, Qt::ShiftModifier);
        QCOMPARE(v.rangeStart(), -0.01 * v.rangeSpan());
        QCOMPARE(v.rangeSpan(), m_total / 10);
    }

    void dragStopsAtTheEndsAndComesBack()
    {
        SelectionController selection(m_trace);
        TimelineView v(&selection);
        v.resize(1200, 500);
        v.setRange(m_total / 2, m_total / 10);
        const double start = v.rangeStart();
        const QPoint press(TimelineView::kLabelWidth + 600, 100);
        sendMouse(&v, QEvent::MouseButtonPress, press, Qt::LeftButton);
        // Dragging left pans towards the end: a long drag stops there.
        for (int dx = 50; dx <= 200'000; dx *= 2) {
            sendMouse(&v, QEvent::MouseMove, press - QPoint(dx, 0), Qt::LeftButton);
            verifyInside(v);
        }
        QCOMPARE(v.rangeStart() + v.rangeSpan(), m_total + 0.01 * v.rangeSpan());
        // Back where the drag began, the view is where it was.
        sendMouse(&v, QEvent::MouseMove, press, Qt::LeftButton);
        QCOMPARE(v.rangeStart(), start);
        // And past the start the other way.
        sendMouse(&v, QEvent::MouseMove, press + QPoint(200'000, 0), Qt::LeftButton);
        QCOMPARE(v.rangeStart(), -0.01 * v.rangeSpan());
        sendMouse(&v, QEvent::MouseButtonRelease, press + QPoint(200'000, 0), Qt::NoButton);
        QCOMPARE(v.rangeSpan(), m_total / 10);
        QCOMPARE(selection.current(), kNoSlice); // a drag selects nothing
    }

    // ---- Layout and hit testing

    // Issue #57: a trace opened for the first time in a short view shows its GPU lane: the host
    // lanes of most rows collapse, the backward thread first (3 rows each, 18 px a row: the
    // GPU lane would end at 182 px, below the 170 px of tracks); a tall view, or a trace with
    // folds kept, is left as it is.
    void firstLayoutFitsTheGpuInView()
    {
        QSettings().remove(QStringLiteral("timelineFolds"));
        const TraceModel &m = *m_trace->model;
        const LaneId main = m.slices.lane[named(m, "aten::conv2d")];
        const LaneId autograd = m.slices.lane[named(m, "ConvolutionBackward0")];
        const LaneId stream = m.slices.lane[named(m, "k_fwd")];
        SelectionController selection(m_trace);
        auto gpuBottom = [](const TimelineView &v, LaneId lane) {
            const TrackLayout::Track &t = v.m_layout->tracks()[size_t(v.m_layout->laneTrack(lane))];
            return t.y + t.height;
        };
        {
            TimelineView tall(&selection);
            tall.resize(800, 600);
            tall.grab();
            QVERIFY(!tall.m_layout->laneCollapsed(main) && !tall.m_layout->laneCollapsed(autograd));
            QCOMPARE(gpuBottom(tall, stream), 182);
        }
        TimelineView v(&selection);
        v.resize(800, 200);
        v.grab();
        QVERIFY(v.m_layout->laneCollapsed(autograd));
        QVERIFY(!v.m_layout->laneCollapsed(main));
        QVERIFY(gpuBottom(v, stream) <= 200 - TimelineView::kRulerHeight);
        // Kept folds win: the user's layout is not refitted.
        foldmemory::save(QString::fromStdString(m.path), TrackLayout::FoldState());
        TimelineView again(&selection);
        again.resize(800, 200);
        again.grab();
        QVERIFY(!again.m_layout->laneCollapsed(autograd));
        QSettings().remove(QStringLiteral("timelineFolds"));
    }

    void layoutCollapsesAndAnchorsOnTheHeader()
    {
        const TraceModel &m = *m_trace->model;
        const TimelineIndex index(m, *m_trace->graph);
        TrackLayout layout(m, index, m_trace->curves());
        const LaneId main = m.slices.lane[named(m, "aten::conv2d")];
        const int track = layout.laneTrack(main);
        QVERIFY(track > 0);
        const TrackLayout::Track &tr = layout.tracks()[size_t(track)];
        QCOMPARE(layout.rows(track).size(), size_t(3));
        QCOMPARE(layout.trackAt(tr.y), track);
        QCOMPARE(layout.trackAt(-1), -1);
        QCOMPARE(layout.trackAt(layout.contentHeight()), -1);
        // Rows: the lane's padding belongs to none; row 1 exists until the lane collapses.
        const int row0 = layout.rows(track)[0].y, row1 = layout.rows(track)[1].y;
        QCOMPARE(row0, tr.y + 2);
        QCOMPARE(row1, row0 + TimelineView::kRowHeight);
        QCOMPARE(layout.rowAt(track, tr.y), -1);
        QCOMPARE(layout.rowAt(track, row0), 0);
        QCOMPARE(layout.rowAt(track, row1), 1);
        const SliceId conv = named(m, "aten::conv2d");
        QCOMPARE(*layout.anchorY(conv), row1 + 9.0); // at depth 1, under ProfilerStep#1
        layout.setLaneCollapsed(main, true);
        QCOMPARE(layout.rows(track).size(), size_t(1));
        QCOMPARE(layout.rowAt(track, row1), -1);
        QCOMPARE(*layout.anchorY(conv), row0 + 9.0); // on row 0
        // A collapsed group: no lane track, arrows meet its header.
        const int header = track - 1;
        QVERIFY(layout.tracks()[size_t(header)].header);
        layout.toggle(header);
        QCOMPARE(layout.laneTrack(main), -1);
        const TrackLayout::Track &h = layout.tracks()[size_t(header)];
        QCOMPARE(*layout.anchorY(conv), h.y + h.height / 2.0);
        QVERIFY(layout.expandGroupOf(main));
        QVERIFY(!layout.expandGroupOf(main));
        QCOMPARE(layout.laneTrack(main), track);
    }

    /*
     * with_stack (µs): thread 1 runs P0 [0, 5000] python > P1 [0, 3000] python > aten::conv2d
     * [10, 100] (seq 10) > aten::convolution [20, 80]; thread 2 the backward node [4000, 4500].
     * Folded (the default), thread 1 shows the band of P1 over two op rows; a click on the band
     * unfolds it (P0, P1 and the ops by nesting depth), the next view of the trace opens
     * unfolded, and selecting the op changes no fold.
     */
    void pythonFramesFoldAndTheFoldsAreKept()
    {
        std::string e;
        e += test::completeEvent("python_function", "P0", 1, 0, 5000);
        e += test::completeEvent("python_function", "P1", 1, 0, 3000);
        e += test::completeEvent(
            "cpu_op", "aten::conv2d", 1, 10, 90, R"("Sequence number":10,"Fwd thread id":0)");
        e += test::completeEvent("cpu_op", "aten::convolution", 1, 20, 60);
        e += test::completeEvent("cpu_op", "ConvolutionBackward0", 2, 4000, 500,
            R"("Sequence number":10,"Fwd thread id":1)");
        e.pop_back();
        const auto trace = test::link(test::traceWith(e));
        QVERIFY(trace);
        const TraceModel &m = *trace->model;
        const SliceId conv = named(m, "aten::conv2d"), p1 = named(m, "P1");
        const LaneId lane = m.slices.lane[conv];
        SelectionController selection(trace);
        auto view = std::make_unique<TimelineView>(&selection);
        showOffscreen(*view, QSize(1000, 400));
        QVERIFY(view->pythonFolded(lane));
        // The band (12 px) on top, then the op rows: conv2d on the first, convolution below.
        const QRectF band = *view->sliceRect(p1), op = *view->sliceRect(conv);
        QCOMPARE(band.height(), 12.0);
        QCOMPARE(op.top(), band.bottom());
        QCOMPARE(view->sliceRect(named(m, "aten::convolution"))->top(), op.bottom());
        // P0 has a frame below it: not drawn, but placed (outlined when selected) on the band.
        QCOMPARE(view->sliceRect(named(m, "P0"))->top(), band.top());
        QCOMPARE(view->sliceAt(band.center().toPoint()), p1);
        // Selecting the op (from anywhere) leaves the fold as it was.
        selection.select(conv);
        QVERIFY(view->pythonFolded(lane));
        // A click on the band unfolds the frames: P0, P1, then the ops at their depth.
        const QRectF bandNow = *view->sliceRect(p1);
        QTest::mouseClick(view.get(), Qt::LeftButton, {}, bandNow.center().toPoint());
        QVERIFY(!view->pythonFolded(lane));
        QCOMPARE(selection.current(), conv); // the band folds, it does not select
        const QRectF p0 = *view->sliceRect(named(m, "P0"));
        QCOMPARE(view->sliceRect(p1)->top(), p0.bottom());
        QCOMPARE(view->sliceRect(conv)->top(), view->sliceRect(p1)->bottom());
        // The next view of this trace opens as the user left it; "ops only" hides the frames.
        view = std::make_unique<TimelineView>(&selection);
        showOffscreen(*view, QSize(1000, 400));
        QVERIFY(!view->pythonFolded(lane));
        view->setPythonHidden(true);
        QVERIFY(!view->sliceRect(p1));
        QVERIFY(!view->sliceRect(named(m, "P0")));
        QVERIFY(view->sliceRect(conv));
    }

    /*
     * Issue #57: find by args (Perfetto's `args.` filters): each condition counted here from the
     * model's own columns, the view's matches equal to them; a malformed one is said, and text
     * that names no arg stays a name pattern.
     */
    void findByArgs()
    {
        std::string error;
        const auto filters = parseArgFilters("args.Correlation = 2 and cat~kern", error);
        QVERIFY(filters && error.empty());
        QCOMPARE(filters->size(), size_t(2));
        QVERIFY(!parseArgFilters("aten::add", error));
        QVERIFY(!parseArgFilters("a=b", error)); // no such arg: a name pattern
        QVERIFY(parseArgFilters("stream>x", error) && error == "stream: > needs a number");
        const TraceModel &m = *m_trace->model;
        const SliceTable &t = m.slices;
        SelectionController selection(m_trace);
        TimelineView v(&selection);
        showOffscreen(v, QSize(1000, 400));
        auto found = [&](const QString &query) {
            QSignalSpy finished(&v, &TimelineView::findFinished);
            v.setFindPattern(query);
            return finished.wait(10000) ? finished.first().first().toInt() : -1;
        };
        auto counted = [&](auto keep) {
            int n = 0;
            for (SliceId s = 0; s < t.size(); ++s)
                n += keep(s);
            return n;
        };
        QCOMPARE(found(QStringLiteral("correlation=2")),
            counted([&](SliceId s) { return t.correlation[s] == 2; })); // the launch and k_bwd
        QCOMPARE(found(QStringLiteral("correlation=2")), 2);
        QCOMPARE(
            found(QStringLiteral("Sequence number=10 and cat=cpu_op")), counted([&](SliceId s) {
                return t.sequence[s] == 10 && m.str(t.category[s]) == "cpu_op";
            }));
        QCOMPARE(found(QStringLiteral("correlation>1 and correlation<3")), 2);
        QCOMPARE(found(QStringLiteral("aten::add")), 40); // a name pattern still
        selection.select(kNoSlice);
        QVERIFY(v.findNext());
        QCOMPARE(m.sliceName(selection.current()), std::string_view("aten::add"));
    }

    /*
     * Issue #57: the track menu pins, hides, moves, collapses the other processes and shows one
     * process only; the arrangement is the trace's next opening's, as folds are.
     */
    void trackMenuArrangesAndIsKept()
    {
        const TraceModel &m = *m_trace->model;
        const SliceId kernel = named(m, "k_fwd"), forward = named(m, "aten::conv2d");
        const SliceId backward = named(m, "ConvolutionBackward0");
        const LaneId gpu = m.slices.lane[kernel], main = m.slices.lane[forward];
        const LaneId autograd = m.slices.lane[backward];
        SelectionController selection(m_trace);
        auto view = std::make_unique<TimelineView>(&selection);
        showOffscreen(*view, QSize(1000, 600));
        // The label of \a s's track, and its menu's entry \a text.
        auto act = [&](SliceId s, const QString &text) {
            QMenu menu;
            const std::optional<QPoint> at = view->slicePoint(s);
            if (!at || !view->fillTrackMenu(menu, QPoint(10, at->y())))
                return false;
            for (QAction *a : menu.actions())
                if (a->text().startsWith(text)) {
                    a->trigger();
                    return true;
                }
            return false;
        };
        auto firstLane = [&] {
            for (const TrackLayout::Track &t : view->m_layout->tracks())
                if (!t.header)
                    return t.lane;
            return kNoLane;
        };
        auto laneY = [&](SliceId s) { return view->sliceRect(s)->top(); };
        QVERIFY(laneY(forward) < laneY(kernel)); // hosts first, by default
        QVERIFY(act(kernel, QStringLiteral("Pin to Top")));
        QCOMPARE(firstLane(), gpu);
        QVERIFY(laneY(kernel) < laneY(forward));
        QVERIFY(laneY(forward) < laneY(backward));
        QVERIFY(act(backward, QStringLiteral("Move Up"))); // above the main thread now
        QVERIFY(laneY(backward) < laneY(forward));
        // Reopened: pinned first, the threads in the user's order.
        view = std::make_unique<TimelineView>(&selection);
        showOffscreen(*view, QSize(1000, 600));
        QCOMPARE(firstLane(), gpu);
        QVERIFY(laneY(kernel) < laneY(backward) && laneY(backward) < laneY(forward));
        // Hidden: not drawn; the menu offers them all back.
        QVERIFY(act(backward, QStringLiteral("Hide Track")));
        QVERIFY(!view->sliceRect(backward));
        QVERIFY(act(forward, QStringLiteral("Show All Tracks (1 hidden)")));
        QVERIFY(view->sliceRect(backward));
        // One process only: the GPU's; then every process back, the others collapsed.
        QVERIFY(act(kernel, QStringLiteral("Show Only This Process")));
        QVERIFY(view->sliceRect(kernel) && !view->sliceRect(forward));
        QVERIFY(act(kernel, QStringLiteral("Show All Tracks")));
        QVERIFY(act(kernel, QStringLiteral("Unpin")));
        QCOMPARE(firstLane(), autograd);
        QVERIFY(act(kernel, QStringLiteral("Collapse All Other Processes")));
        QVERIFY(view->m_layout->laneTrack(main) < 0 && view->m_layout->laneTrack(gpu) >= 0);
        QSettings().remove(QStringLiteral("timelineFolds")); // inline traces share one key
    }

    /*
     * Issue #31: a one-row lane (here a collapsed one) with a long thread name keeps its role at
     * the right end of its label, and the name is elided short of it: no dark text pixel of the
     * name within the role's place.
     */
    void oneRowLaneNameStopsShortOfItsRole()
    {
        std::string e = demoTraceEvents();
        e += ",{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,\"args\":{\"name\":"
             "\"autograd_engine_worker_thread_with_a_name_longer_than_its_label\"}}";
        const auto trace = test::link(test::traceWith(e));
        QVERIFY(trace);
        SelectionController selection(trace);
        TimelineView v(&selection);
        showOffscreen(v, QSize(1000, 400));
        const LaneId lane = trace->model->slices.lane[named(*trace->model, "ConvolutionBackward0")];
        v.setLaneCollapsed(lane, true);
        const QRectF row = *v.sliceRect(named(*trace->model, "ConvolutionBackward0"));
        const QImage image = v.grab().toImage();
        const int roleWidth = v.fontMetrics().horizontalAdvance(QStringLiteral("backward"));
        const int right = TimelineView::kLabelWidth - 6; // the label's right end
        int roleInk = 0, nameInk = 0;
        for (int y = int(row.top()); y < int(row.bottom()); ++y) {
            for (int x = right - roleWidth; x < right; ++x) {
                const QColor c = image.pixelColor(x, y);
                roleInk += c.red() > c.blue() + 60; // the role's colour
                nameInk += c.lightness() < 90 && std::abs(c.red() - c.blue()) < 30; // the name's
            }
        }
        QVERIFY2(roleInk > 10, qPrintable(QString::number(roleInk)));
        QCOMPARE(nameInk, 0);
    }

    /*
     * Issue #32: Kineto (kineto#1356) writes a stream's Stream Sync events on a row of their own,
     * tid = stream + 1000000, named "stream N (sync)" and sorted with stream N. Written first in
     * the file here, with or without its sort index, that row comes right under stream 7, before
     * stream 20.
     */
    void streamSyncRowFollowsItsStream_data()
    {
        QTest::addColumn<bool>("sortIndex");
        QTest::newRow("sort index") << true;
        QTest::newRow("none") << false;
    }

    void streamSyncRowFollowsItsStream()
    {
        QFETCH(bool, sortIndex);
        std::string e = "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":1000007,"
                        "\"args\":{\"name\":\"stream 7 (sync)\"}},";
        if (sortIndex)
            e += "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":0,\"tid\":1000007,"
                 "\"args\":{\"sort_index\":7}},";
        e += "{\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":\"Stream Sync\",\"pid\":0,"
             "\"tid\":1000007,\"ts\":50,\"dur\":10,\"args\":{\"stream\":7}},"
             "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k20\",\"pid\":0,\"tid\":20,"
             "\"ts\":10,\"dur\":10,\"args\":{\"stream\":20}},"
             "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k7\",\"pid\":0,\"tid\":7,"
             "\"ts\":20,\"dur\":10,\"args\":{\"stream\":7}}";
        const auto trace = test::link(test::traceWith(e));
        QVERIFY(trace);
        QCOMPARE(trackLabels(*trace, true),
            QStringList({QStringLiteral("GPU 0 · stream 7"),
                QStringLiteral("GPU 0 · stream 7 (sync)"), QStringLiteral("GPU 0 · stream 20")}));
        QCOMPARE(trace->graph->gpuEvents().size(), size_t(2)); // the sync is no GPU work
    }

    // CUPTI PM sampling counters, written as Kineto writes them (pytorch/kineto 114171df,
    // libkineto/src/output_json.cpp, handleCounterEvent: pid "GPU N Counters", one arg named "")
    // sit under GPU N's streams, as MTIA's (mtia_counters: pid = the device) sit under theirs; a
    // counter of another process stays in "Counters".
    void hardwareCountersSitUnderTheirGpu()
    {
        const std::string e
            = "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"
              "\"ts\":10,\"dur\":10,\"args\":{\"stream\":7}},"
              "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k1\",\"pid\":1,\"tid\":7,"
              "\"ts\":10,\"dur\":10,\"args\":{\"stream\":7}},"
              "{\"ph\":\"C\",\"cat\":\"hardware_counters\",\"name\":\"sm__throughput\","
              "\"pid\":\"GPU 1 Counters\",\"tid\":0,\"ts\":12,\"args\":{\"\":41.5}},"
              "{\"ph\":\"C\",\"cat\":\"hardware_counters\",\"name\":\"sm__throughput\","
              "\"pid\":\"GPU 1 Counters\",\"tid\":0,\"ts\":14,\"args\":{\"\":80}},"
              "{\"ph\":\"C\",\"cat\":\"mtia_counters\",\"name\":\"hbm\",\"pid\":0,"
              "\"tid\":0,\"ts\":12,\"args\":{\"read_bw\":3,\"write_bw\":4}},"
              "{\"ph\":\"C\",\"name\":\"queue\",\"pid\":100,\"tid\":0,\"ts\":12,"
              "\"args\":{\"depth\":3}}";
        const auto trace = test::link(test::traceWith(e));
        QVERIFY(trace);
        QCOMPARE(trackLabels(*trace, false),
            QStringList({QStringLiteral("GPU 0"), QStringLiteral("GPU 0 · stream 7"),
                QStringLiteral("hbm.read_bw"), QStringLiteral("hbm.write_bw"),
                QStringLiteral("GPU 1"), QStringLiteral("GPU 1 · stream 7"),
                QStringLiteral("sm__throughput"), QStringLiteral("Counters"),
                QStringLiteral("queue")}));
        QCOMPARE(trace->curves().tracks[0].curves[0].rangeOver(0, 20000)->max, 80.0);
    }

    // Qt Creator's indexAtFarParent, through the view: a click far from the parent's start
    // finds the parent, and on the child's row the child (the innermost) wins.
    void hitTestingFarFromTheParent()
    {
        const TraceModel &m = *m_trace->model;
        SelectionController selection(m_trace);
        TimelineView v(&selection);
        v.resize(1200, 500);
        const SliceId late = named(m, "aten::late");
        const SliceId step = named(m, "ProfilerStep#1");
        v.zoomToInterval(m.slices.start[late], m.slices.end(late));
        const std::optional<QPoint> p = v.slicePoint(late);
        QVERIFY(p);
        QCOMPARE(v.sliceAt(*p), late);
        QCOMPARE(v.sliceAt(*p - QPoint(0, TimelineView::kRowHeight)), step);
        QCOMPARE(v.sliceAt(QPoint(TimelineView::kLabelWidth - 1, p->y())), kNoSlice);
        QCOMPARE(v.sliceAt(QPoint(p->x(), TimelineView::kRulerHeight - 1)), kNoSlice);
        // A click selects what it hits.
        QTest::mouseClick(&v, Qt::LeftButton, {}, *p);
        QCOMPARE(selection.current(), late);
    }

    // ---- The geometry cache

    void geometryIsScannedOncePerAxis()
    {
        const TraceModel &m = *m_trace->model;
        const TimelineIndex index(m, *m_trace->graph);
        TrackGeometry geometry(m, index);
        const QFont font;
        const LaneId main = m.slices.lane[named(m, "aten::conv2d")];
        geometry.prepare(timeline::TimeAxis(0, m_total, 240, 900), font);
        const size_t pieces = geometry.row(main, {RowSet::Nesting, 1}).size();
        QVERIFY(pieces > 0);
        geometry.row(main, {RowSet::Nesting, 1});
        QCOMPARE(geometry.scans(), size_t(1));
        geometry.prepare(timeline::TimeAxis(0, m_total, 240, 900), font);
        geometry.row(main, {RowSet::Nesting, 1});
        QCOMPARE(geometry.scans(), size_t(1));
        // Any change of the axis drops the rows: start, span, width.
        geometry.prepare(timeline::TimeAxis(1, m_total, 240, 900), font);
        geometry.row(main, {RowSet::Nesting, 1});
        QCOMPARE(geometry.scans(), size_t(2));
        geometry.prepare(timeline::TimeAxis(1, m_total, 240, 901), font);
        geometry.row(main, {RowSet::Nesting, 1});
        QCOMPARE(geometry.scans(), size_t(3));
        QFont bigger = font;
        bigger.setPointSize(font.pointSize() + 4);
        geometry.prepare(timeline::TimeAxis(1, m_total, 240, 901), bigger);
        geometry.row(main, {RowSet::Nesting, 1});
        QCOMPARE(geometry.scans(), size_t(4));
    }

    // Issue #31: the count chips of bundled arrows ending close together stack, never overprint.
    void bundleChipsStack()
    {
        const QRectF chip(100, 80, 30, 16);
        std::vector<QRectF> placed;
        QCOMPARE(ArrowPainter::clearOf(chip, placed), chip);
        placed.push_back(chip);
        const QRectF second = ArrowPainter::clearOf(chip.translated(5, 4), placed);
        QVERIFY(!second.intersects(chip));
        QCOMPARE(second.bottom(), chip.top() - 1);
        QCOMPARE(second.left(), chip.left() + 5);
        placed.push_back(second);
        const QRectF third = ArrowPainter::clearOf(chip, placed);
        QVERIFY(!third.intersects(chip) && !third.intersects(second));
        // Far apart: left where it is.
        QCOMPARE(ArrowPainter::clearOf(chip.translated(200, 0), placed), chip.translated(200, 0));
    }

    // Issue #57: a picture of a selection names the op, its backward and each stream's kernels
    // in callouts, though at 10 ms across 960 px the op (10 µs) and its kernels are a pixel or
    // two wide: each chip is in the tracks, clear of the others, over its slice's start, and
    // painted.
    void calloutsNameTheSelectionItsBackwardAndItsKernels()
    {
        const TraceModel &m = *m_trace->model;
        SelectionController selection(m_trace);
        TimelineView v(&selection);
        showOffscreen(v, QSize(1200, 500));
        QVERIFY(v.grab().isNull() == false);
        QVERIFY(v.m_calloutPainter->placed().empty());
        selection.select(named(m, "aten::conv2d"));
        v.showAll();
        const QImage picture = v.grab().toImage();
        QStringList texts;
        std::vector<QRectF> boxes;
        for (const CalloutPainter::Placed &c : v.m_calloutPainter->placed()) {
            texts << c.text;
            const QRectF slice = *v.sliceRect(c.slice);
            QVERIFY2(c.box.left() <= std::max(slice.left() + 2, TimelineView::kLabelWidth + 5.0)
                    && c.box.right() >= slice.left(),
                qPrintable(c.text));
            QVERIFY(c.box.left() >= TimelineView::kLabelWidth && c.box.right() <= v.width() - 18);
            QVERIFY(c.box.top() >= TimelineView::kRulerHeight && c.box.bottom() <= v.height());
            for (const QRectF &other : boxes)
                QVERIFY2(!other.intersects(c.box), qPrintable(c.text));
            boxes.push_back(c.box);
            // The text is drawn: dark pixels on the chip's light ground.
            int dark = 0;
            const QRect inner = c.box.toRect().adjusted(3, 3, -3, -3);
            for (int y = inner.top(); y <= inner.bottom(); ++y)
                for (int x = inner.left(); x <= inner.right(); ++x)
                    dark += qGray(picture.pixel(x, y)) < 150;
            QVERIFY2(dark > 20, qPrintable(c.text));
        }
        QCOMPARE(texts,
            QStringList({QStringLiteral("aten::conv2d · 10.00 µs"),
                QStringLiteral("ConvolutionBackward0 · 498.0 µs"),
                QStringLiteral("k_fwd · 20.00 µs"), QStringLiteral("k_bwd · 100.0 µs")}));
        selection.select(kNoSlice);
        v.grab();
        QVERIFY(v.m_calloutPainter->placed().empty());
    }

    void selectionLinksAreComputedOncePerSelection()
    {
        const TraceModel &m = *m_trace->model;
        SelectionLinks links(m, *m_trace->graph);
        const SliceId conv = named(m, "aten::conv2d");
        links.update(conv);
        links.update(conv);
        QCOMPARE(links.computations(), size_t(1));
        QCOMPARE(links.counterparts().size(), size_t(1));
        QCOMPARE(m.slices.lane[links.counterparts()[0]],
            m.slices.lane[named(m, "ConvolutionBackward0")]);
        // Launch → kernel for both sides, then the pair arrow.
        QCOMPARE(links.arrows().size(), size_t(3));
        QCOMPARE(links.arrows().back().from, conv);
        links.update(kNoSlice);
        QVERIFY(links.arrows().empty());
        QCOMPARE(links.computations(), size_t(2));
    }

    // An op with more launches than read as arrows: one bundled arrow per GPU stream, to the
    // stream's first event, never a solid mass.
    void manyLaunchesAreBundledPerStream()
    {
        // ProfilerStep#1 > aten::mul with 60 launches; kernel i on stream 7 (even i) or 8 (odd),
        // in order, so stream 7 has 30 starting with k0 and stream 8 has 30 starting with k1.
        std::string e = completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 1000)
            + completeEvent("cpu_op", "aten::mul", 1, 0, 900);
        for (int i = 0; i < 60; ++i) {
            std::string corr = R"("correlation":)", kernel = "k";
            corr += std::to_string(i + 1);
            kernel += std::to_string(i); // appended: GCC 12 warns wrongly on "k" + string
            e += completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 1 + 10 * i, 2, corr);
            e += completeEvent("kernel", kernel, i % 2 ? 8 : 7, 1000 + 5 * i, 2, corr);
        }
        e.pop_back();
        const auto trace = test::link(test::traceWith(e));
        QVERIFY(trace);
        const TraceModel &m = *trace->model;
        SelectionLinks links(m, *trace->graph);
        for (const char *selected : {"ProfilerStep#1", "aten::mul"}) {
            links.update(named(m, selected));
            QCOMPARE(links.arrows().size(), size_t(2));
            std::set<std::string> firsts;
            for (const SelectionLinks::Arrow &a : links.arrows()) {
                QCOMPARE(a.from, named(m, selected));
                QCOMPARE(a.count, size_t(30));
                firsts.emplace(m.sliceName(a.to));
            }
            QCOMPARE(firsts, (std::set<std::string> {"k0", "k1"}));
        }
        // One callout per stream names its kernels and their summed time (30 × 2 µs).
        std::set<QString> callouts;
        for (const SelectionLinks::Callout &c : links.callouts())
            callouts.insert(c.text);
        QCOMPARE(callouts,
            (std::set<QString> {QStringLiteral("aten::mul · 900.0 µs"),
                QStringLiteral("30 kernels: k0, k2, … · 60.00 µs"),
                QStringLiteral("30 kernels: k1, k3, … · 60.00 µs")}));
    }

    // Issue #32: a kernel replayed from a CUDA graph is selected with its replay: arrows from the
    // cudaGraphLaunch to each of its three kernels (the selected one's on top, thicker); a
    // kernel of its own launch keeps its one arrow.
    void graphReplayKernelShowsItsReplay()
    {
        using test::completeEvent;
        std::string e
            = completeEvent("cuda_runtime", "cudaGraphLaunch", 1, 0, 5, "\"correlation\":1")
            + completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 10, 5, "\"correlation\":2");
        for (int node = 1; node <= 3; ++node) {
            std::string name = "g", args = R"("correlation":1,"graph id":4,"graph node id":)";
            name += std::to_string(node); // appended: GCC 12 warns wrongly on "g" + string
            args += std::to_string(node);
            e += completeEvent("kernel", name, 7, 20 + 10 * node, 5, args);
        }
        e += completeEvent("kernel", "single", 7, 80, 5, "\"correlation\":2");
        e.pop_back();
        const auto trace = test::link(test::traceWith(e));
        QVERIFY(trace);
        const TraceModel &m = *trace->model;
        SelectionLinks links(m, *trace->graph);
        links.update(named(m, "g2"));
        QStringList arrows;
        for (const SelectionLinks::Arrow &a : links.arrows())
            arrows << QStringLiteral("%1>%2 %3")
                          .arg(toQString(m.sliceName(a.from)), toQString(m.sliceName(a.to)))
                          .arg(a.width);
        QCOMPARE(arrows,
            QStringList({QStringLiteral("cudaGraphLaunch>g1 1"),
                QStringLiteral("cudaGraphLaunch>g2 1"), QStringLiteral("cudaGraphLaunch>g3 1"),
                QStringLiteral("cudaGraphLaunch>g2 1.6")}));
        links.update(named(m, "single"));
        QCOMPARE(links.arrows().size(), size_t(1));
    }

    /*
     * Issue #32 2(d): with graph replays compacted, streams 30 and 31 (nothing but graph 1's
     * kernels) give way to one lane "graph 1" of two rows (a and b overlap); stream 7, with
     * other work, stays. Each kernel is drawn, hit and selected on its row of that lane.
     */
    void graphReplaysCompactIntoOneLane()
    {
        std::string e;
        e += completeEvent("kernel", "a", 30, 10, 40, R"("stream":30,"graph id":1)");
        e += completeEvent("kernel", "b", 31, 20, 40, R"("stream":31,"graph id":1)");
        e += completeEvent("kernel", "n", 7, 10, 40, R"("stream":7)");
        e.pop_back();
        // completeEvent() puts tid 7 on pid 0 and the rest on pid 1: move the graph there too.
        for (size_t at = e.find("\"pid\":1"); at != std::string::npos; at = e.find("\"pid\":1"))
            e[at + 6] = '0';
        const auto trace = test::link(test::traceWith(e));
        QVERIFY(trace);
        const TraceModel &m = *trace->model;
        const TimelineIndex index(m, *trace->graph);
        TrackLayout layout(m, index, trace->curves());
        auto labels = [&] {
            QStringList l;
            for (const TrackLayout::Track &t : layout.tracks())
                l << t.label
                        + (t.detail.isEmpty() ? QString()
                                              : QStringLiteral(" (") + t.detail + QLatin1Char(')'));
            return l;
        };
        QCOMPARE(labels(),
            QStringList({QStringLiteral("GPU 0"), QStringLiteral("GPU 0 · stream 7"),
                QStringLiteral("GPU 0 · stream 30"), QStringLiteral("GPU 0 · stream 31")}));
        layout.setGraphsCompacted(true);
        QCOMPARE(labels(),
            QStringList({QStringLiteral("GPU 0"), QStringLiteral("GPU 0 · stream 7"),
                QStringLiteral("GPU 0 · graph 1 (2 streams)")}));
        const int graphTrack = 2;
        QCOMPARE(layout.rows(graphTrack).size(), size_t(2));
        QCOMPARE(layout.trackOf(named(m, "b")), graphTrack);
        QCOMPARE(layout.rowOf(named(m, "b"))->y, layout.rows(graphTrack)[1].y);
        layout.toggle(graphTrack); // a graph's lane does not fold
        QCOMPARE(layout.rows(graphTrack).size(), size_t(2));

        SelectionController selection(trace);
        TimelineView v(&selection);
        v.setGraphsCompacted(true);
        showOffscreen(v, QSize(1000, 300));
        const QImage picture = v.grab().toImage();
        for (const char *name : {"a", "b"}) {
            const std::optional<QPoint> p = v.slicePoint(named(m, name));
            QVERIFY2(p, name);
            QCOMPARE(v.sliceAt(*p), named(m, name));
            // Drawn there: the kernel's colour, not the empty lane's background.
            QVERIFY2(picture.pixel(*p) != picture.pixel(QPoint(v.width() - 2, p->y())), name);
        }
        QVERIFY(v.slicePoint(named(m, "a"))->y() < v.slicePoint(named(m, "b"))->y());
        QTest::mouseClick(&v, Qt::LeftButton, {}, *v.slicePoint(named(m, "b")));
        QCOMPARE(selection.current(), named(m, "b"));
    }

    // Hover, tooltips, selection, find, highlight, arrows and collapsing repaint from the cache;
    // only a new range scans again.
    void viewRepaintsWithoutRescanning()
    {
        const TraceModel &m = *m_trace->model;
        SelectionController selection(m_trace);
        TimelineView v(&selection);
        v.resize(1200, 500);
        v.grab();
        const size_t scans = v.m_geometry->scans();
        QVERIFY(scans > 0);
        const SliceId step = named(m, "ProfilerStep#1");
        const QPoint inStep(TimelineView::kLabelWidth + 300, v.slicePoint(step)->y());
        sendMouse(&v, QEvent::MouseMove, inStep, Qt::NoButton);
        QHelpEvent help(QEvent::ToolTip, inStep, v.mapToGlobal(inStep));
        QApplication::sendEvent(&v, &help);
        v.grab();
        QCOMPARE(v.m_geometry->scans(), scans);
        selection.select(step); // visible and wide: revealing it keeps the range
        v.grab();
        v.grab();
        QCOMPARE(v.m_links->computations(), size_t(1));
        v.setShowAllArrows(true);
        v.setFindPattern(QStringLiteral("add"));
        v.setHighlight({named(m, "aten::late")});
        v.grab();
        const LaneId main = m.slices.lane[step];
        v.setLaneCollapsed(main, true);
        v.grab();
        v.setLaneCollapsed(main, false);
        v.grab();
        QCOMPARE(v.m_geometry->scans(), scans);
        QCOMPARE(v.m_links->computations(), size_t(1));
        QTest::keyClick(&v, Qt::Key_W);
        v.grab();
        QVERIFY(v.m_geometry->scans() > scans);
    }

    // The cache is never stale: after zooms, pans and collapses, the picture is what a fresh
    // view at the same range draws.
    void cachedPictureMatchesAFreshView()
    {
        const TraceModel &m = *m_trace->model;
        SelectionController selection(m_trace);
        TimelineView v(&selection);
        v.resize(1000, 400);
        v.grab();
        const LaneId main = m.slices.lane[named(m, "aten::conv2d")];
        v.setLaneCollapsed(main, true);
        v.grab();
        v.setRange(2'000'000, 3'000'000);
        v.grab();
        v.setLaneCollapsed(main, false);
        QTest::keyClick(&v, Qt::Key_W);
        QTest::keyClick(&v, Qt::Key_D);
        const QImage cached = v.grab().toImage();

        TimelineView fresh(&selection);
        fresh.resize(1000, 400);
        fresh.setRange(v.rangeStart(), v.rangeSpan());
        QCOMPARE(fresh.rangeStart(), v.rangeStart());
        QVERIFY(cached == fresh.grab().toImage());
    }
};

QTEST_MAIN(TestTimeline)
#include "tst_timeline.moc"
