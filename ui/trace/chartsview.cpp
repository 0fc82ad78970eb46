// SPDX-License-Identifier: MIT
#include "trace/chartsview.h"

#include "analysis/pairs/toppairs.h"
#include "analysis/time/stepbreakdown.h"
#include "common/barhover.h"
#include "common/chartaxis.h"
#include "common/elidedlabel.h"
#include "common/palette.h"
#include "common/qstrings.h"
#include "common/timeformat.h"
#include "export/pairgroups.h"
#include "trace/chartnames.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGraphicsLayout>
#include <QGraphicsTextItem>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedBarSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace ks {

namespace {

//! Title, value axis and legend around the bars of the top-N chart (measured, with a margin).
constexpr int kChrome = 200;
constexpr int kMaxLabel = 36;
//! Qt Charts gives a vertical axis at most 40 % of the chart's width and cuts longer labels.
constexpr double kMaxAxisPortion = 0.4;

/*!
 * An op's name for an axis label: without the prefixes every op shares, at most kMaxLabel
 * characters, elided in the middle so that long scoped or template names keep their start and
 * their end.
 */
QString shortName(QString name)
{
    name.remove(QStringLiteral("aten::"));
    name.remove(QStringLiteral("autograd::engine::evaluate_function: "));
    return elideMiddle(name, kMaxLabel);
}

struct Unit {
    double ns;
    QString name;
};
//! µs below a millisecond, ms above: tick labels stay short and whole.
Unit unitFor(double maxNs)
{
    return maxNs >= 1e6 ? Unit {1e6, QStringLiteral("ms")} : Unit {1e3, QStringLiteral("µs")};
}

//! Round ticks for values up to \a maxNs shown in \a unit.
void setRoundTicks(QValueAxis *axis, double maxNs, const Unit &unit)
{
    ks::setRoundTicks(axis, maxNs / unit.ns);
}

//! A work part's name in a legend: short, so that no legend entry is elided (issue #57).
QString partLabel(WorkPart part)
{
    switch (part) {
    case WorkPart::BackwardOther:
        return ChartsView::tr("backward-other");
    case WorkPart::Communication:
        return ChartsView::tr("exposed comm");
    case WorkPart::Memcpy:
        return ChartsView::tr("exposed memcpy");
    default:
        return QString::fromUtf8(workPartName(part));
    }
}

//! What a legend entry's part holds, said on hover.
QString partTip(WorkPart part)
{
    switch (part) {
    case WorkPart::BackwardOther:
        return ChartsView::tr("GPU work launched during backward by no paired node "
                              "(AccumulateGrad, hooks)");
    case WorkPart::Recompute:
        return ChartsView::tr("forward work re-run inside backward (activation checkpointing)");
    case WorkPart::Communication:
        return ChartsView::tr("communication not under computation");
    case WorkPart::Memcpy:
        return ChartsView::tr("memcpy not under other work");
    case WorkPart::Other:
        return ChartsView::tr("other GPU work: optimizer, data loading, …");
    default:
        return partLabel(part);
    }
}

//! A chart with no data that says why: \a headline as its title, \a text below it.
QChart *messageChart(const QString &headline, const QString &text)
{
    auto *chart = new QChart;
    chart->setTitle(headline);
    QFont headlineFont = chart->titleFont();
    headlineFont.setPointSizeF(headlineFont.pointSizeF() * 1.3);
    headlineFont.setBold(true);
    chart->setTitleFont(headlineFont);
    chart->legend()->hide();
    auto *item = new QGraphicsTextItem(chart);
    item->setPlainText(text);
    item->setDefaultTextColor(QColor(60, 60, 60));
    QFont font = item->font();
    font.setPointSizeF(font.pointSizeF() * 1.1);
    item->setFont(font);
    QObject::connect(chart, &QGraphicsWidget::geometryChanged, item, [chart, item] {
        const QRectF r = chart->rect();
        item->setTextWidth(std::clamp(r.width() - 80, 200.0, 720.0));
        item->setPos((r.width() - item->boundingRect().width()) / 2, 90);
    });
    return chart;
}

} // namespace

