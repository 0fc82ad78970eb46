// SPDX-License-Identifier: MIT
#include "timeline/timelineview.h"

#include "common/qstrings.h"
#include "common/timeformat.h"
#include "model/slicewalk.h"
#include "timeline/arrowpainter.h"
#include "timeline/calloutpainter.h"
#include "timeline/chainpainter.h"
#include "timeline/curvepainter.h"
#include "timeline/firstlayout.h"
#include "timeline/foldmemory.h"
#include "timeline/lanelabelpainter.h"
#include "timeline/paintframe.h"
#include "timeline/rulerpainter.h"
#include "timeline/selectionlinks.h"
#include "timeline/slicefinder.h"
#include "timeline/slicepainter.h"
#include "timeline/timegestures.h"
#include "timeline/timelinehits.h"
#include "timeline/timelinetooltips.h"
#include "timeline/trackgeometry.h"
#include "timeline/tracklayout.h"
#include "timeline/trackmenu.h"
#include "timeline/zoomcontrol.h"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace ks {

namespace {

using timeline::TimeAxis;

} // namespace

TimelineView::TimelineView(SelectionController *selection, QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_trace(selection->tracePointer())
    , m_model(*m_trace->model)
    , m_graph(*m_trace->graph)
    , m_index(&selection->trace().timelineIndex())
    , m_curves(selection->trace().curves())
    , m_toolTips(std::make_unique<TimelineToolTips>(m_model, m_graph, m_curves))
    , m_layout(std::make_unique<TrackLayout>(m_model, *m_index, m_curves))
    , m_geometry(std::make_unique<TrackGeometry>(m_model, *m_index))
    , m_links(std::make_unique<SelectionLinks>(m_model, m_graph))
    , m_finder(std::make_unique<SliceFinder>(m_model))
    , m_slicePainter(std::make_unique<SlicePainter>(m_model, *m_layout, *m_geometry))
    , m_arrowPainter(std::make_unique<ArrowPainter>(m_model, m_graph, *m_layout))
    , m_calloutPainter(std::make_unique<CalloutPainter>(m_model, *m_layout))
    , m_chainPainter(std::make_unique<ChainPainter>(m_model, *m_layout))
    , m_curvePainter(std::make_unique<CurvePainter>(m_graph, m_curves, *m_layout))
    , m_labelPainter(std::make_unique<LaneLabelPainter>(*m_layout))
    , m_hits(std::make_unique<TimelineHits>(m_model, *m_index, *m_layout, m_curves))
    , m_zoom(new ZoomControl(double(m_model.maxTime - m_model.minTime), this))
    , m_scrollBar(new QScrollBar(Qt::Vertical, this))
    , m_gestures(std::make_unique<TimeGestures>(
          m_zoom,
          kLabelWidth,
          kRowHeight,
          [this] { return m_scrollBar->value(); },
          [this](int y) { m_scrollBar->setValue(y); }))
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(400, 200);
    if (const auto folds = foldmemory::load(QString::fromStdString(m_model.path)))
        m_layout->restore(*folds);
    else
        m_fitPending = true;
    m_layout->setPythonHidden(foldmemory::pythonHidden());
    m_layout->setGraphsCompacted(foldmemory::graphsCompacted());
    syncScrollBar();
    connect(m_zoom, &ZoomControl::rangeChanged, this, [this] {
        update();
        emit rangeChanged();
    });
    connect(m_scrollBar, &QScrollBar::valueChanged, this, [this](int v) {
        m_scrollY = v;
        update();
    });
    connect(m_selection, &SelectionController::selectionChanged, this, [this](SliceId s) {
        // A click here selects what the user already sees: the view stays where it is.
        if (s != kNoSlice && !m_clicking)
            revealSlice(s);
        update();
    });
}

TimelineView::~TimelineView() = default;

// ---- range and layout -------------------------------------------------------------------

double TimelineView::rangeStart() const
{
    return m_zoom->start();
}

double TimelineView::rangeSpan() const
{
    return m_zoom->span();
}

void TimelineView::setRange(double start, double span)
{
    m_zoom->setRange(start, span);
}

void TimelineView::setRulerOrigin(double ns)
{
    m_rulerOrigin = ns;
    update();
}

void TimelineView::setExtent(double begin, double end)
{
    m_zoom->setExtent(begin, end);
}

void TimelineView::showAll()
{
    m_zoom->showAll();
}

void TimelineView::zoomToInterval(TimeNs a, TimeNs b)
{
    const double from = double(a - m_model.minTime);
    const double to = double(b - m_model.minTime);
    const double span = std::max(ZoomControl::kMinSpan, to - from);
    setRange(from - span * 0.05, span * 1.1);
}

