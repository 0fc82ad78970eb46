// SPDX-License-Identifier: MIT
#include "trace/chartsview.h"

#include "analysis/stepbreakdown.h"
#include "common/slicecolors.h"
#include "export/pairgroups.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSpinBox>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <numeric>

namespace ks {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}
double toMs(TimeNs ns)
{
    return double(ns) / 1e6;
}

const QColor kForward(40, 130, 190);
const QColor kBackward(230, 110, 40);
const QColor kBackwardOther(240, 180, 60);
const QColor kRecompute(140, 100, 200);
const QColor kOther(140, 140, 160);
const QColor kIdle(215, 215, 215);

QString shortName(QString name, int max = 48)
{
    name.remove(QStringLiteral("aten::"));
    if (name.size() > max)
        name = name.left(max - 1) + QStringLiteral("…");
    return name;
}

} // namespace

ChartsView::ChartsView(
    SelectionController *selection, std::shared_ptr<const PairGroupTable> groups, QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_groups(std::move(groups))
    , m_view(new QChartView(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *row = new QHBoxLayout;
    m_kindBox = new QComboBox(this);
    m_kindBox->setObjectName(QStringLiteral("chartKind"));
    m_kindBox->addItems({tr("Top op pairs by GPU time"), tr("GPU time per ProfilerStep"),
        tr("Backward vs forward GPU time per op")});
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
    layout->addWidget(m_view, 1);

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

void ChartsView::setGroupMode(bool groups)
{
    m_groupMode = groups;
    if (m_modeBox->currentIndex() != int(groups))
        m_modeBox->setCurrentIndex(int(groups));
    rebuild();
}

void ChartsView::rebuild()
{
    QChart *chart = m_kind == TopPairs ? buildTopPairs()
        : m_kind == Steps              ? buildSteps()
                                       : buildScatter();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    QChart *old = m_view->chart();
    m_view->setChart(chart);
    delete old;
}

QChart *ChartsView::buildTopPairs()
{
    const OpGraph &g = *m_selection->trace().graph;
    const TraceModel &m = *m_selection->trace().model;
    auto *chart = new QChart;
    const int n = m_count->value();
    // Rank by forward + backward GPU time; instances are pair rows, groups sum their members.
    struct Bar {
        uint32_t row; // pair row (instances) or group index
        TimeNs fwd, bwd, recompute;
        QString label;
        TimeNs total() const { return fwd + bwd + recompute; }
    };
    std::vector<Bar> bars;
    if (m_groupMode) {
        const auto &groups = m_groups->groups();
        for (uint32_t i = 0; i < groups.size(); ++i) {
            const auto &grp = groups[i];
            QString label = qs(m_groups->text(i, PairGroupTable::FwdName));
            if (label.isEmpty())
                label = qs(m_groups->text(i, PairGroupTable::BwdNames));
            label = shortName(label) + QStringLiteral(" ×%1").arg(grp.rows.size());
            bars.push_back({i, grp.fwdGpu[0], grp.bwdGpu[0], grp.recomputeGpu[0], label});
        }
    } else {
        for (uint32_t r = 0; r < g.rows().size(); ++r) {
            const PairRow &row = g.rows()[r];
            QString label = row.forward != kNoSlice
                ? qs(m.sliceName(row.forward))
                : qs(m.sliceName(g.nodes()[g.nodesOf(row).front()].node));
            label = shortName(label);
            if (row.step != kNoValue)
                label += QStringLiteral(" · step %1").arg(row.step);
            label += QStringLiteral(" · #%1").arg(r);
            bars.push_back(
                {r, row.forwardGpu.time, row.backwardGpu.time, row.recomputeGpu.time, label});
        }
    }
    const size_t top = std::min<size_t>(size_t(n), bars.size());
    std::partial_sort(
        bars.begin(), bars.begin() + long(top), bars.end(), [](const Bar &a, const Bar &b) {
            return a.total() != b.total() ? a.total() > b.total() : a.row < b.row;
        });
    bars.resize(top);
    std::reverse(bars.begin(), bars.end()); // largest at the top of a horizontal chart

    auto *fwd = new QBarSet(tr("forward GPU"));
    auto *bwd = new QBarSet(tr("backward GPU"));
    auto *recompute = new QBarSet(tr("recompute GPU (checkpointing)"));
    fwd->setColor(kForward);
    bwd->setColor(kBackward);
    recompute->setColor(kRecompute);
    QStringList categories;
    m_barRows.clear();
    double maxMs = 0;
    bool anyRecompute = false;
    for (const Bar &b : bars) {
        *fwd << toMs(b.fwd);
        *bwd << toMs(b.bwd);
        *recompute << toMs(b.recompute);
        anyRecompute = anyRecompute || b.recompute > 0;
        categories << b.label;
        maxMs = std::max(maxMs, toMs(b.total()));
        m_barRows.push_back(m_groupMode ? m_groups->groups()[b.row].rows.front() : b.row);
    }
    auto *series = new QHorizontalStackedBarSeries;
    series->append(fwd);
    series->append(bwd);
    // Only where the trace has it: a legend entry for nothing would say nothing.
    if (anyRecompute)
        series->append(recompute);
    else
        delete recompute;
    series->setBarWidth(0.75);
    chart->addSeries(series);
    auto *axisY = new QBarCategoryAxis;
    axisY->append(categories);
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisY);
    auto *axisX = new QValueAxis;
    axisX->setTitleText(tr("GPU time (ms)"));
    axisX->setRange(0, maxMs > 0 ? maxMs * 1.05 : 1);
    axisX->setLabelFormat(QStringLiteral("%.3g"));
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisX);
    const QString measure = anyRecompute ? tr("forward + backward + recompute GPU time")
                                         : tr("forward + backward GPU time");
    chart->setTitle(m_groupMode ? tr("Top %1 op groups by %2").arg(top).arg(measure)
                                : tr("Top %1 op pairs by %2").arg(top).arg(measure));
    // A click on a bar selects its pair everywhere.
    connect(series, &QAbstractBarSeries::clicked, this, [this](int index, QBarSet *) {
        if (index < 0 || size_t(index) >= m_barRows.size())
            return;
        const OpGraph &graph = *m_selection->trace().graph;
        const PairRow &row = graph.rows()[m_barRows[size_t(index)]];
        m_selection->select(
            row.forward != kNoSlice ? row.forward : graph.nodes()[graph.nodesOf(row).front()].node);
    });
    connect(series, &QAbstractBarSeries::hovered, this,
        [this, categories](bool on, int index, QBarSet *set) {
            if (on && index >= 0 && index < categories.size())
                QToolTip::showText(QCursor::pos(),
                    QStringLiteral("%1\n%2: %3 ms")
                        .arg(categories[index], set->label())
                        .arg(set->at(index), 0, 'f', 3));
        });
    return chart;
}

QChart *ChartsView::buildSteps()
{
    const OpGraph &g = *m_selection->trace().graph;
    auto *chart = new QChart;
    const std::vector<StepBreakdown> steps = stepBreakdown(g);
    struct Part {
        QString name;
        QColor color;
        TimeNs StepBreakdown::*field;
    };
    constexpr int kParts = 6;
    QBarSet *sets[kParts] = {new QBarSet(tr("forward")), new QBarSet(tr("backward")),
        new QBarSet(tr("recompute")), new QBarSet(tr("backward – other")),
        new QBarSet(tr("other (optimizer, data…)")), new QBarSet(tr("idle"))};
    const QColor colors[kParts] = {kForward, kBackward, kRecompute, kBackwardOther, kOther, kIdle};
    QStringList categories;
    double maxMs = 0;
    bool anyRecompute = false;
    for (const StepBreakdown &s : steps) {
        const TimeNs values[kParts]
            = {s.forward, s.backward, s.recompute, s.backwardOther, s.other, s.idle()};
        double total = 0;
        for (int k = 0; k < kParts; ++k) {
            *sets[k] << toMs(values[k]);
            total += toMs(values[k]);
        }
        anyRecompute = anyRecompute || s.recompute > 0;
        maxMs = std::max(maxMs, total);
        categories << tr("step %1").arg(s.step);
    }
    auto *series = new QStackedBarSeries;
    for (int k = 0; k < kParts; ++k) {
        sets[k]->setColor(colors[k]);
        if (k == 2 && !anyRecompute)
            delete sets[k];
        else
            series->append(sets[k]);
    }
    chart->addSeries(series);
    auto *axisX = new QBarCategoryAxis;
    axisX->append(categories);
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisX);
    auto *axisY = new QValueAxis;
    axisY->setTitleText(tr("GPU time (ms, summed over streams)"));
    axisY->setRange(0, maxMs > 0 ? maxMs * 1.05 : 1);
    axisY->setLabelFormat(QStringLiteral("%.3g"));
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisY);
    chart->setTitle(
        steps.empty() ? tr("No ProfilerStep#N in this trace") : tr("GPU time per ProfilerStep"));
    return chart;
}

