// SPDX-License-Identifier: MIT
#include "document/reporttimeline.h"

#include "common/selectioncontroller.h"
#include "timeline/timelineview.h"

#include <QPainter>

#include <algorithm>

namespace ks {

ReportTimeline ReportTimeline::record(
    const std::shared_ptr<const LoadedTrace> &trace, int step, int row)
{
    SelectionController selection(trace);
    TimelineView view(&selection);
    view.resize(kWidth, kMaxHeight);
    const OpGraph &g = *trace->graph;
    selection.select(g.representativeSlice(g.rows()[size_t(row)]));
    const ProfilerStep &s = g.steps()[size_t(step)];
    view.zoomToInterval(s.start, s.end); // after the selection, which frames the op alone
    ReportTimeline out;
    out.size
        = {kWidth, std::min(kMaxHeight, TimelineView::kRulerHeight + view.contentHeight() + 4)};
    view.resize(out.size);
    QPainter p(&out.picture);
    view.render(p, out.size);
    return out;
}

} // namespace ks
