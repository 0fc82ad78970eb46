// SPDX-License-Identifier: MIT
#include "timeline/timelinetooltips.h"

#include "analysis/memory/memoryindex.h"
#include "common/qstrings.h"
#include "common/timeformat.h"
#include "link/gpuside.h"
#include "model/slicewalk.h"

#include <algorithm>
#include <cstdlib>

namespace ks {

TimelineToolTips::TimelineToolTips(
    const TraceModel &model, const OpGraph &graph, const TraceCurves &curves)
    : m_model(model)
    , m_graph(graph)
    , m_curves(curves)
{
}

QString TimelineToolTips::slice(SliceId s) const
{
    const SliceTable &t = m_model.slices;
    QString html
        = QStringLiteral("<b>%1</b><br>").arg(toQString(m_model.sliceName(s)).toHtmlEscaped());
    html += tr("category: %1<br>start: %2<br>duration: %3")
                .arg(toQString(m_model.str(t.category[s])).toHtmlEscaped(),
                    formatDuration(double(t.start[s] - m_model.minTime)),
                    formatDuration(double(t.dur[s])));
    if (t.inputDims[s] != 0)
        html
            += tr("<br>input dims: %1").arg(toQString(m_model.str(t.inputDims[s])).toHtmlEscaped());
    if (t.sequence[s] != kNoValue)
        html += tr("<br>sequence number: %1").arg(t.sequence[s]);
    const GpuTotals gpu = m_graph.gpuTotalsUnder(s);
    if (gpu.count > 0)
        html += tr("<br>GPU: %1 events, %2").arg(gpu.count).arg(formatDuration(double(gpu.time)));
    html += stepAndPair(s);
    const std::vector<SliceId> stack = ks::pythonStack(m_model, s);
    if (!stack.empty() && stack.front() != s)
        html += tr("<br>called from %1")
                    .arg(toQString(m_model.sliceName(stack.front())).toHtmlEscaped());
    return html;
}

QString TimelineToolTips::stepAndPair(SliceId s) const
{
    const SliceTable &t = m_model.slices;
    const bool device = isDeviceKind(t.kind[s]);
    const SliceId launch = device ? m_graph.launchOf(s) : s; // GPU work: by its launch
    QString html;
    if (launch != kNoSlice) {
        if (const int64_t step = m_graph.stepAt(t.start[launch]); step != kNoValue)
            html += tr("<br>step: ProfilerStep#%1").arg(step);
    }
    const OpGraph::RowSide row = m_graph.rowSideOf(s);
    if (row.row >= 0) {
        const PairRow &pair = m_graph.rows()[size_t(row.row)];
        const SliceId forward
            = pair.forward != kNoSlice ? pair.forward : m_graph.representativeSlice(pair);
        html += tr("<br>pair: %1 (%2 side): forward GPU %3, backward GPU %4")
                    .arg(toQString(m_model.sliceName(forward)).toHtmlEscaped(),
                        row.forward ? tr("forward") : tr("backward"),
                        formatDuration(double(pair.forwardGpu.time)),
                        formatDuration(double(pair.backwardGpu.time)));
    }
    if (device)
        html += tr("<br>side: %1").arg(toQString(gpuSideName(gpuSideOfLaunch(m_graph, launch))));
    return html;
}

QString TimelineToolTips::pythonStack(SliceId frame, bool folded) const
{
    // Innermost first, as Python prints a traceback's last lines; the outermost frames of a
    // deep stack (the script, the trainer loop) are the least telling and go first.
    constexpr size_t kShown = 25;
    const std::vector<SliceId> stack = ks::pythonStack(m_model, frame);
    QString html = tr("<b>Python stack</b> (innermost first; click to %1)")
                       .arg(folded ? tr("unfold") : tr("fold"));
    for (size_t i = 0; i < std::min(kShown, stack.size()); ++i)
        html
            += QStringLiteral("<br>%1").arg(toQString(m_model.sliceName(stack[i])).toHtmlEscaped());
    if (stack.size() > kShown)
        html += tr("<br>… %n more", nullptr, int(stack.size() - kShown));
    return html;
}

QString TimelineToolTips::curvePoint(size_t curve, int64_t point) const
{
    const CurveTrack &track = m_curves.tracks[curve];
    const Curve &first = track.curves[0];
    const TimeNs t = first.times()[size_t(point)];
    const bool memory = track.kind == CurveTrack::Kind::Memory;
    QString html = QStringLiteral("<b>%1</b><br>").arg(toQString(track.label).toHtmlEscaped());
    html += tr("at %1").arg(formatDuration(double(t - m_model.minTime)));
    for (size_t i = 0; i < track.curves.size(); ++i) {
        const Curve &c = track.curves[i];
        const int64_t at = c.pointAt(t);
        if (at < 0)
            continue;
        const double v = c.values()[size_t(at)];
        html += QStringLiteral("<br>%1: %2")
                    .arg(toQString(track.curveNames[i]).toHtmlEscaped(),
                        memory ? formatBytes(v) : QString::number(v, 'g', 6));
    }
    if (memory) {
        const uint32_t e = track.events[size_t(point)];
        const int64_t bytes = m_model.memory.bytes[e];
        if (bytes != kNoValue)
            html += tr("<br>%1 %2")
                        .arg(bytes < 0 ? tr("freed") : tr("allocated"),
                            formatBytes(double(std::abs(bytes))));
        const SliceId op = memoryEventOp(m_model, e);
        if (op != kNoSlice)
            html += tr("<br>by %1 (click to select)")
                        .arg(toQString(m_model.sliceName(op)).toHtmlEscaped());
    }
    return html;
}

} // namespace ks
