// SPDX-License-Identifier: MIT
// The timeline's pure coordinate maths (ui/timeline/timelinecoordinates.h): time ↔ pixel, the
// time axis of a frame, and the row at a y, with the edge cases the header documents.
#include "timeline/timelinecoordinates.h"

#include <QTest>

#include <cmath>

using namespace ks::timeline;

class TestTimelineCoordinates : public QObject {
    Q_OBJECT

private slots:
    void nsPerPixelNeverDividesByZero()
    {
        QCOMPARE(nsPerPixel(1000, 100), 10.0);
        QCOMPARE(nsPerPixel(1000, 0), 1000.0); // no width counts as one pixel
        QCOMPARE(nsPerPixel(1000, -5), 1000.0);
        QVERIFY(std::isfinite(nsPerPixel(1e18, 1)));
    }

    void timeAndPixelAreInverse_data()
    {
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("npp");
        QTest::addColumn<double>("t");
        QTest::addColumn<double>("x");
        QTest::addRow("origin") << 0.0 << 1.0 << 0.0 << 0.0;
        QTest::addRow("inside") << 1000.0 << 10.0 << 1500.0 << 50.0;
        QTest::addRow("before the range") << 1000.0 << 10.0 << 500.0 << -50.0;
        QTest::addRow("past the range") << 0.0 << 2.0 << 1e6 << 5e5;
        QTest::addRow("negative start") << -200.0 << 4.0 << 0.0 << 50.0;
        QTest::addRow("sub-ns pixels") << 1e9 << 0.01 << 1e9 + 1.5 << 150.0;
    }
    void timeAndPixelAreInverse()
    {
        QFETCH(double, start);
        QFETCH(double, npp);
        QFETCH(double, t);
        QFETCH(double, x);
        QCOMPARE(timeToPixel(t, start, npp), x);
        QCOMPARE(pixelToTime(x, start, npp), t);
    }

    void axisAddsTheTracksOffset()
    {
        const TimeAxis axis(1000, 2000, 240, 200);
        QCOMPARE(axis.nsPerPixel, 10.0);
        QCOMPARE(axis.x(1000), 240.0);
        QCOMPARE(axis.x(3000), 440.0);
        QCOMPARE(axis.time(240), 1000.0);
        QCOMPARE(axis.time(0), 1000.0 - 2400.0); // left of the tracks extrapolates
        QCOMPARE(axis.x(axis.time(333)), 333.0);
        // A zero-width frame still has a usable axis.
        const TimeAxis empty(0, 500, 240, 0);
        QCOMPARE(empty.width, 1);
        QCOMPARE(empty.nsPerPixel, 500.0);
    }

    void rowAtFloorsAndRejectsOutside_data()
    {
        QTest::addColumn<int>("y");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("row");
        QTest::addRow("top of the first row") << 0 << 3 << 0;
        QTest::addRow("inside the first row") << 17 << 3 << 0;
        QTest::addRow("boundary goes to the lower row") << 18 << 3 << 1;
        QTest::addRow("last pixel of the last row") << 53 << 3 << 2;
        QTest::addRow("just past the last row") << 54 << 3 << -1;
        QTest::addRow("above the first row (padding)") << -1 << 3 << -1;
        QTest::addRow("far above") << -100 << 3 << -1;
        QTest::addRow("a lane with no rows") << 0 << 0 << -1;
        QTest::addRow("collapsed lane: only row 0") << 20 << 1 << -1;
    }
    void rowAtFloorsAndRejectsOutside()
    {
        QFETCH(int, y);
        QFETCH(int, rows);
        QFETCH(int, row);
        QCOMPARE(rowAt(y, 18, rows), row);
    }
};

QTEST_GUILESS_MAIN(TestTimelineCoordinates)
#include "tst_timelinecoordinates.moc"