void TimelineView::fitSelection()
{
    // A range measured on the ruler is what the user marked last: it is the one to fit.
    if (m_rangeSelection && m_rangeSelection->first != m_rangeSelection->second) {
        const auto [a, b] = std::minmax(m_rangeSelection->first, m_rangeSelection->second);
        setRange(a, b - a);
        return;
    }
    const SliceId s = m_selection->current();
    if (s == kNoSlice)
        return;
    const auto [a, b] = linkedInterval(linkedSlices(s));
    zoomToInterval(a, b);
}

std::vector<SliceId> TimelineView::linkedSlices(SliceId s)
{
    m_links->update(s);
    std::vector<SliceId> linked {s};
    linked.insert(linked.end(), m_links->counterparts().begin(), m_links->counterparts().end());
    for (const SelectionLinks::Arrow &arrow : m_links->arrows()) {
        linked.push_back(arrow.from);
        linked.push_back(arrow.to);
    }
    return linked;
}

std::pair<TimeNs, TimeNs> TimelineView::linkedInterval(const std::vector<SliceId> &linked) const
{
    const SliceTable &t = m_model.slices;
    TimeNs a = t.start[linked.front()];
    TimeNs b = t.end(linked.front());
    for (SliceId c : linked) {
        a = std::min(a, t.start[c]);
        b = std::max(b, t.end(c));
    }
    return {a, b};
}

void TimelineView::revealSlice(SliceId s)
{
    // Time: the slice and every end of its arrows; a slice already in view stays put unless it
    // is too thin to see or wider than the view.
    const SliceTable &t = m_model.slices;
    const std::vector<SliceId> linked = linkedSlices(s);
    const auto [from, to] = linkedInterval(linked);
    const double start = rangeStart(), span = rangeSpan();
    const double a = double(from - m_model.minTime), b = double(to - m_model.minTime);
    const double dur = double(t.dur[s]);
    if (a < start || b > start + span || dur < span * 0.002 || dur > span)
        zoomToInterval(from, to);
    revealLanes(s, linked);
    update();
}

void TimelineView::revealLanes(SliceId s, const std::vector<SliceId> &linked)
{
    // The rows of the slice and of every end of its arrows. Folds stay as the user left them
    // (a folded or collapsed lane still shows the slice on its band or first row), but a
    // collapsed process opens: it shows nothing of its lanes.
    if (m_layout->expandGroupOf(m_model.slices.lane[s]))
        layoutChanged();
    int top = std::numeric_limits<int>::max(), bottom = std::numeric_limits<int>::min();
    int ownTop = -1;
    for (SliceId c : linked) {
        const std::optional<double> y = m_layout->anchorY(c);
        if (!y)
            continue;
        top = std::min(top, int(*y) - kRowHeight);
        bottom = std::max(bottom, int(*y) + kRowHeight);
        if (c == s)
            ownTop = int(*y) - kRowHeight;
    }
    if (ownTop < 0)
        return;
    const int visible = height() - kRulerHeight;
    if (top >= m_scrollY && bottom <= m_scrollY + visible)
        return;
    // All of them centred when they fit, else the slice itself a third of the way down.
    const int scroll
        = bottom - top <= visible ? top - (visible - (bottom - top)) / 2 : ownTop - visible / 3;
    m_scrollBar->setValue(std::max(0, scroll));
}

void TimelineView::setLaneCollapsed(LaneId lane, bool collapsed)
{
    m_layout->setLaneCollapsed(lane, collapsed);
    layoutChanged();
}

bool TimelineView::pythonFolded(LaneId lane) const
{
    return m_layout->pythonFolded(lane);
}

void TimelineView::setPythonFolded(LaneId lane, bool folded)
{
    m_layout->setPythonFolded(lane, folded);
    foldsChanged();
}

void TimelineView::setPythonHidden(bool hidden)
{
    if (hidden == m_layout->pythonHidden())
        return;
    m_layout->setPythonHidden(hidden);
    layoutChanged();
}

void TimelineView::setGraphsCompacted(bool compacted)
{
    if (compacted == m_layout->graphsCompacted())
        return;
    m_layout->setGraphsCompacted(compacted);
    layoutChanged();
}

void TimelineView::foldsChanged()
{
    foldmemory::save(QString::fromStdString(m_model.path), m_layout->folds());
    layoutChanged();
}

int TimelineView::contentHeight() const
{
    return m_layout->contentHeight();
}

void TimelineView::layoutChanged()
{
    syncScrollBar();
    update();
}

