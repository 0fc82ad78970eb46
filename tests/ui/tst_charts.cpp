// SPDX-License-Identifier: MIT
// The Charts page and the icicle, offscreen: exports at a fixed size whatever is on screen,
// readable bar labels on a small page, round ticks, scatter clicks, and the empty states.
#include "charttexts.h"
#include "export/pairgroups.h"
#include "table/tablemodel.h"
#include "testutil.h"
#include "trace/chartsview.h"
#include "trace/iciclechart.h"
#include "trace/modulesview.h"
#include "trace/pairtablepage.h"
#include "trace/tracetab.h"
#include "window/exportactions.h"
#include "window/mainwindow.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QMenu>
#include <QPainter>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QTest>
#include <QToolTip>
#include <QValueAxis>

#include <cmath>

using namespace ks;

namespace {

int distinctColours(const QImage &image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

//! A step of 1, 2 or 5 × 10^k.
bool isRound(double step)
{
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    return std::fabs(mantissa - 1) < 1e-6 || std::fabs(mantissa - 2) < 1e-6
        || std::fabs(mantissa - 5) < 1e-6;
}

using test::completeEvent;

struct TinyTrace {
    bool steps = true;
    bool sequence = true;
    bool gpu = true;
    std::string forward = "aten::addmm";
};

//! One forward op and its backward node on two threads, each launching one kernel.
std::string tinyTrace(const TinyTrace &t)
{
    const auto seq = [&](int fwdThread) {
        return t.sequence
            ? R"("Sequence number":5,"Fwd thread id":)" + std::to_string(fwdThread) + ","
            : std::string();
    };
    std::string e;
    if (t.steps)
        e += completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 10000);
    e += completeEvent("cpu_op", t.forward, 1, 100, 50, seq(0) + R"("External id":1)");
    e += completeEvent("cpu_op", "autograd::engine::evaluate_function: AddmmBackward0", 2, 5000,
        300, seq(1) + R"("External id":2)");
    e += completeEvent("cpu_op", "AddmmBackward0", 2, 5001, 298, seq(1) + R"("External id":3)");
    if (t.gpu) {
        e += completeEvent("cuda_runtime", "cudaLaunchKernel", 1, 110, 5, R"("correlation":1)");
        e += completeEvent("cuda_runtime", "cudaLaunchKernel", 2, 5010, 5, R"("correlation":2)");
        e += completeEvent("kernel", "k_fwd", 7, 200, 40, R"("correlation":1)");
        e += completeEvent("kernel", "k_bwd", 7, 5100, 80, R"("correlation":2)");
    }
    e.pop_back();
    return test::traceWith(e);
}

//! A charts page of its own, offscreen at \a size.
struct Page {
    SelectionController selection;
    ChartsView view;
    Page(const std::shared_ptr<const LoadedTrace> &trace, QSize size)
        : selection(trace)
        , view(&selection, std::make_shared<PairGroupTable>(*trace->graph), trace->efficiency())
    {
        view.resize(size);
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.show();
        QApplication::processEvents();
    }
    QChart *chart() const { return view.chartView()->chart(); }
};

} // namespace

class TestCharts : public QObject {
    Q_OBJECT
    QString m_demo;
    std::shared_ptr<const LoadedTrace> m_trace;