ChartsView::ChartsView(SelectionController *selection,
    std::shared_ptr<const PairGroupTable> groups,
    const OpEfficiency &efficiency,
    QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_groups(std::move(groups))
    , m_efficiency(efficiency)
    , m_scroll(new QScrollArea(this))
    , m_view(new QChartView)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *row = new QHBoxLayout;
    m_kindBox = new QComboBox(this);
    m_kindBox->setObjectName(QStringLiteral("chartKind"));
    for (const ChartName &chart : kChartNames) // in kind order
        if (!chart.label.empty())
            m_kindBox->addItem(
                QString::fromUtf8(chart.label.data(), qsizetype(chart.label.size())));
    row->addWidget(m_kindBox);
    row->addWidget(new QLabel(tr("Top"), this));
    m_count = new QSpinBox(this);
    m_count->setRange(3, 100);
    m_count->setValue(15);
    row->addWidget(m_count);
    m_modeBox = new QComboBox(this);
    m_modeBox->addItems({tr("instances"), tr("groups (op + input dims)")});
    row->addWidget(m_modeBox);
    row->addStretch(1);
    layout->addLayout(row);
    m_view->setRenderHint(QPainter::Antialiasing);
    // Many bars make the chart taller than the page: it scrolls rather than squeezing them.
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_scroll->setWidget(m_view);
    layout->addWidget(m_scroll, 1);

    connect(m_kindBox, &QComboBox::currentIndexChanged, this, [this](int i) { setKind(Kind(i)); });
    connect(m_count, &QSpinBox::valueChanged, this, [this](int n) { setTopCount(n); });
    connect(
        m_modeBox, &QComboBox::currentIndexChanged, this, [this](int i) { setGroupMode(i == 1); });
    rebuild();
}

void ChartsView::setKind(Kind kind)
{
    m_kind = kind;
    if (m_kindBox->currentIndex() != int(kind))
        m_kindBox->setCurrentIndex(int(kind));
    m_count->setEnabled(kind == TopPairs);
    m_modeBox->setEnabled(kind == TopPairs);
    rebuild();
}

void ChartsView::setTopCount(int n)
{
    if (m_count->value() != n)
        m_count->setValue(n);
    rebuild();
}

void ChartsView::setStepNumber(int64_t number)
{
    m_step = number;
    rebuild();
}

void ChartsView::setGroupMode(bool groups)
{
    m_groupMode = groups;
    if (m_modeBox->currentIndex() != int(groups))
        m_modeBox->setCurrentIndex(int(groups));
    rebuild();
}

ChartsView::Built ChartsView::build() const
{
    Built b = m_kind == TopPairs ? buildTopPairs()
        : m_kind == Steps        ? buildSteps()
        : m_kind == Scatter      ? buildScatter()
                                 : buildRoofline();
    b.chart->setAnimationOptions(QChart::NoAnimation);
    b.chart->legend()->setAlignment(Qt::AlignBottom);
    return b;
}

void ChartsView::rebuild()
{
    Built b = build();
    m_rows = std::move(b.rows);
    m_message = b.message;
    m_minimum = b.minimum;
    if (b.message.isEmpty() && (m_kind == TopPairs || m_kind == Steps))
        connectBars(b);
    else if (b.message.isEmpty() && m_kind == Scatter)
        connectScatter(b);
    m_rooflineGroups = std::move(b.roofline.groups);
    m_rooflinePoints = std::move(b.roofline.points);
    if (b.message.isEmpty() && m_kind == Roofline)
        connectRoofline();
    m_view->setMinimumSize(b.minimum);
    QChart *old = m_view->chart();
    m_view->setChart(b.chart);
    delete old;
}

QSize ChartsView::exportSize() const
{
    return kExportSize.expandedTo(m_minimum);
}

std::unique_ptr<QChartView> ChartsView::exportView() const
{
    Built b = build();
    auto view = std::make_unique<QChartView>(b.chart); // owns the chart
    view->setRenderHint(QPainter::Antialiasing);
    view->setWindowTitle(b.chart->title());
    view->setAttribute(Qt::WA_DontShowOnScreen);
    view->resize(kExportSize.expandedTo(b.minimum));
    view->show();
    // Lay the chart out now: the export renders it before any event loop runs.
    b.chart->layout()->activate();
    return view;
}

void ChartsView::selectRow(uint32_t r)
{
    const OpGraph &graph = *m_selection->trace().graph;
    m_selection->select(graph.representativeSlice(graph.rows()[r]));
}

