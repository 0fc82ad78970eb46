// SPDX-License-Identifier: MIT
#include "timelineview.h"

#include "slicecolors.h"
#include "timeformat.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ks {

namespace {

constexpr int kLanePad = 2;
constexpr double kMinSpan = 20; // ns: the deepest zoom
constexpr int kMaxArrows = 400; // launch → kernel arrows drawn for one selection
constexpr int kDragThreshold = 4; // px before a press becomes a pan

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

bool isNumericText(std::string_view s)
{
    if (s.empty())
        return false;
    for (char c : s) {
        if ((c < '0' || c > '9') && c != '-')
            return false;
    }
    return true;
}

} // namespace

TimelineView::TimelineView(SelectionController *selection, QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_trace(selection->tracePointer())
    , m_model(*m_trace->model)
    , m_graph(*m_trace->graph)
    , m_index(std::make_unique<TimelineIndex>(m_model, m_graph))
    , m_scrollBar(new QScrollBar(Qt::Vertical, this))
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(400, 200);
    m_laneCollapsed.assign(m_model.lanes.size(), false);
    buildGroups();
    layoutTracks();
    showAll();
    connect(m_scrollBar, &QScrollBar::valueChanged, this, [this](int v) {
        m_scrollY = v;
        update();
    });
    connect(m_selection, &SelectionController::selectionChanged, this, [this](SliceId s) {
        if (s != kNoSlice)
            revealSlice(s);
        update();
    });
}

TimelineView::~TimelineView() = default;

void TimelineView::buildGroups()
{
    const TraceModel &m = m_model;
    struct Key {
        bool pseudo; // non-numeric pid: "Spans", "Traces", ""
        bool device;
        int64_t sort;
        int64_t pid;
        size_t process;
    };
    std::vector<Key> keys;
    for (size_t p = 0; p < m.processes.size(); ++p) {
        const Process &proc = m.processes[p];
        const bool pseudo = !isNumericText(m.str(proc.pidText));
        keys.push_back({pseudo, proc.device,
            proc.device || proc.sortIndex == kNoValue ? proc.pid : proc.sortIndex, proc.pid, p});
    }
    std::sort(keys.begin(), keys.end(), [](const Key &a, const Key &b) {
        return std::tie(a.pseudo, a.device, a.sort, a.pid)
            < std::tie(b.pseudo, b.device, b.sort, b.pid);
    });
    for (const Key &key : keys) {
        const Process &proc = m.processes[key.process];
        Group g;
        const QString name = qs(m.str(proc.name));
        const QString labels = qs(m.str(proc.labels));
        if (proc.device) {
            const QString gpu = labels.startsWith(QLatin1String("GPU"))
                ? labels
                : QStringLiteral("GPU %1").arg(proc.pid);
            g.label = gpu;
        } else {
            g.label = (name.isEmpty() ? QStringLiteral("process") : name) + QStringLiteral(" (")
                + qs(m.str(proc.pidText)) + QLatin1Char(')');
            if (!labels.isEmpty())
                g.label += QStringLiteral(" · ") + labels;
        }
        for (LaneId l = 0; l < m.lanes.size(); ++l) {
            const Lane &lane = m.lanes[l];
            if (lane.pid == proc.pid && lane.device == proc.device
                && (lane.sliceEnd > lane.sliceBegin || lane.instantEnd > lane.instantBegin))
                g.lanes.push_back(l);
        }
        // Forward threads first, then backward threads, then the rest by sort index and tid.
        std::stable_sort(g.lanes.begin(), g.lanes.end(), [&](LaneId a, LaneId b) {
            auto rank = [&](LaneId l) {
                const uint8_t r = m_index->role(l);
                return (r & RoleForward) ? 0 : (r & RoleBackward) ? 1 : 2;
            };
            const Lane &x = m.lanes[a], &y = m.lanes[b];
            const int64_t sx = x.sortIndex == kNoValue ? x.tid : x.sortIndex;
            const int64_t sy = y.sortIndex == kNoValue ? y.tid : y.sortIndex;
            return std::tuple(rank(a), sx) < std::tuple(rank(b), sy);
        });
        if (!g.lanes.empty())
            m_groups.push_back(std::move(g));
    }
}

