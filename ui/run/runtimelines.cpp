// SPDX-License-Identifier: MIT
#include "run/runtimelines.h"

#include "analysis/criticalpath/pathchain.h"
#include "common/selectioncontroller.h"
#include "run/collectivebands.h"
#include "run/ranklines.h"
#include "timeline/alignedtimelines.h"
#include "timeline/timelineview.h"

#include <QEvent>
#include <QFileInfo>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ks {

namespace {
QString rankTitle(const RankTrace &r, const OpGraph &graph)
{
    return RunTimelines::tr("Rank %1 · %2 · %n step(s)", nullptr, int(graph.steps().size()))
        .arg(r.rank)
        .arg(QFileInfo(QString::fromStdString(r.file)).fileName());
}
} // namespace

RunTimelines::RunTimelines(std::shared_ptr<const Run> run, QWidget *parent)
    : QWidget(parent)
    , m_run(std::move(run))
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    m_oneLine = new QToolButton(this);
    m_oneLine->setObjectName(QStringLiteral("oneLinePerRank"));
    m_oneLine->setText(tr("One Line per Rank"));
    m_oneLine->setToolTip(tr("Each rank's GPU work as one line coloured by kind, collectives as "
                             "bands; double-click a rank for its full timeline"));
    m_oneLine->setCheckable(true);
    m_oneLine->setAutoRaise(true);
    outer->addWidget(m_oneLine, 0, Qt::AlignLeft);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);
    m_scroll = new QScrollArea(m_stack);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_stack->addWidget(m_scroll);
    connect(m_oneLine, &QToolButton::toggled, this, &RunTimelines::setOneLinePerRank);
    m_content = new QWidget;
    auto *layout = new QVBoxLayout(m_content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    std::vector<TimelineView *> views;
    std::vector<double> anchors;
    for (size_t i = 0; i < m_run->ranks.size(); ++i) {
        const RankTrace &r = m_run->ranks[i];
        RankGroup g;
        g.header = new QToolButton(m_content);
        g.header->setObjectName(QStringLiteral("rankHeader%1").arg(r.rank));
        g.header->setText(rankTitle(r, *r.graph));
        g.header->setToolTip(QString::fromStdString(r.file));
        g.header->setCheckable(true);
        g.header->setChecked(true);
        g.header->setArrowType(Qt::DownArrow);
        g.header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        g.header->setAutoRaise(true);
        g.header->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        g.selection = new SelectionController(m_run->sources[i]->trace, this);
        g.timeline = new TimelineView(g.selection, m_content);
        g.timeline->setObjectName(QStringLiteral("rankTimeline%1").arg(r.rank));
        // Host threads one row high, so that each rank's GPU streams (where the collectives
        // run) show without scrolling; a click on a thread's arrow opens it.
        const TraceModel &model = r.graph->model();
        for (LaneId lane = 0; lane < model.lanes.size(); ++lane) {
            if (!model.lanes[lane].device)
                g.timeline->setLaneCollapsed(lane, true);
        }
        g.timeline->setFixedHeight(
            std::clamp(g.timeline->contentHeight() + TimelineView::kRulerHeight + 4, 140, 420));
        layout->addWidget(g.header);
        layout->addWidget(g.timeline);
        connect(g.header, &QToolButton::toggled, this,
            [this, i](bool open) { setRankCollapsed(i, !open); });
        connect(g.selection, &SelectionController::selectionChanged, this,
            [this, i](SliceId s) { followSelection(i, s); });
        views.push_back(g.timeline);
        // A view shows ns from its trace's start; the run clock is that plus start + offset.
        anchors.push_back(-double(r.graph->model().minTime + r.clockOffset));
        m_ranks.push_back(g);
    }
    layout->addStretch(1);
    m_scroll->setWidget(m_content);

    m_pairOfRow.resize(m_run->ranks.size());
    for (size_t i = 0; i < m_run->ranks.size(); ++i)
        m_pairOfRow[i].assign(m_run->ranks[i].graph->rows().size(), -1);
    for (size_t p = 0; p < m_run->pairs.pairs.size(); ++p) {
        const RankPair &pair = m_run->pairs.pairs[p];
        for (size_t i = 0; i < pair.rows.size(); ++i) {
            if (pair.rows[i] >= 0)
                m_pairOfRow[i][size_t(pair.rows[i])] = int(p);
        }
    }

    m_bands = new CollectiveBands(*m_run, views, m_content);
    m_bands->raise();
    m_content->installEventFilter(this);
    for (TimelineView *v : views)
        connect(v, &TimelineView::rangeChanged, m_bands, qOverload<>(&QWidget::update));
    connect(m_scroll->verticalScrollBar(), &QScrollBar::valueChanged, m_bands,
        qOverload<>(&QWidget::update));
    m_aligned = std::make_unique<AlignedTimelines>(views);
    m_aligned->setAnchors(anchors);

    // Every rank may show the run's whole extent, and labels times on the run's clock.
    TimeNs from = 0, to = 0;
    for (size_t i = 0; i < m_run->ranks.size(); ++i) {
        const TraceModel &m = m_run->ranks[i].graph->model();
        const TimeNs a = m_run->ranks[i].runTime(m.minTime), b = m_run->ranks[i].runTime(m.maxTime);
        from = i == 0 ? a : std::min(from, a);
        to = i == 0 ? b : std::max(to, b);
    }
    for (size_t i = 0; i < views.size(); ++i) {
        views[i]->setExtent(double(from) + anchors[i], double(to) + anchors[i]);
        views[i]->setRulerOrigin(-anchors[i]);
        m_ranks[i].selection->setRunClock(-anchors[i]);
    }
    showRunRange(from, to);
}