void TimelineView::syncScrollBar()
{
    const int visible = std::max(0, height() - kRulerHeight);
    m_scrollBar->setRange(0, std::max(0, contentHeight() - visible));
    m_scrollBar->setPageStep(visible);
    m_scrollBar->setSingleStep(kRowHeight);
    m_scrollY = m_scrollBar->value();
}

int TimelineView::tracksWidth(int width) const
{
    return std::max(1, width - kLabelWidth - m_scrollBar->sizeHint().width());
}

TimeAxis TimelineView::axis(int width) const
{
    return TimeAxis(rangeStart(), rangeSpan(), kLabelWidth, tracksWidth(width));
}

PaintFrame TimelineView::frame(QSize size) const
{
    return {size, axis(size.width()), m_scrollY, palette(), font(), m_rulerOrigin};
}

double TimelineView::nsPerPixel() const
{
    return axis(width()).nsPerPixel;
}

double TimelineView::timeAt(int x) const
{
    return axis(width()).time(x);
}

// ---- marks and find ---------------------------------------------------------------------

void TimelineView::setHighlight(std::vector<SliceId> slices)
{
    std::sort(slices.begin(), slices.end());
    m_highlight = std::move(slices);
    update();
}

void TimelineView::setPathChain(std::vector<ChainStep> steps)
{
    m_chain = std::move(steps);
    update();
}

std::optional<QPointF> TimelineView::pathPoint(SliceId event, TimeNs time) const
{
    return m_chainPainter->point(frame(size()), event, time);
}

void TimelineView::setShowAllArrows(bool on)
{
    m_showAllArrows = on;
    update();
}

void TimelineView::setFindPattern(const QString &pattern)
{
    m_findStep.reset();
    // Args filters (`stream=7`) where the text states them, else a name pattern.
    std::string argsError;
    const auto filters = parseArgFilters(pattern.toStdString(), argsError);
    const QRegularExpression regex(pattern, QRegularExpression::CaseInsensitiveOption);
    if (pattern.isEmpty() || !argsError.empty() || (!filters && !regex.isValid())) {
        m_find.cancel();
        m_findPending = false;
        m_finder->clear();
        update();
        emit findStatus(pattern.isEmpty() ? QString()
                : argsError.empty()       ? tr("invalid pattern: %1").arg(regex.errorString())
                                          : QString::fromStdString(argsError));
        return;
    }
    // Every slice is looked at: on a worker, the timeline stays live meanwhile.
    m_findPending = true;
    emit findStatus(tr("searching…"));
    m_find.run(
        [trace = m_trace, regex, filters](const std::atomic<bool> &stop) {
            return filters ? SliceFinder::search(*trace->model, *filters, stop)
                           : SliceFinder::search(*trace->model, regex, stop);
        },
        [this](SliceFinder::Result result) {
            m_findPending = false;
            m_finder->setResult(std::move(result));
            update();
            const int count = int(m_finder->matches().size());
            emit findStatus(tr("%n match(es)", nullptr, count));
            emit findFinished(count);
            if (const std::optional<bool> backward = std::exchange(m_findStep, std::nullopt))
                findNext(*backward);
        });
}

bool TimelineView::findNext(bool backward)
{
    if (m_findPending) {
        m_findStep = backward; // taken as soon as the search is done
        return true;
    }
    const std::optional<size_t> index = m_finder->next(m_selection->current(), backward);
    if (!index)
        return false;
    m_selection->select(m_finder->matches()[*index]);
    emit findStatus(tr("match %1 of %2").arg(*index + 1).arg(m_finder->matches().size()));
    return true;
}

int TimelineView::findMatchCount() const
{
    return m_findPending ? -1 : int(m_finder->matches().size());
}

// ---- hit testing ------------------------------------------------------------------------

std::optional<QPoint> TimelineView::slicePoint(SliceId s) const
{
    const std::optional<QRectF> r = sliceRect(s);
    if (!r)
        return std::nullopt;
    const QPoint centre(int(r->center().x()), int(r->center().y()));
    if (centre.y() < kRulerHeight || centre.y() >= height())
        return std::nullopt;
    return centre;
}

std::optional<QRectF> TimelineView::sliceRect(SliceId s) const
{
    return m_hits->sliceRect(frame(size()), s);
}

SliceId TimelineView::sliceAt(QPoint pos) const
{
    return m_hits->sliceAt(frame(size()), pos);
}

std::optional<std::pair<size_t, int64_t>> TimelineView::curvePointAt(QPoint pos) const
{
    return m_hits->curvePointAt(frame(size()), pos);
}

