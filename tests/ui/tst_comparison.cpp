// SPDX-License-Identifier: MIT
// The comparison's two timelines share one axis relative to the compared step (issue #20, bug 7):
// they open on the same step-relative range at one scale, and zooming, panning, dragging and
// framing either one moves the other, without the two feeding each other.
#include "compare/comparisonview.h"
#include "export/difftable.h"
#include "session/comparedtraces.h"
#include "table/tablemodel.h"
#include "testutil.h"
#include "timeline/timelineview.h"

#include <QApplication>
#include <QMouseEvent>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ks;

namespace {

//! ProfilerStep#\a number of \a m, or the first one (lowest number) when \a number is negative,
//! found from the slices: [start, end) in ns from the trace's start.
std::pair<double, double> stepOf(const TraceModel &m, int64_t number = -1)
{
    int64_t best = std::numeric_limits<int64_t>::max();
    std::pair<double, double> range {0, 0};
    for (SliceId s = 0; s < m.slices.size(); ++s) {
        const std::string_view name = m.sliceName(s);
        if (!name.starts_with("ProfilerStep#"))
            continue;
        const int64_t n = std::stoll(std::string(name.substr(13)));
        if (number >= 0 ? n == number : n < best) {
            best = n;
            range = {double(m.slices.start[s] - m.minTime), double(m.slices.end(s) - m.minTime)};
        }
    }
    return range;
}

void wheel(QWidget *w, QPoint pos, int dy, Qt::KeyboardModifiers modifiers)
{
    QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, dy), Qt::NoButton, modifiers,
        Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}

void mouse(QWidget *w, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons)
{
    const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
    QMouseEvent e(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}

} // namespace

class TestComparison : public QObject {
    Q_OBJECT
    std::shared_ptr<ComparedTraces> m_compared;
    std::unique_ptr<ComparisonView> m_view;
    double m_anchor[2] = {0, 0}; // the first step's start on each side, ns from the trace start
    double m_stepLength[2] = {0, 0};

    TimelineView *timeline(int side) const
    {
        return side ? m_view->candidateTimeline() : m_view->baseTimeline();
    }
    double relativeStart(int side) const { return timeline(side)->rangeStart() - m_anchor[side]; }
    //! The time one pixel of the tracks stands for.
    double pixel(int side) const
    {
        const int tracks = timeline(side)->width() - TimelineView::kLabelWidth
            - timeline(side)->findChild<QScrollBar *>()->sizeHint().width();
        return timeline(side)->rangeSpan() / std::max(1, tracks);
    }
    //! Both timelines show the same step-relative range, within a pixel's worth of time.
    void verifyAligned() const
    {
        QVERIFY2(std::fabs(timeline(0)->rangeSpan() - timeline(1)->rangeSpan()) < pixel(0),
            qPrintable(QStringLiteral("spans %1 vs %2 ns")
                           .arg(timeline(0)->rangeSpan())
                           .arg(timeline(1)->rangeSpan())));
        QVERIFY2(std::fabs(relativeStart(0) - relativeStart(1)) < pixel(0),
            qPrintable(QStringLiteral("step-relative starts %1 vs %2 ns")
                           .arg(relativeStart(0))
                           .arg(relativeStart(1))));
    }

private slots:
    void initTestCase()
    {
        // Two runs of different length and jitter: their traces and steps differ in time.
        const QString a = test::tempDir() + QStringLiteral("/two-steps.json");
        const QString b = test::tempDir() + QStringLiteral("/three-steps.json");
        QCOMPARE(
            test::run(test::gentracePath(), {QStringLiteral("--steps"), QStringLiteral("2"), a})
                .exitCode,
            0);
        QCOMPARE(test::run(test::gentracePath(),
                     {QStringLiteral("--steps"), QStringLiteral("3"), QStringLiteral("--seed"),
                         QStringLiteral("7"), b})
                     .exitCode,
            0);
        auto base = openTrace(a.toStdString()).trace;
        auto candidate = openTrace(b.toStdString()).trace;
        QVERIFY(base && candidate);
        std::string error;
        m_compared = ComparedTraces::make(base, candidate, {}, error);
        QVERIFY2(m_compared, error.c_str());
        for (int side = 0; side < 2; ++side) {
            const auto [from, to] = stepOf(*(side ? candidate : base)->model);
            QVERIFY(to > from);
            m_anchor[side] = from;
            m_stepLength[side] = to - from;
        }
        // Whole traces of different lengths: shown whole, their scales would differ.
        QVERIFY(base->model->maxTime - base->model->minTime
            != candidate->model->maxTime - candidate->model->minTime);

        m_view = std::make_unique<ComparisonView>(m_compared, DiffOptions {}, nullptr);
        m_view->resize(1600, 1000);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        QCOMPARE(timeline(0)->width(), timeline(1)->width());
    }

    void cleanupTestCase() { m_view.reset(); }

    //! At open: the first step of each, with the same margins, at one scale.
    void opensOnTheSameStepRange()
    {
        verifyAligned();
        const double span = 1.1 * std::max(m_stepLength[0], m_stepLength[1]);
        QVERIFY2(std::fabs(timeline(0)->rangeSpan() - span) < pixel(0),
            qPrintable(QString::number(timeline(0)->rangeSpan())));
        QVERIFY(std::fabs(relativeStart(0) + span / 1.1 * 0.05) < pixel(0));
    }