RunTimelines::~RunTimelines() = default;

void RunTimelines::setOneLinePerRank(bool on)
{
    if (m_oneLine->isChecked() != on)
        m_oneLine->setChecked(on); // comes back here through toggled()
    if (on && !m_lines) {
        m_lines = new RankLines(m_run, m_stack);
        m_lines->setCurrentCollective(currentCollective());
        m_stack->addWidget(m_lines);
        // The full timelines follow the lines' range, so switching back shows the same time.
        connect(m_lines, &RankLines::rangeChanged, this,
            [this] { m_aligned->show(m_lines->rangeStart(), m_lines->rangeSpan()); });
        connect(m_lines, &RankLines::rankActivated, this, [this](size_t rankIndex) {
            setOneLinePerRank(false);
            scrollToRank(rankIndex);
        });
    }
    if (on)
        m_lines->setRange(m_aligned->relativeStart(0), m_ranks[0].timeline->rangeSpan());
    m_stack->setCurrentWidget(on ? static_cast<QWidget *>(m_lines) : m_scroll);
}

bool RunTimelines::oneLinePerRank() const
{
    return m_oneLine->isChecked();
}

bool RunTimelines::eventFilter(QObject *watched, QEvent *event)
{
    // The bands cover the scrolled content, whatever size the scroll area gives it.
    if (watched == m_content && event->type() == QEvent::Resize)
        m_bands->setGeometry(m_content->rect());
    return QWidget::eventFilter(watched, event);
}

void RunTimelines::setRankCollapsed(size_t rankIndex, bool collapsed)
{
    RankGroup &g = m_ranks[rankIndex];
    g.timeline->setVisible(!collapsed);
    g.header->setArrowType(collapsed ? Qt::RightArrow : Qt::DownArrow);
    if (g.header->isChecked() == collapsed)
        g.header->setChecked(!collapsed);
    m_bands->update();
}

bool RunTimelines::rankCollapsed(size_t rankIndex) const
{
    return !m_ranks[rankIndex].header->isChecked();
}

void RunTimelines::scrollToRank(size_t rankIndex)
{
    setRankCollapsed(rankIndex, false);
    m_content->layout()->activate();
    m_scroll->verticalScrollBar()->setValue(m_ranks[rankIndex].header->y());
}

void RunTimelines::showRunRange(TimeNs from, TimeNs to)
{
    const double span = std::max(double(to - from), 1000.0);
    m_aligned->show(double(from) - span * 0.02, span * 1.04);
    if (m_lines)
        m_lines->setRange(double(from) - span * 0.02, span * 1.04);
    m_bands->update();
}

SliceId RunTimelines::pairSlice(size_t pairIndex, size_t rankIndex, bool backwardSide) const
{
    const int64_t row = m_run->pairs.pairs[pairIndex].rows[rankIndex];
    if (row < 0)
        return kNoSlice;
    const OpGraph &graph = *m_run->ranks[rankIndex].graph;
    const PairRow &r = graph.rows()[size_t(row)];
    const auto nodes = graph.nodesOf(r);
    if ((backwardSide || r.forward == kNoSlice) && !nodes.empty())
        return graph.nodes()[nodes.front()].outer;
    return r.forward;
}