SliceId TimelineView::curveOpAt(QPoint pos) const
{
    const auto hit = curvePointAt(pos);
    if (!hit || m_curves.tracks[hit->first].kind != CurveTrack::Kind::Memory)
        return kNoSlice;
    return memoryEventOp(m_model, m_curves.tracks[hit->first].events[size_t(hit->second)]);
}

std::optional<QRect> TimelineView::curveArea(size_t curve) const
{
    const int ti = m_layout->curveTrack(curve);
    if (ti < 0)
        return std::nullopt;
    const int trackHeight = m_layout->tracks()[size_t(ti)].height;
    const int top = m_layout->tracks()[size_t(ti)].y - m_scrollY + kRulerHeight;
    if (top + trackHeight <= kRulerHeight || top >= height())
        return std::nullopt;
    return CurvePainter::plotArea(frame(size()), top, trackHeight);
}

// ---- painting ---------------------------------------------------------------------------

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paintAll(p, size());
}

void TimelineView::render(QPainter &painter, QSize size)
{
    paintAll(painter, size);
}

void TimelineView::paintAll(QPainter &p, QSize size)
{
    if (std::exchange(m_fitPending, false)
        && fitGpuInView(*m_layout, m_model, size.height() - kRulerHeight))
        syncScrollBar(); // the first frame's size decides the first layout
    m_links->update(m_selection->current());
    const PaintFrame f = frame(size);
    p.fillRect(QRect(QPoint(0, 0), size), f.palette.color(QPalette::Base));
    p.save();
    p.setClipRect(
        QRect(kLabelWidth, kRulerHeight, size.width() - kLabelWidth, size.height() - kRulerHeight));
    m_slicePainter->paintBackgrounds(p, f);
    RulerPainter::paintGrid(p, f);
    m_slicePainter->paint(p, f, {*m_finder, m_highlight, *m_links});
    m_curvePainter->paint(p, f);
    SlicePainter::paintRangeSelection(p, f, m_rangeSelection);
    m_chainPainter->paint(p, f, m_chain);
    std::vector<QRectF> labels;
    m_arrowPainter->paint(p, f, *m_links, m_showAllArrows, labels);
    m_calloutPainter->paint(p, f, *m_links, labels);
    p.restore();
    m_labelPainter->paint(p, f);
    RulerPainter::paint(p, f, m_rangeSelection);
}

// ---- interaction ------------------------------------------------------------------------

void TimelineView::resizeEvent(QResizeEvent *)
{
    const int w = m_scrollBar->sizeHint().width();
    m_scrollBar->setGeometry(width() - w, kRulerHeight, w, height() - kRulerHeight);
    syncScrollBar();
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    m_gestures->wheel(event, tracksWidth(width()));
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    m_gestures->press(event->pos());
    // On the ruler, or Shift+drag over the tracks: a range to measure.
    m_rulerDrag = event->button() == Qt::LeftButton && event->pos().x() >= kLabelWidth
        && (event->pos().y() < kRulerHeight || event->modifiers() & Qt::ShiftModifier);
    if (m_rulerDrag) {
        const double t = timeAt(event->pos().x());
        m_rangeSelection = std::pair(t, t);
        update();
    }
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    if (m_rulerDrag) {
        m_rangeSelection->second = timeAt(std::max(kLabelWidth, event->pos().x()));
        update();
        return;
    }
    m_gestures->move(event->pos(), tracksWidth(width()));
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (m_rulerDrag) {
        m_rulerDrag = false;
        if (m_rangeSelection
            && std::abs(m_rangeSelection->second - m_rangeSelection->first) < nsPerPixel() * 2)
            m_rangeSelection.reset(); // a click on the ruler clears the range
        publishRange();
        update();
        return;
    }
    if (m_gestures->release())
        return;
    const QPoint pos = event->pos();
    if (pos.y() < kRulerHeight)
        return;
    const int y = pos.y() - kRulerHeight + m_scrollY;
    const int ti = m_layout->trackAt(y);
    const int row = ti < 0 ? -1 : m_layout->rowAt(ti, y);
    if (row >= 0 && m_layout->rows(ti)[size_t(row)].band()) {
        // The Python band, in the labels or the tracks: folds or unfolds the frames.
        const LaneId lane = m_layout->tracks()[size_t(ti)].lane;
        setPythonFolded(lane, !m_layout->pythonFolded(lane));
        return;
    }
    if (pos.x() < kLabelWidth) {
        // Labels: toggle the group or the lane under the click.
        if (ti >= 0) {
            m_layout->toggle(ti);
            foldsChanged();
        }
        return;
    }
    const auto hit = curvePointAt(pos);
    const bool memory = hit && m_curves.tracks[hit->first].kind == CurveTrack::Kind::Memory;
    const uint32_t point = memory ? m_curves.tracks[hit->first].events[size_t(hit->second)] : 0;
    m_clicking = true;
    m_selection->select(memory ? memoryEventOp(m_model, point) : sliceAt(pos));
    m_clicking = false;
    if (memory)
        emit memoryEventClicked(point);
}