QChart *ChartsView::buildScatter()
{
    auto *chart = new QChart;
    auto *series = new QScatterSeries;
    series->setName(tr("op group (forward, backward GPU time)"));
    series->setMarkerSize(9);
    series->setColor(kBackward);
    const auto &groups = m_groups->groups();
    double maxV = 0;
    std::vector<QString> labels;
    for (uint32_t i = 0; i < groups.size(); ++i) {
        if (!groups[i].paired)
            continue;
        const double x = toMs(groups[i].fwdGpu[0]);
        const double y = toMs(groups[i].bwdGpu[0]);
        series->append(x, y);
        labels.push_back(qs(m_groups->text(i, PairGroupTable::FwdName))
            + QStringLiteral(" ×%1").arg(groups[i].rows.size()));
        maxV = std::max({maxV, x, y});
    }
    chart->addSeries(series);
    auto *axisX = new QValueAxis;
    axisX->setTitleText(tr("forward GPU time (ms, total per group)"));
    auto *axisY = new QValueAxis;
    axisY->setTitleText(tr("backward GPU time (ms, total per group)"));
    for (QValueAxis *a : {axisX, axisY}) {
        a->setRange(0, maxV > 0 ? maxV * 1.05 : 1);
        a->setLabelFormat(QStringLiteral("%.3g"));
    }
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisX);
    series->attachAxis(axisY);
    // The diagonal backward = forward, and 2× (a backward usually costs about twice its forward).
    for (double factor : {1.0, 2.0}) {
        auto *diag = new QLineSeries;
        diag->setName(factor == 1.0 ? tr("backward = forward") : tr("backward = 2 × forward"));
        diag->append(0, 0);
        diag->append(maxV / std::max(1.0, factor), maxV / std::max(1.0, factor) * factor);
        QPen pen(QColor(120, 120, 120));
        pen.setStyle(factor == 1.0 ? Qt::DashLine : Qt::DotLine);
        diag->setPen(pen);
        chart->addSeries(diag);
        diag->attachAxis(axisX);
        diag->attachAxis(axisY);
    }
    connect(series, &QScatterSeries::hovered, this, [series, labels](const QPointF &p, bool on) {
        if (!on)
            return;
        const auto points = series->points();
        for (qsizetype i = 0; i < points.size(); ++i) {
            if (points[i] == p) {
                QToolTip::showText(QCursor::pos(),
                    QStringLiteral("%1\nforward %2 ms, backward %3 ms")
                        .arg(labels[size_t(i)])
                        .arg(p.x(), 0, 'f', 3)
                        .arg(p.y(), 0, 'f', 3));
                return;
            }
        }
    });
    chart->setTitle(tr("Backward vs forward GPU time per op group"));
    return chart;
}

} // namespace ks