void RunTimelines::followSelection(size_t rankIndex, SliceId slice)
{
    if (m_following)
        return;
    const OpGraph &graph = *m_run->ranks[rankIndex].graph;
    const int row = slice == kNoSlice ? -1 : graph.rowOf(slice);
    const int pair = row < 0 ? -1 : m_pairOfRow[rankIndex][size_t(row)];
    m_following = true;
    for (size_t i = 0; i < m_ranks.size(); ++i) {
        if (i != rankIndex)
            m_ranks[i].selection->select(
                pair < 0 ? kNoSlice : pairSlice(size_t(pair), i, !graph.isForwardSide(slice)));
    }
    m_following = false;
    if (pair != m_currentPair) {
        m_currentPair = pair;
        emit pairChanged(pair);
    }
}

void RunTimelines::selectPair(size_t pairIndex)
{
    m_following = true;
    TimeNs from = 0, to = 0;
    bool any = false;
    for (size_t i = 0; i < m_ranks.size(); ++i) {
        const SliceId fwd = pairSlice(pairIndex, i, false);
        const SliceId bwd = pairSlice(pairIndex, i, true);
        m_ranks[i].selection->select(fwd);
        const SliceTable &t = m_run->ranks[i].graph->model().slices;
        for (SliceId s : {fwd, bwd}) {
            if (s == kNoSlice)
                continue;
            const TimeNs a = m_run->ranks[i].runTime(t.start[s]);
            const TimeNs b = m_run->ranks[i].runTime(t.end(s));
            from = any ? std::min(from, a) : a;
            to = any ? std::max(to, b) : b;
            any = true;
        }
    }
    m_following = false;
    if (any)
        showRunRange(from, to);
    if (int(pairIndex) != m_currentPair) {
        m_currentPair = int(pairIndex);
        emit pairChanged(m_currentPair);
    }
}

void RunTimelines::setCurrentCollective(int index)
{
    m_bands->setCurrent(index);
    if (m_lines)
        m_lines->setCurrentCollective(index);
    if (index < 0)
        return;
    const Collective &c = m_run->collectives.collectives[size_t(index)];
    for (RankGroup &g : m_ranks)
        g.timeline->setHighlight({});
    for (const CollectiveKernel &k : c.kernels)
        m_ranks[k.rankIndex].timeline->setHighlight({k.kernel});
    // The Details panel follows rank 0: its kernel of the collective is selected there, on its
    // own (the pair it was launched in is not selected across the ranks).
    if (!c.kernels.empty() && c.kernels.front().rankIndex == 0) {
        m_following = true;
        m_ranks[0].selection->select(c.kernels.front().kernel);
        m_following = false;
    }
    TimeNs end = c.lastStart;
    for (const CollectiveKernel &k : c.kernels)
        end = std::max(end, k.start + k.dur);
    const TimeNs pad = (end - c.firstStart) / 4;
    showRunRange(c.firstStart - pad, end + pad);
}

int RunTimelines::currentCollective() const
{
    return m_bands->current();
}

void RunTimelines::showCriticalPath(bool on)
{
    if (!on && !m_pathShown)
        return; // another highlight (a collective's) stays
    m_pathShown = on;
    const auto analysis = m_run->criticalPath();
    PathChain chain = on ? pathChain(*analysis) : PathChain {};
    chain.steps.resize(m_ranks.size());
    for (size_t r = 0; r < m_ranks.size(); ++r) {
        std::vector<SliceId> events;
        for (const ChainStep &s : chain.steps[r])
            events.push_back(s.event);
        m_ranks[r].timeline->setHighlight(std::move(events));
        m_ranks[r].timeline->setPathChain(std::move(chain.steps[r]));
    }
    m_bands->setPathHops(std::move(chain.hops));
    const auto &segments = analysis->path().segments;
    if (!on || segments.empty())
        return;
    // Segments are in their ranks' model times; the range is on the run's clock.
    const TimeNs start = m_run->ranks[segments.front().rank].runTime(segments.front().start);
    TimeNs end = start;
    for (const PathSegment &s : segments)
        end = std::max(end, m_run->ranks[s.rank].runTime(s.start + s.dur));
    const TimeNs pad = (end - start) / 50;
    showRunRange(start - pad, end + pad);
}

} // namespace ks