    //! A wheel zoom, pans, a drag, framing and the API: the other follows, each view once.
    void zoomAndPanMoveBoth()
    {
        QSignalSpy changed0(timeline(0), &TimelineView::rangeChanged);
        QSignalSpy changed1(timeline(1), &TimelineView::rangeChanged);
        auto verifyOnce = [&](const char *what) {
            QVERIFY2(changed0.count() == 1 && changed1.count() == 1,
                qPrintable(QStringLiteral("%1: %2 and %3 range changes")
                               .arg(QLatin1String(what))
                               .arg(changed0.count())
                               .arg(changed1.count())));
            changed0.clear();
            changed1.clear();
        };
        const QPoint middle(TimelineView::kLabelWidth + 600, 100);

        // Ctrl+wheel zooms the base in around the cursor: the candidate zooms with it.
        const double before = timeline(0)->rangeSpan();
        wheel(timeline(0), middle, 240, Qt::ControlModifier);
        QVERIFY(timeline(0)->rangeSpan() < before * 0.7);
        verifyAligned();
        verifyOnce("zoom");

        // Shift+wheel pans the candidate, then a key pans the base.
        const double start = relativeStart(0);
        wheel(timeline(1), middle, -120, Qt::ShiftModifier);
        QVERIFY(relativeStart(1) > start);
        verifyAligned();
        verifyOnce("wheel pan");
        QTest::keyClick(timeline(0), Qt::Key_D);
        verifyAligned();
        verifyOnce("key pan");
        QTest::keyClick(timeline(1), Qt::Key_W);
        verifyAligned();
        verifyOnce("key zoom");

        // Dragging the candidate 100 px to the right shows earlier times on both.
        const double dragged = relativeStart(1) - 100 * pixel(1);
        mouse(timeline(1), QEvent::MouseButtonPress, middle, Qt::LeftButton);
        mouse(timeline(1), QEvent::MouseMove, middle + QPoint(50, 0), Qt::LeftButton);
        mouse(timeline(1), QEvent::MouseMove, middle + QPoint(100, 0), Qt::LeftButton);
        mouse(timeline(1), QEvent::MouseButtonRelease, middle + QPoint(100, 0), Qt::NoButton);
        QVERIFY(std::fabs(relativeStart(1) - dragged) < pixel(1));
        verifyAligned();
        changed0.clear();
        changed1.clear();

        // The API: the candidate shows 2 ms from 1 ms into its step.
        timeline(1)->setRange(m_anchor[1] + 1e6, 2e6);
        verifyAligned();
        QVERIFY(std::fabs(relativeStart(0) - 1e6) < pixel(0));
        verifyOnce("setRange");

        // F frames the selection of the base; the candidate frames the same step-relative span.
        const SliceId s = m_view->diff().base().rows()[3].forward;
        QVERIFY(s != kNoSlice);
        m_view->baseSelection()->select(s);
        QTest::keyClick(timeline(0), Qt::Key_F);
        verifyAligned();
        QVERIFY(timeline(0)->slicePoint(s));
        changed0.clear();
        changed1.clear();

        // Zoomed out as far as the base goes (0): the candidate follows as far as it can.
        QTest::keyClick(timeline(0), Qt::Key_0);
        QVERIFY(changed0.count() == 1 && changed1.count() <= 1);
    }

    /*!
     * Issue #31: whichever row is selected — a pair only one side has included, whose step the
     * other side never reached — both timelines stay on the shared axis (the side without the
     * step measures from its trace's start).
     */
    void everyRowKeepsTheAxis()
    {
        const auto &table = static_cast<const DiffTable &>(m_view->model()->table());
        const TraceDiff &diff = m_view->diff();
        for (int row = 0; row < m_view->model()->rowCount(); ++row) {
            const DiffEntry &e = table.entry(m_view->model()->sourceRow(row));
            m_view->selectRow(row);
            m_anchor[0] = double(diff.stepRange(false, e.slot).first - diff.base().model().minTime);
            m_anchor[1]
                = double(diff.stepRange(true, e.slot).first - diff.candidate().model().minTime);
            verifyAligned();
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("row %1").arg(row)));
        }
    }

    //! A table row frames both pairs on the shared axis, relative to the steps of its slot.
    void selectingARowKeepsTheAxis()
    {
        // The largest change that both sides have (the candidate's third step is its own).
        const auto &table = static_cast<const DiffTable &>(m_view->model()->table());
        int row = 0;
        while (row < m_view->model()->rowCount()
            && table.entry(m_view->model()->sourceRow(row)).status != DiffStatus::Matched)
            ++row;
        QVERIFY(row < m_view->model()->rowCount());
        m_view->selectRow(row);
        const SliceId b = m_view->baseSelection()->current();
        const SliceId c = m_view->candidateSelection()->current();
        QVERIFY(b != kNoSlice && c != kNoSlice);
        QVERIFY(timeline(0)->slicePoint(b));
        QVERIFY(timeline(1)->slicePoint(c));
        // The row's own steps line up now (the largest change need not be in the first step).
        const DiffEntry &e = table.entry(m_view->model()->sourceRow(row));
        QVERIFY(e.base.present() && e.candidate.present());
        m_anchor[0] = stepOf(m_view->diff().base().model(), e.base.step).first;
        m_anchor[1] = stepOf(m_view->diff().candidate().model(), e.candidate.step).first;
        verifyAligned();
        // Both pairs lie in that range, measured from their steps.
        const SliceTable &tb = m_view->diff().base().model().slices;
        const double at = double(tb.start[b] - m_view->diff().base().model().minTime) - m_anchor[0];
        QVERIFY(at >= relativeStart(0) && at <= relativeStart(0) + timeline(0)->rangeSpan());
        // Zooming keeps them aligned on those steps.
        wheel(timeline(1), QPoint(TimelineView::kLabelWidth + 300, 100), -120, Qt::ControlModifier);
        verifyAligned();
    }
};

QTEST_MAIN(TestComparison)
#include "tst_comparison.moc"
