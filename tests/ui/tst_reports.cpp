// SPDX-License-Identifier: MIT
// Reports: headless screenshots of every view, image and table exports, the charts.
#include "analysis/time/gputime.h"
#include "analysis/time/stepbreakdown.h"
#include "common/palette.h"
#include "common/slicecolors.h"
#include "export/pairgroups.h"
#include "export/pairtable.h"
#include "output/exporter.h"
#include "table/tablemodel.h"
#include "testutil.h"
#include "timeline/timelineview.h"
#include "trace/chartsview.h"
#include "trace/kerneltablepage.h"
#include "trace/pairtablepage.h"
#include "trace/tracetab.h"
#include "window/mainwindow.h"

#include <QAbstractBarSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QSet>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTableView>
#include <QTest>

#include <cstring>
#include <numeric>

using namespace ks;

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int distinctColours(const QImage &image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

int pixelsNear(const QImage &image, QRect area, QColor colour, int tolerance = 30)
{
    int n = 0;
    area = area.intersected(image.rect());
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green())
                    + std::abs(c.blue() - colour.blue())
                <= tolerance;
        }
    }
    return n;
}

QStringList args(std::initializer_list<QString> items)
{
    return QStringList(items);
}

} // namespace

class TestReports : public QObject {
    Q_OBJECT
    QString m_demo;

    test::ProcessResult shoot(const QString &out, const QStringList &extra)
    {
        return test::run(test::appPath(),
            QStringList {QStringLiteral("--screenshot"), out} + extra + QStringList {m_demo});
    }

private slots:
    void initTestCase()
    {
        m_demo = test::tempDir() + QStringLiteral("/demo.pt.trace.json.gz");
        QCOMPARE(test::run(test::gentracePath(), {m_demo}).exitCode, 0);
    }

    void everyViewAsPngOfTheRequestedSize_data()
    {
        QTest::addColumn<QString>("view");
        QTest::addColumn<QSize>("size");
        QTest::newRow("window") << QStringLiteral("window") << QSize(1600, 900);
        QTest::newRow("timeline") << QStringLiteral("timeline") << QSize(1280, 720);
        QTest::newRow("table") << QStringLiteral("table") << QSize(1000, 600);
        QTest::newRow("chart") << QStringLiteral("chart") << QSize(900, 700);
    }
    void everyViewAsPngOfTheRequestedSize()
    {
        QFETCH(QString, view);
        QFETCH(QSize, size);
        const QString out = test::tempDir() + QStringLiteral("/%1.png").arg(view);
        const auto r = shoot(out,
            {QStringLiteral("--view"), view, QStringLiteral("--size"),
                QStringLiteral("%1x%2").arg(size.width()).arg(size.height())});
        QCOMPARE(r.exitCode, 0);
        QImage image;
        QVERIFY(image.load(out));
        QCOMPARE(image.size(), size);
        QVERIFY2(distinctColours(image) > 30, qPrintable(QString::number(distinctColours(image))));
    }