void TimelineView::layoutTracks()
{
    const TraceModel &m = m_model;
    m_tracks.clear();
    m_trackOfLane.assign(m.lanes.size(), -1);
    int y = 0;
    for (size_t gi = 0; gi < m_groups.size(); ++gi) {
        const Group &g = m_groups[gi];
        Track header;
        header.header = true;
        header.group = int(gi);
        header.y = y;
        header.height = kHeaderHeight;
        header.label = g.label;
        m_tracks.push_back(header);
        y += kHeaderHeight;
        if (g.collapsed)
            continue;
        for (LaneId l : g.lanes) {
            const Lane &lane = m.lanes[l];
            Track t;
            t.lane = l;
            t.group = int(gi);
            t.y = y;
            const uint32_t depths = std::max<uint32_t>(1, m_index->depthCount(l));
            t.height = int(m_laneCollapsed[l] ? 1 : depths) * kRowHeight + 2 * kLanePad;
            if (lane.device) {
                t.label = g.label + QStringLiteral(" · ") + qs(m.laneLabel(l));
            } else {
                t.label = qs(m.laneLabel(l));
                const uint8_t role = m_index->role(l);
                t.detail = role == (RoleForward | RoleBackward)
                    ? QStringLiteral("forward + backward")
                    : role == RoleForward  ? QStringLiteral("forward")
                    : role == RoleBackward ? QStringLiteral("backward")
                                           : QString();
            }
            m_trackOfLane[l] = int(m_tracks.size());
            m_tracks.push_back(t);
            y += t.height;
        }
    }
    syncScrollBar();
}

int TimelineView::contentHeight() const
{
    return m_tracks.empty() ? 0 : m_tracks.back().y + m_tracks.back().height;
}

void TimelineView::syncScrollBar()
{
    const int visible = std::max(0, height() - kRulerHeight);
    m_scrollBar->setRange(0, std::max(0, contentHeight() - visible));
    m_scrollBar->setPageStep(visible);
    m_scrollBar->setSingleStep(kRowHeight);
    m_scrollY = m_scrollBar->value();
}

void TimelineView::setLaneCollapsed(LaneId lane, bool collapsed)
{
    m_laneCollapsed[lane] = collapsed;
    layoutTracks();
    update();
}

int TimelineView::tracksWidth(int width) const
{
    return std::max(1, width - kLabelWidth - m_scrollBar->sizeHint().width());
}

double TimelineView::nsPerPixel(int width) const
{
    return m_span / tracksWidth(width);
}
double TimelineView::timeAt(int x, int width) const
{
    return m_start + (x - kLabelWidth) * nsPerPixel(width);
}
double TimelineView::xOf(double t, int width) const
{
    return kLabelWidth + (t - m_start) / nsPerPixel(width);
}

int TimelineView::trackIndexAt(int contentY) const
{
    auto it = std::upper_bound(
        m_tracks.begin(), m_tracks.end(), contentY, [](int y, const Track &t) { return y < t.y; });
    if (it == m_tracks.begin())
        return -1;
    --it;
    return contentY < it->y + it->height ? int(it - m_tracks.begin()) : -1;
}

int TimelineView::laneTrack(LaneId lane) const
{
    return lane < m_trackOfLane.size() ? m_trackOfLane[lane] : -1;
}

void TimelineView::setRange(double start, double span)
{
    const double total = std::max(kMinSpan, double(m_model.maxTime - m_model.minTime));
    span = std::clamp(span, kMinSpan, total * 1.2);
    start = std::clamp(start, -span * 0.5, total - span * 0.5);
    if (start == m_start && span == m_span)
        return;
    m_start = start;
    m_span = span;
    update();
    emit rangeChanged();
}

void TimelineView::showAll()
{
    const double total = std::max(kMinSpan, double(m_model.maxTime - m_model.minTime));
    m_start = -total * 0.01;
    m_span = total * 1.02;
    update();
    emit rangeChanged();
}

void TimelineView::zoomToInterval(TimeNs a, TimeNs b)
{
    const double from = double(a - m_model.minTime);
    const double to = double(b - m_model.minTime);
    const double span = std::max(kMinSpan, to - from);
    setRange(from - span * 0.05, span * 1.1);
}

void TimelineView::fitSelection()
{
    const SliceId s = m_selection->current();
    if (s == kNoSlice)
        return;
    const SliceTable &t = m_model.slices;
    TimeNs a = t.start[s];
    TimeNs b = t.end(s);
    // Fit the selection together with its counterparts, as the arrows span them.
    for (SliceId c : m_graph.counterparts(s)) {
        a = std::min(a, t.start[c]);
        b = std::max(b, t.end(c));
    }
    zoomToInterval(a, b);
}

