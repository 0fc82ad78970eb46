// SPDX-License-Identifier: MIT
#include "document/reporttimeline.h"

#include "common/selectioncontroller.h"
#include "report/reportcontent.h"
#include "timeline/timelineview.h"

#include <QPainter>

#include <algorithm>

namespace ks {

ReportTimeline::ReportTimeline(const std::shared_ptr<const LoadedTrace> &trace, int step, int row)
    : m_selection(std::make_unique<SelectionController>(trace))
    , m_view(std::make_unique<TimelineView>(m_selection.get()))
{
    m_view->resize(kWidth, kMaxHeight);
    const OpGraph &g = *trace->graph;
    m_selection->select(g.representativeSlice(g.rows()[size_t(row)]));
    const ProfilerStep &s = g.steps()[size_t(step)];
    m_view->zoomToInterval(s.start, s.end); // after the selection, which frames the op alone
    m_view->resize(size());
}

ReportTimeline::~ReportTimeline() = default;

QSize ReportTimeline::size() const
{
    return {kWidth, std::min(kMaxHeight, TimelineView::kRulerHeight + m_view->contentHeight() + 4)};
}

void ReportTimeline::paint(QPainter &p) const
{
    m_view->render(p, size());
}

} // namespace ks