    //! Every tick label drawn for \a axis's numbers is a multiple of its round step.
    void verifyRoundTicks(QChart *chart, QValueAxis *axis)
    {
        QCOMPARE(axis->tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(axis->tickAnchor(), 0.0);
        QCOMPARE(axis->min(), 0.0);
        const double step = axis->tickInterval();
        QVERIFY2(isRound(step), qPrintable(QString::number(step)));
        const double steps = axis->max() / step;
        QVERIFY2(std::fabs(steps - std::round(steps)) < 1e-6, qPrintable(QString::number(steps)));
        int numbers = 0;
        for (const QString &text : test::drawnTexts(chart)) {
            bool ok = false;
            const double v = text.toDouble(&ok);
            if (!ok)
                continue;
            ++numbers;
            QVERIFY2(std::fabs(v / step - std::round(v / step)) < 1e-6, qPrintable(text));
        }
        QVERIFY2(numbers >= 3, qPrintable(QString::number(numbers)));
        QVERIFY(axis->titleText().contains(QLatin1String("ms"))
            || axis->titleText().contains(QStringLiteral("µs")));
    }

private slots:
    void initTestCase()
    {
        m_demo = test::tempDir() + QStringLiteral("/demo.json");
        QCOMPARE(test::run(test::gentracePath(), {m_demo}).exitCode, 0);
        OpenResult opened = openTrace(m_demo.toStdString());
        QVERIFY(opened.trace);
        m_trace = opened.trace;
    }

    // Export ▸ Chart / Module Icicle render afresh at 1600 × 900 (the icicle 1600 × its height),
    // whatever tab is current and however small the window: not a grab of the page.
    void exportsDoNotDependOnWhatIsOnScreen()
    {
        MainWindow window;
        window.resize(800, 600);
        TraceTab *tab = window.addTrace(m_trace, QStringLiteral("demo"));
        window.show();
        QTabWidget *tabs = tab->bottomTabs();
        tabs->setCurrentIndex(2); // Charts, at the small window's page size
        QApplication::processEvents();
        tab->charts()->setTopCount(20);
        tabs->setCurrentIndex(0); // and back to the op pairs
        QApplication::processEvents();
        QVERIFY(!tab->charts()->isVisible());
        QMenu menu;
        ExportActions exports(&window, &menu);
        exports.setCurrent(tab);
        QString error;

        const QString png = test::tempDir() + QStringLiteral("/chart.png");
        QVERIFY2(exports.saveChart(png, error), qPrintable(error));
        QImage image;
        QVERIFY(image.load(png));
        QCOMPARE(image.size(), ChartsView::kExportSize);
        QVERIFY2(distinctColours(image) > 30, qPrintable(QString::number(distinctColours(image))));
        const QString svg = test::tempDir() + QStringLiteral("/chart.svg");
        QVERIFY2(exports.saveChart(svg, error), qPrintable(error));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.defaultSize(), ChartsView::kExportSize);
        QCOMPARE(renderer.viewBox(), QRect(QPoint(), ChartsView::kExportSize));
        QImage drawn(ChartsView::kExportSize, QImage::Format_ARGB32);
        drawn.fill(Qt::white);
        QPainter painter(&drawn);
        renderer.render(&painter);
        painter.end();
        QVERIFY(distinctColours(drawn) > 10);

        // The exported chart is the page's chart: same kind, mode, count; drawn in full.
        tab->charts()->setKind(ChartsView::Scatter);
        const std::unique_ptr<QChartView> copy = tab->charts()->exportView();
        QCOMPARE(copy->size(), ChartsView::kExportSize);
        QCOMPARE(copy->chart()->title(), tab->charts()->chartView()->chart()->title());
        QCOMPARE(
            copy->chart()->series().size(), tab->charts()->chartView()->chart()->series().size());
        // The Modules page was never shown: the icicle still exports at its full size.
        tab->modules()->icicle()->setSelected(1);
        const QString icicle = test::tempDir() + QStringLiteral("/icicle.png");
        QVERIFY2(exports.saveIcicle(icicle, error), qPrintable(error));
        QVERIFY(image.load(icicle));
        const int height = tab->modules()->icicle()->sizeHint().height();
        QCOMPARE(image.size(), QSize(IcicleChart::kExportWidth, height));
        QVERIFY(height > 3 * IcicleChart::kRowHeight);
        QVERIFY2(distinctColours(image) > 30, qPrintable(QString::number(distinctColours(image))));
        const QString icicleSvg = test::tempDir() + QStringLiteral("/icicle.svg");
        QVERIFY2(exports.saveIcicle(icicleSvg, error), qPrintable(error));
        QSvgRenderer icicleRenderer(icicleSvg);
        QVERIFY(icicleRenderer.isValid());
        QCOMPARE(icicleRenderer.defaultSize(), QSize(IcicleChart::kExportWidth, height));
    }