void TimelineView::revealSlice(SliceId s)
{
    const SliceTable &t = m_model.slices;
    const double a = double(t.start[s] - m_model.minTime);
    const double b = double(t.end(s) - m_model.minTime);
    const double dur = std::max(1.0, b - a);
    const bool visible = a >= m_start && b <= m_start + m_span;
    if (!visible || dur < m_span * 0.002 || dur > m_span)
        setRange(a - dur * 2, dur * 5);
    // Vertically: expand its group and scroll its row into view.
    const LaneId lane = t.lane[s];
    for (Group &g : m_groups) {
        if (g.collapsed && std::find(g.lanes.begin(), g.lanes.end(), lane) != g.lanes.end()) {
            g.collapsed = false;
            layoutTracks();
        }
    }
    if (m_laneCollapsed[lane] && t.depth[s] > 0)
        setLaneCollapsed(lane, false);
    const int ti = laneTrack(lane);
    if (ti < 0)
        return;
    const int rowY = m_tracks[size_t(ti)].y + kLanePad + int(t.depth[s]) * kRowHeight;
    const int visibleHeight = height() - kRulerHeight;
    if (rowY < m_scrollY || rowY + kRowHeight > m_scrollY + visibleHeight)
        m_scrollBar->setValue(std::max(0, rowY - visibleHeight / 3));
    update();
}

void TimelineView::setHighlight(std::vector<SliceId> slices)
{
    std::sort(slices.begin(), slices.end());
    m_highlight = std::move(slices);
    update();
}

void TimelineView::setShowAllArrows(bool on)
{
    m_showAllArrows = on;
    update();
}

int TimelineView::setFindPattern(const QString &pattern)
{
    m_findMatches.clear();
    m_nameMatches.clear();
    if (pattern.isEmpty()) {
        m_findRegex = QRegularExpression();
        update();
        emit findStatus(QString());
        return 0;
    }
    m_findRegex = QRegularExpression(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!m_findRegex.isValid()) {
        emit findStatus(tr("invalid pattern: %1").arg(m_findRegex.errorString()));
        return 0;
    }
    // Match each distinct name once, then collect the slices carrying a matching name.
    const StringPool &pool = m_model.strings;
    m_nameMatches.assign(pool.size(), false);
    const SliceTable &t = m_model.slices;
    std::vector<bool> tested(pool.size(), false);
    for (SliceId s = 0; s < t.size(); ++s) {
        const StringId n = t.name[s];
        if (!tested[n]) {
            tested[n] = true;
            m_nameMatches[n] = m_findRegex.match(qs(pool.view(n))).hasMatch();
        }
        if (m_nameMatches[n])
            m_findMatches.push_back(s);
    }
    std::sort(m_findMatches.begin(), m_findMatches.end(),
        [&](SliceId a, SliceId b) { return std::tie(t.start[a], a) < std::tie(t.start[b], b); });
    emit findStatus(tr("%n match(es)", nullptr, int(m_findMatches.size())));
    update();
    return int(m_findMatches.size());
}

bool TimelineView::findNext(bool backward)
{
    if (m_findMatches.empty())
        return false;
    const SliceTable &t = m_model.slices;
    const SliceId cur = m_selection->current();
    auto less
        = [&](SliceId a, SliceId b) { return std::tie(t.start[a], a) < std::tie(t.start[b], b); };
    size_t index;
    if (cur == kNoSlice) {
        index = backward ? m_findMatches.size() - 1 : 0;
    } else if (!backward) {
        auto it = std::upper_bound(m_findMatches.begin(), m_findMatches.end(), cur, less);
        index = it == m_findMatches.end() ? 0 : size_t(it - m_findMatches.begin());
    } else {
        auto it = std::lower_bound(m_findMatches.begin(), m_findMatches.end(), cur, less);
        index = it == m_findMatches.begin() ? m_findMatches.size() - 1
                                            : size_t(it - m_findMatches.begin()) - 1;
    }
    m_selection->select(m_findMatches[index]);
    emit findStatus(tr("match %1 of %2").arg(index + 1).arg(m_findMatches.size()));
    return true;
}

std::optional<QPointF> TimelineView::anchor(SliceId s, int width, bool atEnd) const
{
    const SliceTable &t = m_model.slices;
    const LaneId lane = t.lane[s];
    const int ti = laneTrack(lane);
    std::optional<double> y;
    if (ti >= 0) {
        const uint32_t depth = m_laneCollapsed[lane] ? 0 : t.depth[s];
        y = m_tracks[size_t(ti)].y + kLanePad + depth * kRowHeight + kRowHeight / 2.0;
    } else {
        // The lane's group is collapsed: anchor on its header.
        for (const Track &tr : m_tracks) {
            const auto &lanes = m_groups[size_t(tr.group)].lanes;
            if (tr.header && std::find(lanes.begin(), lanes.end(), lane) != lanes.end())
                y = tr.y + tr.height / 2.0;
        }
    }
    if (!y)
        return std::nullopt;
    const double time = double((atEnd ? t.end(s) : t.start[s]) - m_model.minTime);
    return QPointF(xOf(time, width), *y - m_scrollY + kRulerHeight);
}

