// SPDX-License-Identifier: MIT
#include "run/runcharts.h"

#include "analysis/time/gputime.h"
#include "common/barhover.h"
#include "common/chartaxis.h"
#include "common/palette.h"
#include "common/qstrings.h"
#include "common/timeformat.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>

namespace ks {

namespace {

//! A bar's value, in µs, as a duration.
QString microsecondsText(double us)
{
    return formatDuration(us * 1000.0);
}

QStringList rankCategories(const Run &run)
{
    QStringList out;
    for (const RankTrace &r : run.ranks)
        out << RunCharts::tr("rank %1").arg(r.rank);
    return out;
}

//! One bar of the breakdown chart: a rank's whole trace, or one of its steps.
struct BreakdownBar {
    QString label;
    GpuTimeBreakdown time;
};

/*!
 * Bars per rank and step ("r0 · #10") while that stays readable (up to kMaxStepBars), else one
 * per rank: the steps show which iteration of which rank waited.
 */
std::vector<BreakdownBar> breakdownBars(const Run &run, bool &perStep)
{
    constexpr size_t kMaxStepBars = 24;
    size_t steps = 0;
    for (const auto &source : run.sources)
        steps += source->stepGpuTime.size();
    std::vector<BreakdownBar> bars;
    perStep = steps > 0 && steps <= kMaxStepBars;
    for (const auto &source : run.sources) {
        const int rank = source->summary.rank;
        if (!perStep)
            bars.push_back(
                {(source->summary.gpuUnknown ? RunCharts::tr("rank %1 (GPU work missing)")
                                             : RunCharts::tr("rank %1"))
                        .arg(rank),
                    gpuTimeOfFields(source->summary.gpuTime)});
        else
            for (const StepGpuTime &s : source->stepGpuTime)
                bars.push_back(
                    {(source->summary.gpuUnknown ? RunCharts::tr("r%1 · #%2 (GPU missing)")
                                                 : RunCharts::tr("r%1 · #%2"))
                            .arg(rank)
                            .arg(s.step),
                        s.time});
    }
    return bars;
}

//! Puts \a series on a chart with \a categories below and µs on the left.
QChart *barChart(
    QAbstractBarSeries *series, const QStringList &categories, const QString &title, double maxUs)
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    // "r0 · #10" whole: turned upright where too many stand side by side.
    x->setTruncateLabels(false);
    constexpr int kLevelLabels = 8;
    if (categories.size() > kLevelLabels)
        x->setLabelsAngle(-90);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto *y = new QValueAxis;
    y->setTitleText(RunCharts::tr("GPU time (µs)"));
    setRoundTicks(y, maxUs);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

//! Shows \a chart in \a view; the chart it showed before is released to us, so deleted.
void replaceChart(QChartView *view, QChart *chart)
{
    QChart *old = view->chart();
    view->setChart(chart);
    delete old;
}

} // namespace

RunCharts::RunCharts(std::shared_ptr<const Run> run, QWidget *parent)
    : QWidget(parent)
    , m_run(std::move(run))
    , m_breakdown(new QChartView(this))
    , m_pair(new QChartView(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_breakdown);
    layout->addWidget(m_pair);
    m_breakdown->setRenderHint(QPainter::Antialiasing);
    m_pair->setRenderHint(QPainter::Antialiasing);

    const QString names[]
        = {tr("Computation"), tr("Exposed comm"), tr("Exposed memcpy"), tr("Idle")};
    const QColor colors[] = {workColor(WorkPart::Computation), workColor(WorkPart::Communication),
        workColor(WorkPart::Memcpy), workColor(WorkPart::Idle)};
    QBarSet *sets[4];
    for (int k = 0; k < 4; ++k) {
        sets[k] = new QBarSet(names[k]);
        sets[k]->setColor(colors[k]);
    }
    double maxUs = 0;
    QStringList categories;
    bool perStep = false;
    const std::vector<BreakdownBar> bars = breakdownBars(*m_run, perStep);
    for (const BreakdownBar &bar : bars) {
        const GpuTimeBreakdown &b = bar.time;
        const TimeNs parts[4] = {b.computation, b.exposedComm, b.exposedMemcpy, b.idle};
        for (int k = 0; k < 4; ++k)
            *sets[k] << double(parts[k]) / 1000.0;
        maxUs = std::max(maxUs, double(b.total) / 1000.0);
        categories << bar.label;
    }
    auto *series = new QStackedBarSeries;
    for (QBarSet *s : sets)
        series->append(s);
    showBarToolTips(series, categories, microsecondsText);
    replaceChart(m_breakdown,
        barChart(series, categories,
            perStep ? tr("GPU time per rank and step (work launched in the step)")
                    : tr("GPU time per rank (whole trace)"),
            maxUs));
    showLegendTips(series,
        {tr("GPU kernels other than communication and memcpy"),
            tr("communication not under computation"), tr("memcpy not under other work"),
            tr("no GPU work")});
    setPair(-1);
}

std::unique_ptr<RunCharts> RunCharts::exportCopy() const
{
    auto copy = std::make_unique<RunCharts>(m_run);
    copy->setPair(m_pairIndex);
    copy->setAttribute(Qt::WA_DontShowOnScreen);
    copy->resize(kExportSize);
    copy->show();
    copy->layout()->activate(); // the export renders it before any event loop runs
    return copy;
}

void RunCharts::setPair(int pairIndex)
{
    m_pairIndex = pairIndex;
    auto *fwd = new QBarSet(tr("Forward GPU"));
    auto *bwd = new QBarSet(tr("Backward GPU"));
    fwd->setColor(workColor(WorkPart::Forward));
    bwd->setColor(workColor(WorkPart::Backward));
    double maxUs = 0;
    QString title = tr("Select a pair to compare its GPU time across ranks");
    if (pairIndex >= 0) {
        const RankPair &p = m_run->pairs.pairs[size_t(pairIndex)];
        for (size_t i = 0; i < m_run->ranks.size(); ++i) {
            *fwd << double(p.forwardGpu[i]) / 1000.0;
            *bwd << double(p.backwardGpu[i]) / 1000.0;
            maxUs = std::max(
                {maxUs, double(p.forwardGpu[i]) / 1000.0, double(p.backwardGpu[i]) / 1000.0});
        }
        const std::string &forward = m_run->firstPairRows[size_t(p.rows[0])][0];
        const QString name = forward.empty() ? tr("(backward only)") : toQString(forward);
        // The slowest rank first: it is what the chart is there to show (a long op name
        // elided it at the end). A spread needs two ranks whose GPU times are known.
        title = p.ranksTimed < 2 ? tr("No two ranks timed, no spread: %1 on each rank").arg(name)
                                 : tr("Slowest rank %1, backward spread %2: %3 on each rank")
                                       .arg(m_run->ranks[p.slowestRankIndex].rank)
                                       .arg(formatDuration(double(p.backwardSpread)), name);
    }
    auto *series = new QBarSeries;
    series->append(fwd);
    series->append(bwd);
    showBarToolTips(series, rankCategories(*m_run), microsecondsText);
    replaceChart(m_pair, barChart(series, rankCategories(*m_run), title, maxUs));
}

} // namespace ks