ChartsView::Built ChartsView::message(const QString &headline, const QString &text)
{
    Built b;
    b.chart = messageChart(headline, text);
    b.message = headline + QLatin1Char('\n') + text;
    b.minimum = QSize(480, 320);
    return b;
}

NoPairsReason noPairsReason(const LinkStats &stats)
{
    if (!stats.hasSequenceNumbers)
        return {ChartsView::tr("No op pairs: pairing was not possible"),
            ChartsView::tr("The ops in this trace carry no autograd “Sequence number”, so no "
                           "forward op can be matched with its backward nodes. Traces of "
                           "inference, of code under torch.no_grad(), or recorded without "
                           "sequence numbers have none.")};
    return {ChartsView::tr("No op pairs in this trace"),
        ChartsView::tr("No backward node was matched with a forward op: the trace has no "
                       "backward pass that autograd recorded.")};
}

ChartsView::Built ChartsView::emptyPairs(bool anyPairs) const
{
    const LinkStats &s = m_selection->trace().graph->stats();
    const bool gpu = s.gpuEvents > 0;
    const QString steps = gpu
        ? tr("The per-step chart still shows each step's GPU time by side (forward, backward, "
             "other, idle).")
        : tr("This trace has no GPU events either (CPU only).");
    if (!s.hasSequenceNumbers || !anyPairs) {
        const NoPairsReason why = noPairsReason(s);
        return message(why.headline, why.text + QStringLiteral("\n\n") + steps);
    }
    return message(tr("No GPU time to rank"),
        gpu ? tr("None of the op pairs launched GPU work: the GPU time of this trace belongs "
                 "to other work (see the per-step chart).")
            : tr("This trace has no GPU events (CPU only), so its op pairs have no GPU time. "
                 "The pair table still lists them with their CPU times."));
}

std::vector<ChartsView::Bar> ChartsView::topBars(size_t &candidates) const
{
    const OpGraph &g = *m_selection->trace().graph;
    const TraceModel &m = *m_selection->trace().model;
    const size_t limit = size_t(m_count->value());
    std::vector<Bar> bars;
    if (m_groupMode) {
        const auto &groups = m_groups->groups();
        candidates = groups.size();
        const auto cost = [&](uint32_t i) {
            const auto &grp = groups[i];
            return PairCost {grp.fwdGpu[0], grp.bwdGpu[0], grp.recomputedGpu[0]};
        };
        for (uint32_t i : topByCost(groups.size(), limit, cost)) {
            QString name = toQString(m_groups->text(i, PairGroupTable::FwdName));
            if (name.isEmpty())
                name = toQString(m_groups->text(i, PairGroupTable::BwdNames));
            const QString dims = toQString(m_groups->text(i, PairGroupTable::InputDims));
            // Several groups share an op name and count: the group's number keeps labels apart.
            const QString suffix
                = QStringLiteral(" ×%1 · group %2").arg(groups[i].rows.size()).arg(i);
            bars.push_back({groups[i].rows.front(), cost(i),
                name + suffix + (dims.isEmpty() ? QString() : QLatin1Char('\n') + dims),
                shortName(name) + suffix});
        }
        return bars;
    }
    candidates = size_t(std::count_if(g.rows().begin(), g.rows().end(),
        [&](const PairRow &row) { return m_step == kNoValue || row.step == m_step; }));
    for (uint32_t r : topPairRows(g, limit, m_step)) {
        const PairRow &row = g.rows()[r];
        const QString name = toQString(m.sliceName(g.representativeSlice(row)));
        // The name is elided, never the suffix that tells instances apart.
        QString suffix;
        if (row.step != kNoValue)
            suffix += QStringLiteral(" · step %1").arg(row.step);
        suffix += QStringLiteral(" · #%1").arg(r);
        bars.push_back({r, pairCost(row), name + suffix, shortName(name) + suffix});
    }
    return bars;
}