std::optional<QPoint> TimelineView::slicePoint(SliceId s) const
{
    const SliceTable &t = m_model.slices;
    const int ti = laneTrack(t.lane[s]);
    if (ti < 0)
        return std::nullopt;
    const Track &tr = m_tracks[size_t(ti)];
    const uint32_t depth = m_laneCollapsed[t.lane[s]] ? 0 : t.depth[s];
    const int y
        = tr.y + kLanePad + int(depth) * kRowHeight + kRowHeight / 2 - m_scrollY + kRulerHeight;
    const double a
        = std::max(xOf(double(t.start[s] - m_model.minTime), width()), double(kLabelWidth));
    const double b = std::min(xOf(double(t.end(s) - m_model.minTime), width()),
        double(kLabelWidth + tracksWidth(width())));
    if (b < a || y < kRulerHeight || y >= height())
        return std::nullopt;
    return QPoint(int((a + b) / 2), y);
}

SliceId TimelineView::sliceAt(QPoint pos) const
{
    if (pos.x() < kLabelWidth || pos.y() < kRulerHeight)
        return kNoSlice;
    const int ti = trackIndexAt(pos.y() - kRulerHeight + m_scrollY);
    if (ti < 0 || m_tracks[size_t(ti)].header)
        return kNoSlice;
    const Track &tr = m_tracks[size_t(ti)];
    const int depth = (pos.y() - kRulerHeight + m_scrollY - tr.y - kLanePad) / kRowHeight;
    if (depth < 0 || uint32_t(depth) >= m_index->depthCount(tr.lane))
        return kNoSlice;
    const double nsPx = nsPerPixel(width());
    return TimelineIndex::hit(m_model, m_index->row(tr.lane, uint32_t(depth)), m_model.minTime,
        timeAt(pos.x(), width()), 3 * nsPx);
}

// ---- painting ---------------------------------------------------------------------------

QRgb TimelineView::colorOf(SliceId s) const
{
    // HSL → RGB per slice and frame is measurable: colours are cached per (name, style).
    const SliceStyle style = m_index->style(s);
    const uint64_t key = (uint64_t(m_model.slices.name[s]) << 8) | uint64_t(style);
    auto [it, inserted] = m_colors.try_emplace(key, 0);
    if (inserted)
        it->second = SliceColors::forStyle(style, m_model.sliceName(s)).rgb();
    return it->second;
}

QRgb TimelineView::mergedColor(SliceStyle style) const
{
    QRgb &c = m_mergedColors[size_t(style)];
    if (c == 0)
        c = SliceColors::forStyle(style, {}).darker(125).rgb();
    return c;
}

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
    p.fillRect(QRect(QPoint(0, 0), size), palette().color(QPalette::Base));
    p.save();
    p.setClipRect(
        QRect(kLabelWidth, kRulerHeight, size.width() - kLabelWidth, size.height() - kRulerHeight));
    paintTracks(p, size);
    paintArrows(p, size);
    p.restore();
    paintLabels(p, size);
    paintRuler(p, size);
}

void TimelineView::paintTracks(QPainter &p, QSize size)
{
    const int top = kRulerHeight - m_scrollY;
    const QColor stripe = palette().color(QPalette::AlternateBase);
    for (size_t i = 0; i < m_tracks.size(); ++i) {
        const Track &tr = m_tracks[i];
        const int y = top + tr.y;
        if (y > size.height())
            break;
        if (y + tr.height < kRulerHeight)
            continue;
        if (tr.header) {
            p.fillRect(
                QRect(kLabelWidth, y, size.width(), tr.height), palette().color(QPalette::Window));
            continue;
        }
        if (i % 2 == 0)
            p.fillRect(QRect(kLabelWidth, y, size.width(), tr.height), stripe);
        paintLane(p, tr, y, size);
    }
    // The ruler's range selection shades the tracks.
    if (m_rangeSelection) {
        const double x0 = xOf(m_rangeSelection->first, size.width());
        const double x1 = xOf(m_rangeSelection->second, size.width());
        p.fillRect(QRectF(QPointF(std::min(x0, x1), kRulerHeight),
                       QPointF(std::max(x0, x1), size.height())),
            QColor(40, 120, 220, 40));
    }
}

