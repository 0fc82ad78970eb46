// SPDX-License-Identifier: MIT
#include "trace/rooflinechart.h"

#include "common/palette.h"
#include "common/qstrings.h"
#include "common/timeformat.h"

#include <QChart>
#include <QCoreApplication>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>

namespace ks {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("RooflineChart", text);
}

//! The power of ten at or below \a v, and at or above.
double decadeBelow(double v)
{
    return std::pow(10.0, std::floor(std::log10(v)));
}
double decadeAbove(double v)
{
    return std::pow(10.0, std::ceil(std::log10(v)));
}

QLogValueAxis *logAxis(const QString &title, double low, double high)
{
    auto *axis = new QLogValueAxis;
    axis->setTitleText(title);
    axis->setBase(10);
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setRange(decadeBelow(low), decadeAbove(high));
    axis->setMinorTickCount(-1);
    return axis;
}

void addCeilings(
    QChart *chart, const RooflineCeilings &ceilings, QLogValueAxis *x, QLogValueAxis *y)
{
    const double tbPerS = ceilings.memGBps / 1e3;
    int shade = 0;
    for (const RooflineCeiling &c : ceilings.compute) {
        auto *line = new QLineSeries;
        line->setName(tr("%1: %2 TFLOP/s").arg(toQString(c.spec)).arg(c.tflops));
        const double ridge = c.tflops / tbPerS; // where the bandwidth slope meets the peak
        line->append(x->min(), std::max(x->min() * tbPerS, y->min()));
        line->append(ridge, c.tflops);
        line->append(x->max(), c.tflops);
        QPen pen(QColor(60 + 60 * shade, 60 + 60 * shade, 60 + 60 * shade));
        pen.setWidthF(1.5);
        pen.setStyle(shade == 0 ? Qt::SolidLine : Qt::DashLine);
        line->setPen(pen);
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
        shade = std::min(shade + 1, 2);
    }
}

/*!
 * The groups \a offScale picks, on the edge of the axes \a x, \a y they fall below, as hollow
 * triangles: "off the scale" in the legend; their tooltips give their own values.
 */
template<typename OffScale>
void addOffScalePoints(
    QChart *chart, RooflinePlot &plot, QLogValueAxis *x, QLogValueAxis *y, OffScale offScale)
{
    auto *series = new QScatterSeries;
    std::vector<size_t> behind;
    for (size_t i = 0; i < plot.groups.size(); ++i) {
        const EfficiencyGroup &g = plot.groups[i];
        if (!offScale(g))
            continue;
        series->append(std::max(g.intensity(), x->min()), std::max(g.tflopsPerS(), y->min()));
        behind.push_back(i);
    }
    if (behind.empty()) {
        delete series;
        return;
    }
    series->setName(QCoreApplication::translate(
        "RooflineChart", "%n off the scale (on its edge)", nullptr, int(behind.size())));
    series->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    series->setMarkerSize(10);
    series->setColor(Qt::white);
    series->setBorderColor(QColor(90, 90, 90));
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    plot.points.emplace_back(series, std::move(behind));
}

QString sideLabel(OpSide side)
{
    switch (side) {
    case OpSide::Forward:
        return tr("forward ops");
    case OpSide::Backward:
        return tr("backward ops");
    default:
        return tr("other ops (recompute, outside any pair)");
    }
}

QColor sideColor(OpSide side)
{
    switch (side) {
    case OpSide::Forward:
        return workColor(WorkPart::Forward);
    case OpSide::Backward:
        return workColor(WorkPart::Backward);
    default:
        return workColor(WorkPart::Other);
    }
}

} // namespace

QString rooflineTooltip(const EfficiencyGroup &g, const TraceModel &model)
{
    QString text = tr("%1 %2 %3 ×%4\n%5 TFLOP/s, %6 FLOP/B, kernel time %7")
                       .arg(toQString(model.str(g.name)), toQString(model.str(g.inputDims)),
                           toQString(sideName(g.side)))
                       .arg(g.count)
                       .arg(g.tflopsPerS(), 0, 'g', 4)
                       .arg(g.intensity(), 0, 'g', 4)
                       .arg(formatDuration(double(g.kernelTime)));
    if (const std::optional<double> pct = g.pctRoofline())
        text += tr("\n%1 % of roofline (%2-bound)")
                    .arg(*pct, 0, 'f', 1)
                    .arg(g.computeBound ? tr("compute") : tr("memory"));
    return text;
}