ChartsView::Built ChartsView::buildTopPairs() const
{
    size_t candidates = 0;
    std::vector<Bar> bars = topBars(candidates);
    if (bars.empty() && m_step != kNoValue && !m_groupMode)
        return message(tr("No op pairs with GPU time in ProfilerStep#%1").arg(m_step),
            tr("%n pair(s) of this step launched no GPU work. Choose another step, or the whole "
               "trace, in the toolbar.",
                nullptr, int(candidates)));
    if (bars.empty())
        return emptyPairs(candidates > 0);
    std::reverse(bars.begin(), bars.end()); // dearest at the top of a horizontal chart
    TimeNs maxNs = 0;
    bool anyRecomputed = false;
    for (const Bar &b : bars) {
        maxNs = std::max(maxNs, b.cost.total());
        anyRecomputed = anyRecomputed || b.cost.recomputed > 0;
    }
    const Unit unit = unitFor(double(maxNs));
    QBarSet *sets[] = {new QBarSet(tr("forward GPU")), new QBarSet(tr("backward GPU")),
        new QBarSet(tr("its own re-run GPU (checkpointing)"))};
    const WorkPart parts[] = {WorkPart::Forward, WorkPart::Backward, WorkPart::Recomputed};
    Built built;
    QStringList categories;
    for (const Bar &b : bars) {
        const TimeNs values[] = {b.cost.forward, b.cost.backward, b.cost.recomputed};
        for (size_t k = 0; k < 3; ++k)
            *sets[k] << double(values[k]) / unit.ns;
        categories << b.label;
        built.names << b.name;
        built.rows.push_back(b.row);
    }
    auto *chart = new QChart;
    auto *series = new QHorizontalStackedBarSeries;
    for (size_t k = 0; k < 3; ++k) {
        sets[k]->setColor(workColor(parts[k]));
        // Only where the trace has it: a legend entry for nothing would say nothing.
        if (k < 2 || anyRecomputed)
            series->append(sets[k]);
        else
            delete sets[k];
    }
    series->setBarWidth(0.75);
    chart->addSeries(series);
    auto *axisY = new QBarCategoryAxis;
    axisY->append(categories);
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisY);
    const QFontMetricsF metrics(axisY->labelsFont());
    double widest = 0;
    for (const QString &label : categories)
        widest = std::max(widest, metrics.boundingRect(label).width());
    auto *axisX = new QValueAxis;
    axisX->setTitleText(tr("GPU time (%1)").arg(unit.name));
    setRoundTicks(axisX, double(maxNs), unit);
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisX);
    chart->setTitle(topTitle(bars.size(), anyRecomputed));
    built.chart = chart;
    built.unitNs = unit.ns;
    // Wide enough that Qt Charts draws every label whole, tall enough for every bar's row.
    built.minimum = QSize(std::max(480, int((widest + 24) / kMaxAxisPortion) + 60),
        int(bars.size()) * kCategoryHeight + kChrome);
    return built;
}

QString ChartsView::topTitle(size_t top, bool anyRecomputed) const
{
    const QString measure = anyRecomputed ? tr("forward + backward + own re-run GPU time")
                                          : tr("forward + backward GPU time");
    // Say what the step selector does to this chart: instances keep to it, groups sum all steps.
    const QString scope = m_step == kNoValue ? QString()
        : m_groupMode                        ? tr(" (groups sum every step)")
                                             : tr(" in ProfilerStep#%1").arg(m_step);
    QString title = m_groupMode ? tr("Top %1 op groups by %2%3").arg(top).arg(measure, scope)
                                : tr("Top %1 op pairs%3 by %2").arg(top).arg(measure, scope);
    // The checkpoint's overhead is charged to the ops it re-runs; its total is said once here.
    const TimeNs recompute = m_selection->trace().graph->stats().recomputeGpuTime;
    if (recompute > 0)
        title += tr("<br>Activation checkpointing re-ran %1 of forward GPU work during backward, "
                    "each op's share in its own bar")
                     .arg(formatDuration(double(recompute)));
    return title;
}

void ChartsView::connectBars(const Built &b)
{
    auto *series = qobject_cast<QAbstractBarSeries *>(b.chart->series().constFirst());
    // A click on a bar selects its pair everywhere.
    connect(series, &QAbstractBarSeries::clicked, this, [this](int index, QBarSet *) {
        if (index >= 0 && size_t(index) < m_rows.size())
            selectRow(m_rows[size_t(index)]);
    });
    showBarToolTips(
        series, b.names, [unitNs = b.unitNs](double v) { return formatDuration(v * unitNs); });
}