bool TimelineView::fillTrackMenu(QMenu &menu, QPoint pos)
{
    const int ti
        = pos.y() < kRulerHeight ? -1 : m_layout->trackAt(pos.y() - kRulerHeight + m_scrollY);
    if (ti < 0)
        return false;
    ks::fillTrackMenu(menu, *m_layout, ti, [this] { foldsChanged(); });
    return true;
}

void TimelineView::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu;
    if (event->pos().x() < kLabelWidth && fillTrackMenu(menu, event->pos()))
        menu.exec(event->globalPos());
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (sliceAt(event->pos()) != kNoSlice)
        m_selection->jumpToCounterpart();
}

void TimelineView::publishRange()
{
    if (!m_rangeSelection) {
        m_selection->selectRange(0, 0);
        return;
    }
    const auto [a, b] = std::minmax(m_rangeSelection->first, m_rangeSelection->second);
    m_selection->selectRange(m_model.minTime + TimeNs(std::llround(std::max(0.0, a))),
        m_model.minTime + TimeNs(std::llround(std::max(0.0, b))));
}

void TimelineView::navigate(int key)
{
    const double span = rangeSpan();
    const QPoint cursor = mapFromGlobal(QCursor::pos());
    const double anchorTime = rect().contains(cursor) && cursor.x() >= kLabelWidth
        ? timeAt(cursor.x())
        : rangeStart() + span / 2;
    switch (key) {
    case Qt::Key_W:
        m_zoom->zoomAt(0.8, anchorTime);
        break;
    case Qt::Key_S:
        m_zoom->zoomAt(1.25, anchorTime);
        break;
    case Qt::Key_A:
        m_zoom->pan(-span * 0.15);
        break;
    case Qt::Key_D:
        m_zoom->pan(span * 0.15);
        break;
    default:
        break;
    }
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_W:
    case Qt::Key_S:
    case Qt::Key_A:
    case Qt::Key_D:
        navigate(event->key());
        break;
    case Qt::Key_F:
        fitSelection();
        break;
    case Qt::Key_0:
        showAll();
        break;
    case Qt::Key_J:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        m_selection->jumpToCounterpart();
        break;
    case Qt::Key_Escape:
        m_rangeSelection.reset();
        publishRange();
        update();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

// ---- tooltips ---------------------------------------------------------------------------

bool TimelineView::event(QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride) {
        // F, 0, J and W/S/A/D are also the window's shortcuts (for any focus); with the focus
        // here the timeline takes them itself, so a comparison's two timelines each move their
        // own, zooming around the mouse.
        const auto *key = static_cast<QKeyEvent *>(event);
        static constexpr int kOwn[]
            = {Qt::Key_F, Qt::Key_0, Qt::Key_J, Qt::Key_W, Qt::Key_S, Qt::Key_A, Qt::Key_D};
        if (key->modifiers() == Qt::NoModifier
            && std::find(std::begin(kOwn), std::end(kOwn), key->key()) != std::end(kOwn)) {
            event->accept();
            return true;
        }
    }
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    showToolTip(*static_cast<QHelpEvent *>(event));
    return true;
}

void TimelineView::showToolTip(const QHelpEvent &help)
{
    if (const auto hit = curvePointAt(help.pos())) {
        QToolTip::showText(help.globalPos(), m_toolTips->curvePoint(hit->first, hit->second), this);
        return;
    }
    const SliceId s = sliceAt(help.pos());
    if (s == kNoSlice) {
        QToolTip::hideText();
        return;
    }
    const int y = help.pos().y() - kRulerHeight + m_scrollY;
    const int ti = m_layout->trackAt(y);
    const int row = ti < 0 ? -1 : m_layout->rowAt(ti, y);
    if (row >= 0 && m_layout->rows(ti)[size_t(row)].band()) {
        QToolTip::showText(help.globalPos(),
            m_toolTips->pythonStack(s, m_layout->pythonFolded(m_model.slices.lane[s])), this);
        return;
    }
    QToolTip::showText(help.globalPos(), m_toolTips->slice(s), this);
}

} // namespace ks