RooflinePlot buildRooflinePlot(const OpEfficiency &efficiency, const TraceModel &model)
{
    RooflinePlot plot;
    plot.groups = efficiencyGroups(efficiency, model);
    if (plot.groups.empty()) {
        plot.headline = tr("No roofline: no modelled op with shapes and GPU time");
        plot.message = tr("The roofline needs the shapes of matmuls, convolutions, attention and "
                          "other modelled ops: profile with record_shapes=True. "
                          "docs/efficiency.md lists the ops.");
        return plot;
    }
    const RooflineCeilings ceilings = rooflineCeilings(efficiency, plot.groups);
    double minX = INFINITY, maxX = 0, minY = INFINITY, maxY = 0;
    for (const EfficiencyGroup &g : plot.groups) {
        minX = std::min(minX, g.intensity());
        maxX = std::max(maxX, g.intensity());
        minY = std::min(minY, g.tflopsPerS());
        maxY = std::max(maxY, g.tflopsPerS());
    }
    for (const RooflineCeiling &c : ceilings.compute) {
        maxY = std::max(maxY, c.tflops);
        maxX = std::max(maxX, c.tflops / (ceilings.memGBps / 1e3));
    }
    auto *chart = new QChart;
    // Five decades below the top at most: a scalar add of one FLOP would squash the plot; such
    // points sit on the edge, marked as off the scale.
    auto *x
        = logAxis(tr("arithmetic intensity (FLOP/byte)"), std::max(minX, maxX * 1e-5), maxX * 2);
    auto *y = logAxis(tr("achieved TFLOP/s"), std::max(minY, maxY * 1e-5), maxY * 1.5);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    addCeilings(chart, ceilings, x, y);
    // Points below the axes' range sit on their edge in a series of their own: never drawn as
    // if they had the edge's value.
    auto offScale = [&](const EfficiencyGroup &g) {
        return g.intensity() < x->min() || g.tflopsPerS() < y->min();
    };
    for (OpSide side : {OpSide::Forward, OpSide::Backward, OpSide::Other}) {
        auto *series = new QScatterSeries;
        series->setName(sideLabel(side));
        series->setColor(sideColor(side));
        series->setBorderColor(sideColor(side).darker(130));
        series->setMarkerSize(side == OpSide::Other ? 7 : 9);
        if (side == OpSide::Backward)
            series->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        std::vector<size_t> behind;
        for (size_t i = 0; i < plot.groups.size(); ++i) {
            const EfficiencyGroup &g = plot.groups[i];
            const bool other = g.side != OpSide::Forward && g.side != OpSide::Backward;
            if ((g.side != side && !(side == OpSide::Other && other)) || offScale(g))
                continue;
            series->append(g.intensity(), g.tflopsPerS());
            behind.push_back(i);
        }
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        if (behind.empty()) // an inference trace has no forward or backward side: no legend entry
            for (QLegendMarker *marker : chart->legend()->markers(series))
                marker->setVisible(false);
        plot.points.emplace_back(series, std::move(behind));
    }
    addOffScalePoints(chart, plot, x, y, offScale);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries); // each line its own pattern
    const QString device = toQString(ceilings.deviceName);
    chart->setTitle(ceilings.device
            ? tr("Roofline of %1 (%2 GB/s; peaks: %3)")
                  .arg(device)
                  .arg(ceilings.memGBps)
                  .arg(toQString(ceilings.device->source).section(QLatin1Char(','), 0, 0))
            : device.isEmpty()
            ? tr("Roofline: the trace names no GPU (no deviceProperties), so no ceilings")
            : tr("Roofline: %1 is not in the peak table, so no ceilings (add it with --peaks or "
                 "File ▸ GPU Peaks File…)")
                  .arg(device));
    plot.chart = chart;
    return plot;
}

} // namespace ks