void TimelineView::paintLane(QPainter &p, const Track &tr, int top, QSize size)
{
    const LaneId lane = tr.lane;
    const int width = tracksWidth(size.width());
    const double nsPx = nsPerPixel(size.width());
    const uint32_t depths = m_laneCollapsed[lane] ? std::min<uint32_t>(1, m_index->depthCount(lane))
                                                  : m_index->depthCount(lane);
    const SliceId selected = m_selection->current();
    const QFontMetrics fm(font());
    const SliceTable &t = m_model.slices;
    p.setFont(font());
    for (uint32_t d = 0; d < depths; ++d) {
        const int rowY = top + kLanePad + int(d) * kRowHeight;
        if (rowY > size.height() || rowY + kRowHeight < kRulerHeight)
            continue;
        m_items.clear();
        TimelineIndex::scan(
            m_model, m_index->row(lane, d), m_model.minTime, m_start, nsPx, width, m_items);
        // Adjacent runs of merged slices share one neutral colour per style and become one
        // rectangle: a zoomed-out row of a million slices costs a few fills.
        QRectF pending;
        QRgb pendingColor = 0;
        // Recomputed forward work inside backward lanes is hatched, to tell it apart at a glance.
        const QBrush hatch(QColor(20, 40, 90, 150), Qt::BDiagPattern);
        auto flush = [&] {
            if (!pending.isNull()) {
                p.fillRect(pending, QColor::fromRgb(pendingColor));
                if (pendingColor == mergedColor(SliceStyle::Recompute))
                    p.fillRect(pending, hatch);
            }
            pending = QRectF();
        };
        for (const TimelineIndex::Item &item : m_items) {
            const double x0 = std::max(-2.0, item.x0) + kLabelWidth;
            const double x1 = std::min(double(width) + 2, item.x1) + kLabelWidth;
            const QRectF r(x0, rowY + 1, std::max(1.0, x1 - x0), kRowHeight - 2);
            if (item.count > 1) {
                const QRgb c = mergedColor(m_index->style(item.slice));
                if (!pending.isNull() && c == pendingColor && r.left() <= pending.right() + 0.5) {
                    pending.setRight(std::max(pending.right(), r.right()));
                } else {
                    flush();
                    pending = r;
                    pendingColor = c;
                }
                continue;
            }
            flush();
            const QColor c = QColor::fromRgb(colorOf(item.slice));
            p.fillRect(r, c);
            if (m_index->style(item.slice) == SliceStyle::Recompute)
                p.fillRect(r, hatch);
            if (!m_findMatches.empty() && m_nameMatches[t.name[item.slice]])
                p.fillRect(QRectF(r.left(), r.bottom() - 2, r.width(), 3), QColor(255, 200, 0));
            if (r.width() > 28) {
                const QString text = fm.elidedText(
                    qs(m_model.sliceName(item.slice)), Qt::ElideRight, int(r.width()) - 6);
                if (!text.isEmpty() && text != QStringLiteral("…")) {
                    p.setPen(c.lightness() > 150 ? QColor(25, 25, 25) : QColor(250, 250, 250));
                    p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
                }
            }
        }
        flush();
    }
    // Highlighted slices (a module's work) get a translucent wash and an outline.
    const Lane &laneInfo = m_model.lanes[lane];
    auto first = std::lower_bound(m_highlight.begin(), m_highlight.end(), laneInfo.sliceBegin);
    auto last = std::lower_bound(first, m_highlight.end(), laneInfo.sliceEnd);
    for (auto it = first; it != last; ++it) {
        const SliceId h = *it;
        const uint32_t d = m_laneCollapsed[lane] ? 0 : t.depth[h];
        const double x0 = xOf(double(t.start[h] - m_model.minTime), size.width());
        const double x1 = std::max(x0 + 2, xOf(double(t.end(h) - m_model.minTime), size.width()));
        if (x1 < kLabelWidth || x0 > size.width())
            continue;
        const QRectF r(x0, top + kLanePad + d * kRowHeight + 0.5, x1 - x0, kRowHeight - 1);
        p.fillRect(r, QColor(255, 215, 0, 90));
        p.setPen(QPen(QColor(200, 140, 0), 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
    }
    // Outline the selection and its counterparts when they are on this lane.
    auto outline = [&](SliceId s, const QColor &color, qreal w) {
        if (t.lane[s] != lane)
            return;
        const uint32_t d = m_laneCollapsed[lane] ? 0 : t.depth[s];
        const double x0 = xOf(double(t.start[s] - m_model.minTime), size.width());
        const double x1 = std::max(x0 + 2, xOf(double(t.end(s) - m_model.minTime), size.width()));
        const QRectF r(x0, top + kLanePad + d * kRowHeight + 0.5, x1 - x0, kRowHeight - 1);
        p.setPen(QPen(color, w));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
    };
    if (selected != kNoSlice) {
        for (SliceId c : m_graph.counterparts(selected))
            outline(c, SliceColors::counterpartOutline(), 2);
        outline(selected, SliceColors::selectionOutline(), 2);
    }
}

void TimelineView::drawArrow(
    QPainter &p, QPointF from, QPointF to, const QColor &color, qreal width)
{
    QPainterPath path(from);
    const double dx = std::max(30.0, std::abs(to.x() - from.x()) * 0.4);
    path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
    p.setPen(QPen(color, width));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    // Arrowhead along the curve's final direction (horizontal into the target).
    if (QLineF(from, to).length() > 12) {
        const QPointF tip = to;
        QPolygonF head;
        head << tip << tip + QPointF(-8, -4) << tip + QPointF(-8, 4);
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        p.drawPolygon(head);
    }
}

void TimelineView::paintArrows(QPainter &p, QSize size)
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const SliceTable &t = m_model.slices;
    const int w = size.width();
    auto arrow = [&](SliceId from, SliceId to, const QColor &color, qreal width) {
        // From the source's end to the target's start (its start when the target begins first).
        const bool forwardInTime = t.start[to] >= t.end(from);
        const auto a = anchor(from, w, forwardInTime);
        const auto b = anchor(to, w, false);
        if (a && b)
            drawArrow(p, *a, *b, color, width);
    };

    if (m_showAllArrows) {
        // Every forward → backward pair with an end in view.
        const double lo = m_start, hi = m_start + m_span;
        QColor c = SliceColors::pairArrow();
        c.setAlpha(110);
        auto inView = [&](SliceId s) {
            const double a = double(t.start[s] - m_model.minTime);
            return a <= hi && double(t.end(s) - m_model.minTime) >= lo;
        };
        for (const PairRow &row : m_graph.rows()) {
            if (row.forward == kNoSlice)
                continue;
            for (uint32_t i : m_graph.nodesOf(row)) {
                const SliceId node = m_graph.nodes()[i].node;
                if (inView(row.forward) || inView(node))
                    arrow(row.forward, node, c, 1.0);
            }
        }
    }

    const SliceId s = m_selection->current();
    if (s != kNoSlice) {
        // Launch → GPU work for the selection and for its counterparts (so both sides' kernels
        // show), then the pair arrows on top.
        const std::vector<SliceId> counterparts = m_graph.counterparts(s);
        auto outerOf = [&](SliceId x) {
            const int n = m_graph.nodeOf(x);
            return n >= 0 ? m_graph.nodes()[size_t(n)].outer : x;
        };
        int drawn = 0;
        auto launchArrows = [&](SliceId root, qreal width) {
            for (SliceId g : m_graph.gpuEventsUnder(root)) {
                if (++drawn > kMaxArrows)
                    return;
                const SliceId launch = m_graph.launchOf(g);
                if (launch != kNoSlice)
                    arrow(launch, g, SliceColors::launchArrow(), width);
            }
        };
        if (isGpuWork(t.kind[s])) {
            if (m_graph.launchOf(s) != kNoSlice)
                arrow(m_graph.launchOf(s), s, SliceColors::launchArrow(), 1.6);
        } else {
            launchArrows(outerOf(s), 1.2);
            for (SliceId c : counterparts)
                launchArrows(outerOf(c), 1.0);
        }
        const bool forwardSide = m_graph.isForwardSide(s);
        for (SliceId c : counterparts) {
            if (forwardSide)
                arrow(s, c, SliceColors::pairArrow(), 2.2);
            else
                arrow(c, s, SliceColors::pairArrow(), 2.2);
        }
    }
    p.restore();
}

void TimelineView::paintLabels(QPainter &p, QSize size)
{
    const QPalette pal = palette();
    p.fillRect(QRect(0, kRulerHeight, kLabelWidth, size.height() - kRulerHeight),
        pal.color(QPalette::Window));
    p.save();
    p.setClipRect(QRect(0, kRulerHeight, kLabelWidth, size.height() - kRulerHeight));
    const int top = kRulerHeight - m_scrollY;
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fm(font());
    const QFontMetrics fmBold(bold);
    for (const Track &tr : m_tracks) {
        const int y = top + tr.y;
        if (y > size.height())
            break;
        if (y + tr.height < kRulerHeight)
            continue;
        if (tr.header) {
            const bool collapsed = m_groups[size_t(tr.group)].collapsed;
            p.fillRect(QRect(0, y, kLabelWidth, tr.height), pal.color(QPalette::Button));
            p.setFont(bold);
            p.setPen(pal.color(QPalette::ButtonText));
            const QString text
                = (collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + tr.label;
            p.drawText(QRect(6, y, kLabelWidth - 10, tr.height), Qt::AlignVCenter | Qt::AlignLeft,
                fmBold.elidedText(text, Qt::ElideRight, kLabelWidth - 12));
            p.setPen(pal.color(QPalette::Mid));
            p.drawLine(0, y + tr.height - 1, size.width(), y + tr.height - 1);
            continue;
        }
        p.setFont(font());
        const bool expandable = m_index->depthCount(tr.lane) > 1;
        const QString arrow = !expandable ? QStringLiteral("   ")
            : m_laneCollapsed[tr.lane]    ? QStringLiteral("▸ ")
                                          : QStringLiteral("▾ ");
        const QRect r(14, y, kLabelWidth - 20, std::min(tr.height, kRowHeight + 2 * kLanePad));
        p.setPen(pal.color(QPalette::WindowText));
        QString text = arrow + tr.label;
        p.drawText(
            r, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(text, Qt::ElideMiddle, r.width()));
        if (!tr.detail.isEmpty() && tr.height > kRowHeight + 2 * kLanePad) {
            const bool backward = tr.detail == QLatin1String("backward");
            p.setPen(backward ? SliceColors::pairArrow() : QColor(30, 110, 170));
            p.drawText(QRect(30, y + kRowHeight, kLabelWidth - 36, kRowHeight),
                Qt::AlignVCenter | Qt::AlignLeft, tr.detail);
        } else if (!tr.detail.isEmpty()) {
            // One-row lanes: the role goes at the right end of the label.
            p.setPen(QColor(30, 110, 170));
            p.drawText(r, Qt::AlignVCenter | Qt::AlignRight, tr.detail);
        }
        p.setPen(pal.color(QPalette::Midlight));
        p.drawLine(0, y + tr.height - 1, kLabelWidth, y + tr.height - 1);
    }
    p.restore();
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(kLabelWidth - 1, kRulerHeight, kLabelWidth - 1, size.height());
}

void TimelineView::paintRuler(QPainter &p, QSize size)
{
    const QPalette pal = palette();
    p.fillRect(QRect(0, 0, size.width(), kRulerHeight), pal.color(QPalette::Window));
    const double nsPx = nsPerPixel(size.width());
    const double step = niceStep(nsPx * 90);
    const double first = std::ceil(m_start / step) * step;
    const int right = kLabelWidth + tracksWidth(size.width());
    p.setPen(pal.color(QPalette::WindowText));
    for (double t = first; t <= m_start + m_span; t += step) {
        const int x = int(std::lround(xOf(t, size.width())));
        if (x < kLabelWidth || x > right)
            continue;
        p.drawLine(x, kRulerHeight - 8, x, kRulerHeight);
        p.drawText(QRect(x + 3, 2, 120, kRulerHeight - 10), Qt::AlignLeft | Qt::AlignVCenter,
            formatTick(t, step));
        // Faint grid line through the tracks.
        p.save();
        p.setPen(QColor(128, 128, 128, 40));
        p.drawLine(x, kRulerHeight, x, size.height());
        p.restore();
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, kRulerHeight - 1, size.width(), kRulerHeight - 1);
    // Summary in the label column: the visible span.
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(6, 0, kLabelWidth - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
        tr("view: %1").arg(formatDuration(m_span)));
    if (m_rangeSelection) {
        const double a = std::min(m_rangeSelection->first, m_rangeSelection->second);
        const double b = std::max(m_rangeSelection->first, m_rangeSelection->second);
        const double x0 = xOf(a, size.width()), x1 = xOf(b, size.width());
        p.fillRect(QRectF(QPointF(x0, 0), QPointF(x1, kRulerHeight)), QColor(40, 120, 220, 70));
        const QString label = formatDuration(b - a);
        const QFontMetrics fm(font());
        const double cx
            = std::clamp((x0 + x1) / 2, double(kLabelWidth) + 40, double(size.width()) - 40);
        const QRectF box(cx - fm.horizontalAdvance(label) / 2.0 - 5, 4,
            fm.horizontalAdvance(label) + 10, kRulerHeight - 8);
        p.fillRect(box, QColor(40, 120, 220));
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, label);
    }
}

// ---- interaction ------------------------------------------------------------------------

void TimelineView::resizeEvent(QResizeEvent *)
{
    const int w = m_scrollBar->sizeHint().width();
    m_scrollBar->setGeometry(width() - w, kRulerHeight, w, height() - kRulerHeight);
    syncScrollBar();
}

void TimelineView::zoomAt(double factor, double anchorTime)
{
    const double span = m_span * factor;
    const double ratio = (anchorTime - m_start) / m_span;
    setRange(anchorTime - ratio * span, span);
}

void TimelineView::pan(double ns)
{
    setRange(m_start + ns, m_span);
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    const int dy = delta.y() != 0 ? delta.y() : delta.x();
    if (event->modifiers() & Qt::ControlModifier) {
        const int x = std::max(kLabelWidth, int(event->position().x()));
        zoomAt(std::pow(0.8, dy / 120.0), timeAt(x, width()));
    } else if (event->modifiers() & Qt::ShiftModifier || delta.x() != 0) {
        pan(-dy / 120.0 * m_span * 0.1);
    } else {
        m_scrollBar->setValue(m_scrollBar->value() - dy / 120 * kRowHeight * 3);
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->pos();
    m_pressStart = m_start;
    m_pressScroll = m_scrollY;
    m_dragging = false;
    m_rulerDrag = event->button() == Qt::LeftButton && event->pos().y() < kRulerHeight
        && event->pos().x() >= kLabelWidth;
    if (m_rulerDrag) {
        const double t = timeAt(event->pos().x(), width());
        m_rangeSelection = std::pair(t, t);
        update();
    }
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton) {
        if (m_rulerDrag) {
            m_rangeSelection->second = timeAt(std::max(kLabelWidth, event->pos().x()), width());
            update();
            return;
        }
        const QPoint d = event->pos() - m_pressPos;
        if (!m_dragging && d.manhattanLength() > kDragThreshold && m_pressPos.x() >= kLabelWidth)
            m_dragging = true;
        if (m_dragging) {
            setRange(m_pressStart - d.x() * nsPerPixel(width()), m_span);
            m_scrollBar->setValue(m_pressScroll - d.y());
        }
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (m_rulerDrag) {
        m_rulerDrag = false;
        if (m_rangeSelection
            && std::abs(m_rangeSelection->second - m_rangeSelection->first)
                < nsPerPixel(width()) * 2)
            m_rangeSelection.reset(); // a click on the ruler clears the range
        update();
        return;
    }
    if (m_dragging) {
        m_dragging = false;
        return;
    }
    const QPoint pos = event->pos();
    if (pos.x() < kLabelWidth && pos.y() >= kRulerHeight) {
        // Labels: toggle the group or the lane under the click.
        const int ti = trackIndexAt(pos.y() - kRulerHeight + m_scrollY);
        if (ti >= 0) {
            const Track &tr = m_tracks[size_t(ti)];
            if (tr.header)
                m_groups[size_t(tr.group)].collapsed = !m_groups[size_t(tr.group)].collapsed;
            else
                m_laneCollapsed[tr.lane] = !m_laneCollapsed[tr.lane];
            layoutTracks();
            update();
        }
        return;
    }
    m_selection->select(sliceAt(pos));
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (sliceAt(event->pos()) != kNoSlice)
        m_selection->jumpToCounterpart();
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    const double center = m_start + m_span / 2;
    const QPoint cursor = mapFromGlobal(QCursor::pos());
    const double anchorTime = rect().contains(cursor) && cursor.x() >= kLabelWidth
        ? timeAt(cursor.x(), width())
        : center;
    switch (event->key()) {
    case Qt::Key_W:
        zoomAt(0.8, anchorTime);
        break;
    case Qt::Key_S:
        zoomAt(1.25, anchorTime);
        break;
    case Qt::Key_A:
        pan(-m_span * 0.15);
        break;
    case Qt::Key_D:
        pan(m_span * 0.15);
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
        update();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

bool TimelineView::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto *help = static_cast<QHelpEvent *>(event);
    const SliceId s = sliceAt(help->pos());
    if (s == kNoSlice) {
        QToolTip::hideText();
        return true;
    }
    const SliceTable &t = m_model.slices;
    QString html = QStringLiteral("<b>%1</b><br>").arg(qs(m_model.sliceName(s)).toHtmlEscaped());
    html += tr("category: %1<br>start: %2<br>duration: %3")
                .arg(qs(m_model.str(t.category[s])).toHtmlEscaped(),
                    formatDuration(double(t.start[s] - m_model.minTime)),
                    formatDuration(double(t.dur[s])));
    if (t.inputDims[s] != 0)
        html += tr("<br>input dims: %1").arg(qs(m_model.str(t.inputDims[s])).toHtmlEscaped());
    if (t.sequence[s] != kNoValue)
        html += tr("<br>sequence number: %1").arg(t.sequence[s]);
    const GpuTotals gpu = m_graph.gpuTotalsUnder(s);
    if (gpu.count > 0)
        html += tr("<br>GPU: %1 events, %2").arg(gpu.count).arg(formatDuration(double(gpu.time)));
    QToolTip::showText(help->globalPos(), html, this);
    return true;
}

} // namespace ks