ChartsView::Built ChartsView::buildSteps() const
{
    const OpGraph &g = *m_selection->trace().graph;
    const std::vector<StepBreakdown> steps = stepBreakdown(g);
    if (steps.empty())
        return message(tr("No ProfilerStep#N in this trace"),
            tr("The per-step chart needs the ProfilerStep#N ranges that torch.profiler records "
               "at each prof.step(); this trace has none. The top-pairs and scatter charts cover "
               "the whole trace."));
    if (g.stats().gpuEvents == 0)
        return message(tr("No GPU time per step"),
            tr("This trace has no GPU events (CPU only): its %n ProfilerStep(s) launched no GPU "
               "work to split.",
                nullptr, int(steps.size())));
    // Busy split by category, then idle: each bar is the step's GPU span (docs/cli.md).
    std::vector<WorkPart> parts;
    for (size_t k = 0; k < kStepCategories; ++k) {
        const auto part = WorkPart(k);
        if (std::any_of(
                steps.begin(), steps.end(), [&](const auto &s) { return s.part(part) > 0; }))
            parts.push_back(part);
    }
    parts.push_back(WorkPart::Idle);
    double maxNs = 0;
    for (const StepBreakdown &s : steps)
        maxNs = std::max(maxNs, double(s.span()));
    const Unit unit = unitFor(maxNs);
    auto *series = new QStackedBarSeries;
    for (WorkPart part : parts) {
        auto *set = new QBarSet(partLabel(part));
        set->setColor(workColor(part));
        for (const StepBreakdown &s : steps)
            *set << double(part == WorkPart::Idle ? s.idle() : s.part(part)) / unit.ns;
        series->append(set);
    }
    QStringList categories;
    Built built;
    for (const StepBreakdown &s : steps) {
        categories << tr("step %1").arg(s.step);
        built.names << tr("ProfilerStep#%1: GPU span %2, busy %3")
                           .arg(s.step)
                           .arg(formatDuration(double(s.span())), formatDuration(double(s.busy)));
    }
    auto *chart = new QChart;
    chart->addSeries(series);
    auto *axisX = new QBarCategoryAxis;
    axisX->append(categories);
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisX);
    auto *axisY = new QValueAxis;
    axisY->setTitleText(tr("GPU time (%1)").arg(unit.name));
    setRoundTicks(axisY, maxNs, unit);
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisY);
    chart->setTitle(tr("GPU time per ProfilerStep: from the first to the last GPU event the step "
                       "launched, busy time by what ran, and idle"));
    // Each legend entry says what its part holds on hover.
    QStringList tips;
    for (WorkPart part : parts)
        tips << partTip(part);
    showLegendTips(series, tips);
    built.chart = chart;
    built.unitNs = unit.ns;
    // Wide enough for every step's label; beyond that the page scrolls sideways.
    built.minimum = QSize(std::max(480, int(steps.size()) * 56 + 160), 320);
    return built;
}

ChartsView::Built ChartsView::buildScatter() const
{
    const auto &groups = m_groups->groups();
    Built built;
    double maxNs = 0;
    std::vector<uint32_t> shown;
    bool anyPaired = false;
    for (uint32_t i = 0; i < groups.size(); ++i) {
        anyPaired = anyPaired || groups[i].paired;
        if (groups[i].paired && groups[i].fwdGpu[0] + groups[i].bwdGpu[0] > 0) {
            shown.push_back(i);
            maxNs = std::max({maxNs, double(groups[i].fwdGpu[0]), double(groups[i].bwdGpu[0])});
        }
    }
    if (shown.empty())
        return emptyPairs(anyPaired);
    const Unit unit = unitFor(maxNs);
    auto *chart = new QChart;
    auto *series = new QScatterSeries;
    series->setName(tr("op group (forward, backward GPU time)"));
    series->setMarkerSize(9);
    series->setColor(workColor(WorkPart::Backward));
    for (uint32_t i : shown) {
        series->append(
            double(groups[i].fwdGpu[0]) / unit.ns, double(groups[i].bwdGpu[0]) / unit.ns);
        built.rows.push_back(groups[i].rows.front());
    }
    chart->addSeries(series);
    auto *axisX = new QValueAxis;
    axisX->setTitleText(tr("forward GPU time (%1)").arg(unit.name));
    auto *axisY = new QValueAxis;
    axisY->setTitleText(tr("backward GPU time (%1)").arg(unit.name));
    for (QValueAxis *a : {axisX, axisY})
        setRoundTicks(a, maxNs, unit);
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisX);
    series->attachAxis(axisY);
    // The diagonal backward = forward, and 2× (a backward usually costs about twice its forward),
    // each to the edge of the plot.
    const double edge = axisX->max();
    for (double factor : {1.0, 2.0}) {
        auto *diag = new QLineSeries;
        diag->setName(factor == 1.0 ? tr("backward = forward") : tr("backward = 2 × forward"));
        diag->append(0, 0);
        diag->append(edge / factor, edge);
        QPen pen(factor == 1.0 ? QColor(90, 90, 90) : QColor(40, 120, 130));
        pen.setWidthF(1.5);
        pen.setStyle(factor == 1.0 ? Qt::DashLine : Qt::DotLine);
        diag->setPen(pen);
        chart->addSeries(diag);
        diag->attachAxis(axisX);
        diag->attachAxis(axisY);
    }
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries); // each line its pattern
    chart->setTitle(tr("Backward vs forward GPU time per op group (total over its instances)"));
    built.chart = chart;
    built.minimum = QSize(480, 400);
    return built;
}

