// SPDX-License-Identifier: MIT
#include "trace/efficiencysections.h"

#include "base/unitstext.h"
#include "common/qstrings.h"
#include "common/timeformat.h"
#include "trace/rangesections.h"

#include <QCoreApplication>
#include <QTreeWidget>

namespace ks {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("EfficiencySections", text);
}

QString number(double v)
{
    return QString::number(v, 'g', 4);
}

//! "120.8 GFLOP": FLOPs with an SI prefix.
QString flopText(double flops)
{
    static const char *const kPrefixes[] = {"", "k", "M", "G", "T", "P"};
    size_t i = 0;
    while (flops >= 1000 && i + 1 < std::size(kPrefixes)) {
        flops /= 1000;
        ++i;
    }
    return tr("%1 %2FLOP").arg(number(flops), QLatin1String(kPrefixes[i]));
}

//! A row whose value, often longer than the panel, is in its tooltip too.
void addRow(QTreeWidgetItem *section, const QString &label, const QString &value)
{
    auto *item = new QTreeWidgetItem(section, {label, value});
    item->setToolTip(1, value);
}

QString peakText(const OpEfficiency &efficiency, const OpInstance &in)
{
    if (in.device < 0)
        return tr("the trace names no GPU: no roofline");
    const OpEfficiency::Device &d = efficiency.devices()[size_t(in.device)];
    if (!d.peaks)
        return tr("%1 is not in the peak table: add it with --peaks or File ▸ GPU Peaks File…")
            .arg(toQString(d.trace.name));
    const std::string spec = computeSpecOf(in.work.unit, in.work.dtype);
    const auto peak = d.peaks->tflops.find(spec);
    if (peak == d.peaks->tflops.end())
        return tr("%1 has no %2 peak").arg(toQString(d.trace.name), toQString(spec));
    return tr("%1: %2 %3 TFLOP/s, %4 GB/s (%5)")
        .arg(toQString(d.trace.name), toQString(spec))
        .arg(peak->second)
        .arg(d.peaks->memGBps)
        .arg(toQString(d.peaks->source));
}

//! What a kernel time of 0 means: no GPU work, or, in a trace read in part with no GPU event left
//! (LinkStats::gpuCutOff), a time unknown.
QString noKernelTime(bool gpuCutOff)
{
    return gpuCutOff ? tr("unknown: no GPU event survived the cut") : tr("no GPU work");
}

void addInstance(
    QTreeWidget &tree, const OpEfficiency &efficiency, const OpInstance &in, bool gpuCutOff)
{
    QTreeWidgetItem *s = addSection(tree,
        in.fromForwardShapes
            ? tr("Efficiency of its backward (%1, from these shapes)").arg(toQString(in.work.model))
            : tr("Efficiency (%1)").arg(toQString(in.work.model)));
    addRow(s, tr("formula"), toQString(in.work.formula));
    addRow(s, tr("FLOPs"), flopText(in.work.flops));
    addRow(s, tr("bytes moved"),
        in.work.bytes ? toQString(bytesText(*in.work.bytes))
                      : tr("unknown (dtype %1)").arg(toQString(in.work.dtype)));
    addRow(s, tr("kernel time"),
        in.kernelTime > 0 ? formatDuration(double(in.kernelTime)) : noKernelTime(gpuCutOff));
    if (in.rates.tflopsPerS)
        addRow(s, tr("achieved"),
            tr("%1 TFLOP/s, %2 TB/s")
                .arg(number(*in.rates.tflopsPerS),
                    in.rates.tbPerS ? number(*in.rates.tbPerS) : QStringLiteral("–")));
    if (in.rates.flopsPerByte)
        addRow(s, tr("intensity"), tr("%1 FLOP/byte").arg(number(*in.rates.flopsPerByte)));
    if (in.roofline)
        addRow(s, tr("roofline"),
            tr("%1 µs, %2-bound%3")
                .arg(number(in.roofline->us))
                .arg(in.roofline->computeBound ? tr("compute") : tr("memory"))
                .arg(in.roofline->pct ? tr(": %1 % of it reached").arg(*in.roofline->pct, 0, 'f', 1)
                                      : QString()));
    addRow(s, tr("peak"), peakText(efficiency, in));
}

QString sideText(const SideEfficiency &side, bool gpuCutOff)
{
    if (!side.modelled)
        return tr("no modelled op");
    if (gpuCutOff)
        return tr("%1; kernel time %2").arg(flopText(side.flops), noKernelTime(true));
    QString text
        = tr("%1 in %2").arg(flopText(side.flops), formatDuration(double(side.kernelTime)));
    if (const auto rate = side.tflopsPerS())
        text += tr(": %1 TFLOP/s").arg(number(*rate));
    if (const auto pct = side.pctRoofline())
        text += tr(", %1 % of roofline").arg(*pct, 0, 'f', 1);
    return text;
}

} // namespace

void addEfficiencySections(
    QTreeWidget &tree, const OpGraph &graph, const OpEfficiency &efficiency, SliceId op)
{
    const bool gpuCutOff = graph.stats().gpuCutOff;
    for (const OpInstance *in : efficiency.instancesOf(op))
        addInstance(tree, efficiency, *in, gpuCutOff);
    const int row = graph.rowOf(op);
    if (row < 0 || graph.rows()[size_t(row)].forward != op)
        return;
    const PairEfficiency &pair = efficiency.pairs()[size_t(row)];
    if (!pair.forward.modelled && !pair.backward.modelled)
        return;
    QTreeWidgetItem *s = addSection(tree, tr("Pair efficiency"));
    addRow(s, tr("forward"), sideText(pair.forward, gpuCutOff));
    addRow(s, tr("backward"), sideText(pair.backward, gpuCutOff));
}

} // namespace ks