    void svgParsesWithTheRequestedSize_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("label"); // a label the SVG keeps as text
        QTest::newRow("timeline") << args({QStringLiteral("--view"), QStringLiteral("timeline")})
                                  << QString();
        QTest::newRow("window") << args({QStringLiteral("--view"), QStringLiteral("window")})
                                << QString();
        // Every chart renders headless, its labels as text.
        for (const char *chart : {"top-pairs", "top-groups", "steps", "scatter"})
            QTest::newRow(chart) << args({QStringLiteral("--view"), QStringLiteral("chart"),
                QStringLiteral("--chart"), QString::fromLatin1(chart)})
                                 << QString::fromLatin1(std::strcmp(chart, "steps") == 0 ? "step 10"
                                            : std::strcmp(chart, "scatter") == 0
                                            ? "backward = forward"
                                            : "conv2d");
    }
    void svgParsesWithTheRequestedSize()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, label);
        const QString out = test::tempDir()
            + QStringLiteral("/%1.svg").arg(QString::fromLatin1(QTest::currentDataTag()));
        QCOMPARE(shoot(out, options + args({QStringLiteral("--size"), QStringLiteral("1200x800")}))
                     .exitCode,
            0);
        QSvgRenderer svg(out);
        QVERIFY(svg.isValid());
        QCOMPARE(svg.defaultSize(), QSize(1200, 800));
        // Rendered back, it is a picture, not an empty page.
        QImage image(1200, 800, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        svg.render(&p);
        p.end();
        QVERIFY(distinctColours(image) > 10);
        if (!label.isEmpty())
            QVERIFY2(readFile(out).contains(label.toUtf8()), qPrintable(label));
    }

    // One palette: the timeline draws each kind of work in a family around the hue every chart
    // and the report give it (forward blue, backward orange, recompute purple, ...).
    void timelineAndChartsShareThePalette()
    {
        const std::pair<SliceStyle, WorkPart> kinds[]
            = {{SliceStyle::Forward, WorkPart::Forward}, {SliceStyle::Backward, WorkPart::Backward},
                {SliceStyle::Recompute, WorkPart::Recompute},
                {SliceStyle::Communication, WorkPart::Communication},
                {SliceStyle::Memcpy, WorkPart::Memcpy}};
        for (const auto &[style, part] : kinds) {
            const int want = workColor(part).hslHue();
            for (const char *name : {"aten::conv2d", "ncclKernel_AllReduce", "Memcpy HtoD", "x"}) {
                const int hue = SliceColors::forStyle(style, name).hslHue();
                const int apart = std::min(std::abs(hue - want), 360 - std::abs(hue - want));
                QVERIFY2(apart <= 25,
                    qPrintable(QStringLiteral("%1: hue %2, the charts' %3")
                                   .arg(QString::fromUtf8(workPartName(part)))
                                   .arg(hue)
                                   .arg(want)));
            }
        }
    }

    // On a checkpointed trace, the top pairs rank by forward + backward + own re-run, by the
    // export's own numbers (the re-run a backward node triggers is not its pair's cost); groups
    // get one bar each, labelled apart, and a click selects that group.
    void topPairsOfACheckpointedTrace()
    {
        const QString path = test::tempDir() + QStringLiteral("/checkpoint.json");
        QCOMPARE(
            test::run(test::gentracePath(), {QStringLiteral("--checkpoint"), path}).exitCode, 0);
        OpenResult opened = openTrace(path.toStdString());
        QVERIFY(opened.trace);
        MainWindow window;
        TraceTab *tab = window.addTrace(opened.trace, QStringLiteral("checkpoint"));
        ChartsView *charts = tab->charts();
        const PairTable pairs(*opened.trace->graph);
        const auto cell = [&](size_t r, size_t c) {
            return std::max(0.0, std::isnan(pairs.number(r, c)) ? 0.0 : pairs.number(r, c));
        };
        const auto cost = [&](size_t r) {
            return cell(r, PairTable::FwdGpuUs) + cell(r, PairTable::BwdGpuUs)
                + cell(r, PairTable::RecomputedGpuUs);
        };
        std::vector<size_t> order(pairs.rowCount());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(
            order.begin(), order.end(), [&](size_t a, size_t b) { return cost(a) > cost(b); });
        const std::vector<uint32_t> &bars = charts->rows(); // bottom to top
        QCOMPARE(bars.size(), size_t(15));
        for (size_t i = 0; i < 15; ++i) {
            QCOMPARE(size_t(bars[14 - i]), order[i]);
        }
        QVERIFY(opened.trace->graph->stats().recomputeGpuTime > 0); // a checkpointed trace

        charts->setGroupMode(true);
        const PairGroupTable &groups = *opened.trace->pairGroups();
        const auto groupCost = [&](size_t g) {
            return groups.number(g, PairGroupTable::FwdGpuUsTotal)
                + groups.number(g, PairGroupTable::BwdGpuUsTotal)
                + groups.number(g, PairGroupTable::RecomputedGpuUsTotal);
        };
        std::vector<size_t> groupOrder(groups.rowCount());
        std::iota(groupOrder.begin(), groupOrder.end(), 0);
        std::stable_sort(groupOrder.begin(), groupOrder.end(),
            [&](size_t a, size_t b) { return groupCost(a) > groupCost(b); });
        QCOMPARE(charts->rows().size(), size_t(15));
        auto *series
            = qobject_cast<QAbstractBarSeries *>(charts->chartView()->chart()->series().first());
        auto *axis = qobject_cast<QBarCategoryAxis *>(
            charts->chartView()->chart()->axes(Qt::Vertical).first());
        QVERIFY(series && axis);
        QCOMPARE(axis->count(), 15); // one label per bar: none collapsed
        for (int i = 0; i < 15; ++i) {
            QCOMPARE(size_t(groups.groupOf(charts->rows()[size_t(14 - i)])), groupOrder[size_t(i)]);
            emit series->clicked(14 - i, series->barSets().first());
            const int row = opened.trace->graph->rowOf(tab->selection()->current());
            QCOMPARE(size_t(groups.groupOf(uint32_t(row))), groupOrder[size_t(i)]);
        }
    }

    // With --select, the arrow colour lies between the forward op and its backward node, and the
    // range frames both.
    void selectDrawsThePairArrow()
    {
        const QString out = test::tempDir() + QStringLiteral("/select.png");
        QCOMPARE(shoot(out,
                     {QStringLiteral("--view"), QStringLiteral("timeline"),
                         QStringLiteral("--select"), QStringLiteral("aten::linear#1")})
                     .exitCode,
            0);
        QImage image;
        QVERIFY(image.load(out));
        QCOMPARE(image.size(), QSize(1600, 900));

        // The same view built here gives the two ops' positions.
        OpenResult opened = openTrace(m_demo.toStdString());
        QVERIFY(opened.trace);
        MainWindow window;
        TraceTab *tab = window.addTrace(opened.trace, QStringLiteral("demo"));
        TimelineView *t = tab->timeline();
        t->setParent(nullptr);
        t->resize(1600, 900);
        t->setAttribute(Qt::WA_DontShowOnScreen);
        t->show();
        const OpGraph &g = *opened.trace->graph;
        std::vector<SliceId> linears;
        for (const PairRow &row : g.rows())
            if (row.forward != kNoSlice
                && opened.trace->model->sliceName(row.forward) == "aten::linear")
                linears.push_back(row.forward);
        QVERIFY(linears.size() > 1);
        const SliceId fwd = linears[1];
        tab->selection()->select(fwd);
        t->fitSelection();
        const auto a = t->slicePoint(fwd);
        const SliceId node = g.counterparts(fwd).front();
        const auto b = t->slicePoint(node);
        QVERIFY(a && b);
        const QRect between = QRect(*a, *b).normalized();
        QVERIFY2(
            pixelsNear(image, between, SliceColors::pairArrow()) > 20, "no arrow between the pair");
        // Both ends are in the picture: the range frames the pair.
        QVERIFY(image.rect().contains(*a) && image.rect().contains(*b));
        delete t;

        // Without --select there is no arrow.
        const QString plain = test::tempDir() + QStringLiteral("/plain.png");
        QCOMPARE(shoot(plain, {QStringLiteral("--view"), QStringLiteral("timeline")}).exitCode, 0);
        QImage plainImage;
        QVERIFY(plainImage.load(plain));
        const QRect tracks = plainImage.rect().adjusted(
            TimelineView::kLabelWidth, TimelineView::kRulerHeight, 0, 0);
        QCOMPARE(pixelsNear(plainImage, tracks, SliceColors::pairArrow(), 6), 0);
    }

    void rangeSetsTheVisibleSpan()
    {
        const QString out = test::tempDir() + QStringLiteral("/range.png");
        QCOMPARE(shoot(out,
                     {QStringLiteral("--view"), QStringLiteral("timeline"),
                         QStringLiteral("--range"), QStringLiteral("2000:2500")})
                     .exitCode,
            0);
        QImage image;
        QVERIFY(image.load(out));
        QVERIFY(distinctColours(image) > 20);
    }

    void unknownSelectIsAUsageErrorWithCloseMatches()
    {
        const auto r = shoot(test::tempDir() + QStringLiteral("/x.png"),
            {QStringLiteral("--select"), QStringLiteral("aten::conv")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no forward op named 'aten::conv'"), r.err.constData());
        QVERIFY(r.err.contains("aten::conv2d"));
        // Only forward ops are suggested: "conv" is in ConvolutionBackward0 (and its
        // evaluate_function wrapper) too, which --select would not accept.
        const auto lower = shoot(test::tempDir() + QStringLiteral("/x.png"),
            {QStringLiteral("--select"), QStringLiteral("conv")});
        QCOMPARE(lower.exitCode, 1);
        QVERIFY2(lower.err.contains("close matches: aten::conv2d"), lower.err.constData());
        QVERIFY2(!lower.err.contains("Backward"), lower.err.constData());
        const auto k = shoot(test::tempDir() + QStringLiteral("/x.png"),
            {QStringLiteral("--select"), QStringLiteral("aten::conv2d#99")});
        QCOMPARE(k.exitCode, 1);
        QVERIFY(k.err.contains("only 6 forward ops named 'aten::conv2d'")); // 2 per step × 3 steps
    }

    void unwritableOutputExitsThree()
    {
        const QString out = test::writeTemp(QStringLiteral("keep.png"), "earlier");
        const QString script
            = QStringLiteral("ulimit -f 8; trap '' XFSZ; exec \"$0\" --screenshot \"$1\" \"$2\"");
        const auto r = test::run(QStringLiteral("/bin/bash"),
            args({QStringLiteral("-c"), script, test::appPath(), out, m_demo}));
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(readFile(out), QByteArray("earlier"));
        const auto missing = shoot(test::tempDir() + QStringLiteral("/no/dir/x.png"), {});
        QCOMPARE(missing.exitCode, 3);
    }

    // The window's table exports equal --export-pairs (same columns, same rows when unfiltered),
    // and follow the view's filter and sort otherwise.
    void tableExportsRoundTrip()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        QVERIFY(opened.trace);
        MainWindow window;
        TraceTab *tab = window.addTrace(opened.trace, QStringLiteral("demo"));
        const QString guiCsv = test::tempDir() + QStringLiteral("/gui.csv");
        QString error;
        QVERIFY(Exporter::saveTable(
            tab->pairs()->model()->table(), tab->pairs()->model()->visibleRows(), guiCsv, error));
        const QString cliCsv = test::tempDir() + QStringLiteral("/cli.csv");
        QCOMPARE(
            test::run(test::appPath(), {QStringLiteral("--export-pairs"), cliCsv, m_demo}).exitCode,
            0);
        QCOMPARE(readFile(guiCsv), readFile(cliCsv));

        const QString guiJson = test::tempDir() + QStringLiteral("/gui.json");
        QVERIFY(Exporter::saveTable(
            tab->pairs()->model()->table(), tab->pairs()->model()->visibleRows(), guiJson, error));
        const QString cliJson = test::tempDir() + QStringLiteral("/cli.json");
        QCOMPARE(test::run(test::appPath(), {QStringLiteral("--export-pairs"), cliJson, m_demo})
                     .exitCode,
            0);
        QCOMPARE(
            QJsonDocument::fromJson(readFile(guiJson)), QJsonDocument::fromJson(readFile(cliJson)));

        // Round trip: the CSV's cells are the table's cells.
        const QList<QByteArray> lines = readFile(guiCsv).split('\n');
        const PairTable table(*opened.trace->graph);
        QCOMPARE(size_t(lines.size() - 2), table.rowCount()); // header + trailing newline
        QCOMPARE(lines[1], QByteArray::fromStdString(tableToCsv(table)).split('\n')[1]);

        // Filter + sort: the export follows the view.
        tab->pairs()->model()->setFilter(QStringLiteral("linear"), false);
        tab->pairs()->view()->sortByColumn(PairTable::FwdGpuUs, Qt::DescendingOrder);
        const QString filtered = test::tempDir() + QStringLiteral("/filtered.json");
        QVERIFY(Exporter::saveTable(
            tab->pairs()->model()->table(), tab->pairs()->model()->visibleRows(), filtered, error));
        const QJsonArray rows = QJsonDocument::fromJson(readFile(filtered)).array();
        QCOMPARE(rows.size(), tab->pairs()->model()->rowCount());
        double previous = 1e300;
        for (const QJsonValue &v : rows) {
            const QJsonObject o = v.toObject();
            QVERIFY(o[QStringLiteral("fwd_name")].toString().contains(QLatin1String("linear"))
                || o[QStringLiteral("bwd_names")].toArray().size() > 0);
            QVERIFY(o[QStringLiteral("fwd_gpu_us")].toDouble() <= previous);
            previous = o[QStringLiteral("fwd_gpu_us")].toDouble();
        }

        const QString kernels = test::tempDir() + QStringLiteral("/kernels.csv");
        QVERIFY(Exporter::saveTable(tab->kernels()->model()->table(),
            tab->kernels()->model()->visibleRows(), kernels, error));
        const QString cliKernels = test::tempDir() + QStringLiteral("/cli-kernels.csv");
        QCOMPARE(
            test::run(test::appPath(), {QStringLiteral("--export-kernels"), cliKernels, m_demo})
                .exitCode,
            0);
        QCOMPARE(readFile(kernels), readFile(cliKernels));
    }

    void timelineExportAtTwiceTheScale()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        MainWindow window;
        TraceTab *tab = window.addTrace(opened.trace, QStringLiteral("demo"));
        tab->timeline()->resize(800, 500);
        QString error;
        const QString png = test::tempDir() + QStringLiteral("/t2.png");
        QVERIFY(Exporter::saveTimeline(tab->timeline(), png, 2, error));
        QImage image;
        QVERIFY(image.load(png));
        QCOMPARE(image.size(), QSize(1600, 1000));
        QVERIFY(!Exporter::saveTimeline(
            tab->timeline(), test::tempDir() + QStringLiteral("/no/dir/t.png"), 1, error));
        QVERIFY(error.contains(QLatin1String("/no/dir/t.png")));
    }

    // Charts: the top-N bars are the N largest pairs; a click on a bar selects its pair.
    void topPairsChartSelectsOnClick()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        MainWindow window;
        TraceTab *tab = window.addTrace(opened.trace, QStringLiteral("demo"));
        ChartsView *charts = tab->charts();
        charts->setTopCount(5);
        const OpGraph &g = *opened.trace->graph;
        std::vector<TimeNs> totals;
        for (const PairRow &row : g.rows())
            totals.push_back(row.forwardGpu.time + row.backwardGpu.time + row.recomputedGpu.time);
        std::sort(totals.rbegin(), totals.rend());
        QCOMPARE(charts->rows().size(), size_t(5));
        // Bottom to top = smallest to largest of the top 5.
        for (size_t i = 0; i < 5; ++i) {
            const PairRow &row = g.rows()[charts->rows()[i]];
            QCOMPARE(
                row.forwardGpu.time + row.backwardGpu.time + row.recomputedGpu.time, totals[4 - i]);
        }
        auto *series
            = qobject_cast<QAbstractBarSeries *>(charts->chartView()->chart()->series().first());
        QVERIFY(series);
        emit series->clicked(4, series->barSets().first());
        QCOMPARE(tab->selection()->current(), g.rows()[charts->rows()[4]].forward);

        charts->setKind(ChartsView::Steps);
        auto *steps
            = qobject_cast<QAbstractBarSeries *>(charts->chartView()->chart()->series().first());
        QCOMPARE(steps->barSets().first()->count(), 3); // three steps
        // Each bar is the step's GPU span; its idle is the report's and --summary's, computed
        // apart (analysis/gputime).
        QCOMPARE(steps->barSets().last()->label(), QStringLiteral("idle"));
        const std::vector<StepGpuTime> tracelens = gpuTimePerStep(g);
        for (int i = 0; i < 3; ++i) {
            const GpuTimeBreakdown &tl = tracelens[size_t(i)].time;
            QCOMPARE(steps->barSets().last()->at(i), double(tl.idle) / 1e6);
            double stacked = 0;
            for (const QBarSet *set : steps->barSets())
                stacked += set->at(i);
            QVERIFY(std::abs(stacked - double(tl.total) / 1e6) < 1e-9);
        }
        charts->setKind(ChartsView::Scatter);
        QVERIFY(!charts->chartView()->chart()->series().isEmpty());
    }
};

QTEST_MAIN(TestReports)
#include "tst_reports.moc"