    // Many bars: the chart grows and the page scrolls instead of squeezing them.
    void exportGrowsForManyBars()
    {
        Page page(m_trace, QSize(900, 300));
        page.view.setTopCount(60);
        const QSize size = page.view.exportSize();
        QCOMPARE(size.width(), ChartsView::kExportSize.width());
        QVERIFY(size.height() >= 60 * ChartsView::kCategoryHeight);
        QCOMPARE(page.view.exportView()->size(), size);
    }

    // On a small page every bar label is drawn whole and each bar's row is tall enough for it.
    void topPairsLabelsReadableOnASmallPage_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<bool>("groups");
        QTest::newRow("demo instances") << QString() << false;
        QTest::newRow("demo groups") << QString() << true;
        QTest::newRow("long name") << QStringLiteral(
            "aten::_fused_scaled_dot_product_flash_attention_with_rotary_embedding_forward_wrapper")
                                   << false;
    }
    void topPairsLabelsReadableOnASmallPage()
    {
        QFETCH(QString, trace);
        QFETCH(bool, groups);
        std::shared_ptr<const LoadedTrace> loaded = m_trace;
        if (!trace.isEmpty()) {
            loaded = test::link(tinyTrace({.forward = trace.toStdString()}));
            QVERIFY(loaded);
        }
        Page page(loaded, QSize(900, 300));
        page.view.setGroupMode(groups);
        QApplication::processEvents();
        QChart *chart = page.chart();
        auto *axis = qobject_cast<QBarCategoryAxis *>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(axis);
        const QStringList categories = axis->categories();
        QVERIFY(!categories.isEmpty());
        const double perCategory = chart->plotArea().height() / double(categories.size());
        QVERIFY2(perCategory >= ChartsView::kCategoryHeight - 1,
            qPrintable(QString::number(perCategory)));
        QVERIFY(perCategory * 0.75 >= 18); // the bar itself
        const QStringList drawn = test::drawnTexts(chart);
        for (const QString &label : categories) {
            QVERIFY(!label.isEmpty() && label != QStringLiteral("…"));
            QVERIFY2(drawn.contains(label),
                qPrintable(label + QStringLiteral(" | ") + drawn.join(QStringLiteral(" | "))));
            if (!groups)
                QVERIFY2(QRegularExpression(QStringLiteral(" · #\\d+$")).match(label).hasMatch(),
                    qPrintable(label));
        }
        if (!trace.isEmpty()) {
            // Elided in the middle: its start and its end stay.
            QCOMPARE(categories.size(), 1);
            QVERIFY(categories[0].startsWith(QLatin1String("_fused_scaled_dot")));
            QVERIFY(categories[0].contains(QStringLiteral("…")));
            QVERIFY(categories[0].endsWith(QStringLiteral("_forward_wrapper · step 1 · #0")));
        } else {
            // 15 bars do not fit 300 px: the page scrolls.
            QVERIFY(page.view.scrollArea()->verticalScrollBar()->maximum() > 0);
        }
        // Axis titles are drawn whole.
        for (QAbstractAxis *a : chart->axes())
            if (!a->titleText().isEmpty())
                QVERIFY2(drawn.contains(a->titleText()), qPrintable(a->titleText()));
    }

    void ticksAreRoundNumbers()
    {
        Page page(m_trace, QSize(1200, 700));
        for (ChartsView::Kind kind :
            {ChartsView::TopPairs, ChartsView::Steps, ChartsView::Scatter}) {
            page.view.setKind(kind);
            QApplication::processEvents();
            QChart *chart = page.chart();
            const Qt::Orientation values
                = kind == ChartsView::Steps ? Qt::Vertical : Qt::Horizontal;
            auto *axis = qobject_cast<QValueAxis *>(chart->axes(values).value(0));
            QVERIFY(axis);
            verifyRoundTicks(chart, axis);
            for (QAbstractAxis *a : chart->axes())
                QVERIFY2(
                    test::drawnTexts(chart).contains(a->titleText()), qPrintable(a->titleText()));
        }
        // A tiny trace's microseconds: µs, not fractions of a millisecond.
        Page tiny(test::link(tinyTrace({})), QSize(1000, 600));
        auto *axis = qobject_cast<QValueAxis *>(tiny.chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(axis->titleText().contains(QStringLiteral("µs")));
        QVERIFY2(axis->max() >= 120 && axis->max() <= 150, // 40 + 80 µs
            qPrintable(QString::number(axis->max())));
        verifyRoundTicks(tiny.chart(), axis);
    }

    /*
     * Issue #57: at the Charts tab's size in a 1440×900 window no text of the step chart is
     * elided (its legend read "backward – other (A…", "recompute (checkp…"); hovering a legend
     * entry says what its part holds.
     */
    void stepsChartElidesNoLabel()
    {
        Page page(m_trace, QSize(820, 400));
        page.view.setKind(ChartsView::Steps);
        QApplication::processEvents();
        QVERIFY(test::drawnTexts(page.chart()).size() > 5);
        QVERIFY2(test::elidedTexts(page.chart()).isEmpty(),
            qPrintable(test::elidedTexts(page.chart()).join(QLatin1Char('|'))));
        QLegendMarker *marker = page.chart()->legend()->markers().value(0);
        QVERIFY(marker);
        emit marker->hovered(true);
        QVERIFY2(!QToolTip::text().isEmpty(), "a legend entry explains itself on hover");
    }

    // Hovering a step's segment says which step, which part and how long.
    void stepsChartHoverSaysWhat()
    {
        Page page(m_trace, QSize(1000, 600));
        page.view.setKind(ChartsView::Steps);
        auto *series = qobject_cast<QAbstractBarSeries *>(page.chart()->series().value(0));
        QVERIFY(series);
        QBarSet *idle = series->barSets().last();
        emit series->hovered(true, 0, idle);
        // The view's own tooltip event, which a real mouse brings a moment after the hover,
        // keeps the tip (issue #57: with no item tooltip under the cursor it hid it).
        QWidget *viewport = page.view.chartView()->viewport();
        const QPoint inside(viewport->width() / 2, viewport->height() / 2);
        QHelpEvent help(QEvent::ToolTip, inside, viewport->mapToGlobal(inside));
        QApplication::sendEvent(viewport, &help);
        QTest::qWait(500); // past QToolTip's hiding delay
        const QString tip = QToolTip::text();
        const int64_t first = m_trace->graph->steps().front().number;
        QVERIFY2(tip.contains(QStringLiteral("ProfilerStep#%1").arg(first))
                && tip.contains(QStringLiteral("idle: ")),
            qPrintable(tip));
    }

    // A click on a point selects the group's first pair everywhere; hovering names the group.
    void scatterClickSelectsTheGroupsFirstPair()
    {
        Page page(m_trace, QSize(1200, 700));
        page.view.setKind(ChartsView::Scatter);
        auto *series = qobject_cast<QScatterSeries *>(page.chart()->series().value(0));
        QVERIFY(series);
        QCOMPARE(size_t(series->count()), page.view.rows().size());
        const PairGroupTable groups(*m_trace->graph);
        const OpGraph &g = *m_trace->graph;
        QVERIFY(series->count() > 3);
        for (int i : {0, series->count() / 2, series->count() - 1}) {
            const uint32_t row = page.view.rows()[size_t(i)];
            const auto &group = groups.groups()[groups.groupOf(row)];
            QCOMPARE(group.rows.front(), row);
            QVERIFY(std::fabs(series->at(i).x() - double(group.fwdGpu[0]) / 1e3) < 1e-9
                || std::fabs(series->at(i).x() - double(group.fwdGpu[0]) / 1e6) < 1e-9);
            page.selection.select(kNoSlice);
            emit series->clicked(series->at(i));
            QVERIFY(g.rows()[row].forward != kNoSlice);
            QCOMPARE(page.selection.current(), g.rows()[row].forward);
        }
        emit series->hovered(series->at(0), true);
        const QString tip = QToolTip::text();
        const uint32_t first = groups.groupOf(page.view.rows()[0]);
        QVERIFY2(tip.contains(QString::fromStdString(
                     std::string(groups.text(first, PairGroupTable::FwdName)))),
            qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1String("forward GPU"))
                && tip.contains(QLatin1String("backward GPU")),
            qPrintable(tip));
    }

    /*
     * The roofline (issue #34) of the demo trace (an A100 SXM4 40 GB with shapes): one point per
     * group of outermost modelled instances, at its FLOPs / bytes and FLOPs / kernel time, each
     * count equal to the instances of its op, dims and side; a click selects the group's first
     * op; the title names the device, a ceiling its peak. A trace without shapes says why.
     */
    void rooflinePointsAreOpGroups()
    {
        Page page(m_trace, QSize(1200, 700));
        page.view.setKind(ChartsView::Roofline);
        const std::vector<EfficiencyGroup> &groups = page.view.rooflineGroups();
        QVERIFY(groups.size() > 5);
        const OpEfficiency &e = m_trace->efficiency();
        const TraceModel &m = *m_trace->model;
        int points = 0, offScalePoints = 0;
        const double bottom
            = qobject_cast<QLogValueAxis *>(page.chart()->axes(Qt::Vertical).value(0))->min();
        for (QAbstractSeries *s : page.chart()->series()) {
            auto *series = qobject_cast<QScatterSeries *>(s);
            if (!series)
                continue;
            points += series->count();
            for (int i = 0; i < series->count(); ++i) {
                page.selection.select(kNoSlice);
                emit series->clicked(series->at(i));
                const SliceId op = page.selection.current();
                QVERIFY(op != kNoSlice);
                const auto g = std::find_if(groups.begin(), groups.end(),
                    [&](const auto &grp) { return e.instances()[grp.firstInstance].op == op; });
                QVERIFY(g != groups.end());
                // At its rate, or on the bottom edge when five decades below the top: then in
                // the off-scale series, whose legend says so (issue #57), never among the rest.
                const double rate = g->flops / 1e12 / (double(g->kernelTime) / 1e9);
                const double y = series->at(i).y();
                const bool offScale = series->name().contains(QLatin1String("off the scale"));
                offScalePoints += offScale;
                QVERIFY(offScale ? y > rate && y == bottom : std::fabs(y / rate - 1) < 1e-9);
                QVERIFY(std::fabs(series->at(i).x() / (g->flops / g->bytes) - 1) < 1e-9
                    || (offScale && series->at(i).x() > g->flops / g->bytes));
                uint32_t count = 0;
                for (const OpInstance &in : e.instances())
                    count += in.outermost && in.side == g->side && in.kernelTime > 0
                        && in.work.bytes && m.slices.name[in.op] == g->name
                        && m.slices.inputDims[in.op] == g->inputDims;
                QCOMPARE(count, g->count);
            }
        }
        QCOMPARE(size_t(points), groups.size());
        QVERIFY(offScalePoints > 0); // the demo's scalar ops, five decades below the top
        QVERIFY2(test::elidedTexts(page.chart()).isEmpty(),
            qPrintable(test::elidedTexts(page.chart()).join(QLatin1Char('|'))));
        QVERIFY2(page.chart()->title().contains(QLatin1String("NVIDIA A100-SXM4-40GB")),
            qPrintable(page.chart()->title()));
        QVERIFY(test::drawnTexts(page.chart())
                    .join(QLatin1Char(' '))
                    .contains(QLatin1String("19.5 TFLOP/s")));
        auto trace = test::link(tinyTrace({}));
        Page bare(trace, QSize(900, 500));
        bare.view.setKind(ChartsView::Roofline);
        QVERIFY2(bare.view.emptyMessage().contains(QLatin1String("record_shapes")),
            qPrintable(bare.view.emptyMessage()));
    }

    // Without sequence numbers there are no pairs: the pair charts say why, not "Top 0".
    void noSequenceNumbersExplainsWhy()
    {
        auto trace = test::link(tinyTrace({.sequence = false}));
        QVERIFY(trace);
        QVERIFY(!trace->graph->stats().hasSequenceNumbers);
        Page page(trace, QSize(900, 500));
        for (ChartsView::Kind kind : {ChartsView::TopPairs, ChartsView::Scatter}) {
            page.view.setKind(kind);
            QApplication::processEvents();
            const QString message = page.view.emptyMessage();
            QVERIFY2(
                message.contains(QLatin1String("pairing was not possible")), qPrintable(message));
            QVERIFY(message.contains(QStringLiteral("“Sequence number”")));
            QVERIFY(message.contains(QLatin1String("inference")));
            QVERIFY(message.contains(QLatin1String("no_grad")));
            QVERIFY(message.contains(QLatin1String("per-step chart still shows")));
            QChart *chart = page.chart();
            QVERIFY(chart->series().isEmpty());
            QVERIFY(chart->axes().isEmpty());
            QVERIFY(!chart->title().contains(QLatin1String("Top 0")));
            // The explanation is drawn in the chart, so an export carries it too.
            const QStringList drawn = test::drawnTexts(chart);
            QVERIFY2(std::any_of(drawn.begin(), drawn.end(),
                         [](const QString &t) { return t.contains(QLatin1String("no_grad")); }),
                qPrintable(drawn.join(QStringLiteral(" | "))));
        }
        // The per-step chart still shows the GPU time, by side.
        page.view.setKind(ChartsView::Steps);
        QVERIFY(page.view.emptyMessage().isEmpty());
        QVERIFY(!page.chart()->series().isEmpty());

        // The empty pair table says why too; a trace with pairs shows no such notice.
        MainWindow window;
        TraceTab *unpaired = window.addTrace(trace, QStringLiteral("unpaired"));
        unpaired->pairs(); // made when first shown or asked for
        auto *notice = unpaired->findChild<QLabel *>(QStringLiteral("noPairsNotice"));
        QVERIFY(notice);
        QVERIFY(notice->text().contains(QLatin1String("pairing was not possible")));
        QCOMPARE(unpaired->pairs()->model()->rowCount(), 0);
        TraceTab *paired = window.addTrace(m_trace, QStringLiteral("demo"));
        QVERIFY(paired->pairs());
        QVERIFY(!paired->findChild<QLabel *>(QStringLiteral("noPairsNotice")));
    }

    void noProfilerStepSaysSo()
    {
        auto trace = test::link(tinyTrace({.steps = false}));
        QVERIFY(trace);
        Page page(trace, QSize(900, 500));
        QVERIFY(page.view.emptyMessage().isEmpty()); // the pair is charted
        page.view.setKind(ChartsView::Steps);
        QVERIFY2(page.view.emptyMessage().contains(QLatin1String("No ProfilerStep#N")),
            qPrintable(page.view.emptyMessage()));
        QVERIFY(page.chart()->series().isEmpty());
        QVERIFY(page.chart()->axes().isEmpty());
    }

    void cpuOnlyTraceSaysThereIsNoGpuTime()
    {
        auto trace = test::link(tinyTrace({.gpu = false}));
        QVERIFY(trace);
        QVERIFY(!trace->graph->rows().empty());
        Page page(trace, QSize(900, 500));
        QVERIFY2(page.view.emptyMessage().contains(QLatin1String("no GPU events")),
            qPrintable(page.view.emptyMessage()));
        QVERIFY(page.chart()->series().isEmpty());
        page.view.setKind(ChartsView::Steps);
        QVERIFY2(page.view.emptyMessage().contains(QLatin1String("no GPU events")),
            qPrintable(page.view.emptyMessage()));
        QVERIFY(page.chart()->series().isEmpty());
        // Exported, the message is the picture: drawn, at the export size.
        const std::unique_ptr<QChartView> copy = page.view.exportView();
        QCOMPARE(copy->size(), ChartsView::kExportSize);
        const QImage image = copy->grab().toImage();
        QVERIFY(distinctColours(image) > 10);
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