void ChartsView::connectScatter(const Built &b)
{
    auto *series = qobject_cast<QScatterSeries *>(b.chart->series().constFirst());
    const auto pointIndex = [series](const QPointF &p) {
        const QList<QPointF> points = series->points();
        return qsizetype(std::find(points.begin(), points.end(), p) - points.begin());
    };
    // A click on a point selects the group's first pair everywhere, as a bar does.
    connect(series, &QScatterSeries::clicked, this, [this, pointIndex](const QPointF &p) {
        const qsizetype i = pointIndex(p);
        if (i >= 0 && size_t(i) < m_rows.size())
            selectRow(m_rows[size_t(i)]);
    });
    connect(series, &QScatterSeries::hovered, this,
        [this, pointIndex, series](const QPointF &p, bool on) {
            const qsizetype i = pointIndex(p);
            if (!on || i < 0 || size_t(i) >= m_rows.size()) {
                showChartTip(series->chart(), {});
                return;
            }
            const uint32_t group = m_groups->groupOf(m_rows[size_t(i)]);
            const auto &grp = m_groups->groups()[group];
            showChartTip(series->chart(),
                tr("%1 ×%2\nforward GPU %3\nbackward GPU %4")
                    .arg(toQString(m_groups->text(group, PairGroupTable::FwdName)))
                    .arg(grp.rows.size())
                    .arg(formatDuration(double(grp.fwdGpu[0])),
                        formatDuration(double(grp.bwdGpu[0]))));
        });
}

ChartsView::Built ChartsView::buildRoofline() const
{
    RooflinePlot plot = buildRooflinePlot(m_efficiency, m_groups->graph().model());
    if (!plot.chart)
        return message(plot.headline, plot.message);
    Built built;
    built.chart = plot.chart;
    built.minimum = QSize(480, 400);
    built.roofline = std::move(plot);
    return built;
}

void ChartsView::connectRoofline()
{
    const TraceModel &model = m_groups->graph().model();
    for (const auto &[series, behind] : m_rooflinePoints) {
        const auto groupAt = [series = series, &behind = behind](const QPointF &p) {
            const QList<QPointF> points = series->points();
            const auto i = size_t(std::find(points.begin(), points.end(), p) - points.begin());
            return i < behind.size() ? std::optional<size_t>(behind[i]) : std::nullopt;
        };
        // A click selects the group's first op everywhere; hovering names the group.
        connect(series, &QScatterSeries::clicked, this, [this, groupAt](const QPointF &p) {
            if (const auto g = groupAt(p))
                m_selection->select(
                    m_efficiency.instances()[m_rooflineGroups[*g].firstInstance].op);
        });
        connect(series, &QScatterSeries::hovered, this,
            [this, groupAt, &model, series = series](const QPointF &p, bool on) {
                const auto g = groupAt(p);
                showChartTip(series->chart(),
                    on && g ? rooflineTooltip(m_rooflineGroups[*g], model) : QString());
            });
    }
}

} // namespace ks
