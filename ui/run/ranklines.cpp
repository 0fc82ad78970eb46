// SPDX-License-Identifier: MIT
#include "run/ranklines.h"

#include "timeline/timegestures.h"

#include "common/palette.h"
#include "run/collectivebands.h"
#include "timeline/paintframe.h"
#include "timeline/rulerpainter.h"
#include "timeline/zoomcontrol.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ks {

using timeline::kLabelWidth;
using timeline::kRulerHeight;

namespace {

constexpr int kTop = kRulerHeight + 4; //!< the first line's top, before scrolling

//! Each rank's GPU work on the run clock.
std::vector<std::vector<WorkInterval>> workLines(const Run &run)
{
    std::vector<std::vector<WorkInterval>> lines;
    for (const RankTrace &r : run.ranks) {
        std::vector<WorkInterval> line = gpuWorkLine(*r.graph);
        for (WorkInterval &w : line) {
            w.start = r.runTime(w.start);
            w.end = r.runTime(w.end);
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

} // namespace

RankLines::RankLines(std::shared_ptr<const Run> run, QWidget *parent)
    : QWidget(parent)
    , m_run(std::move(run))
    , m_zoom(nullptr)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumHeight(kTop + kRowHeight * 2);
    TimeNs to = 0;
    for (size_t i = 0; i < m_run->ranks.size(); ++i) {
        const RankTrace &r = m_run->ranks[i];
        const TimeNs a = r.runTime(r.graph->model().minTime);
        const TimeNs b = r.runTime(r.graph->model().maxTime);
        m_from = i == 0 ? a : std::min(m_from, a);
        to = i == 0 ? b : std::max(to, b);
    }
    m_zoom = new ZoomControl(double(std::max<TimeNs>(1, to - m_from)), this);
    m_zoom->setExtent(double(m_from), double(to));
    m_zoom->showAll();
    connect(m_zoom, &ZoomControl::rangeChanged, this, [this] {
        update();
        emit rangeChanged();
    });
    m_gestures = std::make_unique<TimeGestures>(
        m_zoom, kLabelWidth, kRowHeight, [this] { return m_scrollY; },
        [this](int y) { scrollTo(y); });
    m_work.run([run = m_run](const std::atomic<bool> &) { return workLines(*run); },
        [this](const std::vector<std::vector<WorkInterval>> &lines) {
            m_lines = lines;
            update();
        });
}

RankLines::~RankLines() = default;

double RankLines::rangeStart() const
{
    return m_zoom->start();
}

double RankLines::rangeSpan() const
{
    return m_zoom->span();
}

void RankLines::setRange(double start, double span)
{
    m_zoom->setRange(start, span);
}

void RankLines::setCurrentCollective(int index)
{
    m_current = index;
    update();
}

QRect RankLines::rowRect(size_t rankIndex) const
{
    return QRect(kLabelWidth, kTop + int(rankIndex) * kRowHeight - m_scrollY, width() - kLabelWidth,
        kLineHeight);
}

double RankLines::xOf(TimeNs t) const
{
    const timeline::TimeAxis axis(rangeStart(), rangeSpan(), kLabelWidth, width() - kLabelWidth);
    return axis.x(double(t));
}

int RankLines::rankAt(int y) const
{
    const int i = (y - kTop + m_scrollY) / kRowHeight;
    return y >= kTop && i < int(m_run->ranks.size()) ? i : -1;
}

void RankLines::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const timeline::TimeAxis axis(rangeStart(), rangeSpan(), kLabelWidth, width() - kLabelWidth);
    const PaintFrame frame {size(), axis, 0, palette(), font(), 0};
    p.save();
    p.setClipRect(QRect(0, kRulerHeight, width(), height() - kRulerHeight));
    p.fillRect(QRect(0, kRulerHeight, kLabelWidth, height()), palette().color(QPalette::Window));
    for (size_t i = 0; i < m_run->ranks.size(); ++i) {
        const QRect row = rowRect(i);
        if (row.bottom() < kRulerHeight || row.top() > height())
            continue;
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(8, row.top(), kLabelWidth - 12, row.height()),
            Qt::AlignVCenter | Qt::AlignLeft, tr("rank %1").arg(m_run->ranks[i].rank));
        if (i < m_lines.size())
            paintLine(p, i, row);
    }
    paintLegend(p);
    if (m_lines.empty())
        p.drawText(rect().adjusted(kLabelWidth + 8, kTop, 0, 0), Qt::AlignTop | Qt::AlignLeft,
            tr("Working out each rank's GPU work…"));
    p.setClipRect(QRect(kLabelWidth, kRulerHeight, width() - kLabelWidth, height() - kRulerHeight));
    // Not antialiased: translucent bands over the whole view cost 20 ms a frame with 1 024 ranks
    // antialiased (bench_views --rank-lines), 2 ms without; their edges are nearly horizontal.
    paintCollectives(p);
    p.restore();
    RulerPainter::paint(p, frame, std::nullopt);
}

void RankLines::paintLegend(QPainter &p) const
{
    static constexpr WorkPart kParts[]
        = {WorkPart::Forward, WorkPart::Backward, WorkPart::Recompute, WorkPart::BackwardOther,
            WorkPart::Other, WorkPart::Communication, WorkPart::Memcpy};
    const int lineHeight = fontMetrics().height();
    int y = kTop + int(m_run->ranks.size()) * kRowHeight - m_scrollY + 8;
    for (WorkPart part : kParts) {
        p.fillRect(QRect(8, y + 3, 12, lineHeight - 6), workColor(part));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(26, y, kLabelWidth - 30, lineHeight), Qt::AlignVCenter | Qt::AlignLeft,
            QString::fromLatin1(workPartName(part)).replace(QLatin1Char('_'), QLatin1Char(' ')));
        y += lineHeight;
    }
}

void RankLines::paintLine(QPainter &p, size_t rankIndex, const QRect &row) const
{
    const std::vector<WorkInterval> &line = m_lines[rankIndex];
    const double t0 = rangeStart(), t1 = t0 + rangeSpan();
    auto it = std::lower_bound(line.begin(), line.end(), t0,
        [](const WorkInterval &w, double t) { return double(w.end) < t; });
    // Stretches under a pixel share their column, drawn in the colour of the longest work.
    int column = std::numeric_limits<int>::min();
    std::array<TimeNs, kStepCategories> inColumn {};
    auto flush = [&] {
        const auto longest = std::max_element(inColumn.begin(), inColumn.end());
        if (*longest > 0)
            p.fillRect(QRect(column, row.top(), 1, row.height()),
                workColor(WorkPart(longest - inColumn.begin())));
        inColumn = {};
    };
    for (; it != line.end() && double(it->start) < t1; ++it) {
        // (Work begun before the view starts at its left edge, not over the rank labels.)
        const double x0 = std::max<double>(kLabelWidth, xOf(it->start)), x1 = xOf(it->end);
        if (x1 - x0 >= 1) {
            flush();
            column = std::numeric_limits<int>::min();
            p.fillRect(QRectF(x0, row.top(), x1 - x0, row.height()), workColor(it->part));
            continue;
        }
        if (int(std::floor(x0)) != column) {
            flush();
            column = int(std::floor(x0));
        }
        inColumn[size_t(it->part)] += it->end - it->start;
    }
    flush();
}

void RankLines::paintCollectives(QPainter &p) const
{
    TimeNs maxSkew = 1;
    for (const Collective &c : m_run->collectives.collectives)
        maxSkew = std::max(maxSkew, c.skew());
    const double t0 = rangeStart(), t1 = t0 + rangeSpan();
    std::vector<QRectF> lastArrivers;
    const auto &collectives = m_run->collectives.collectives;
    for (size_t ci = 0; ci < collectives.size(); ++ci) {
        const Collective &c = collectives[ci];
        if (double(c.firstStart) > t1 || double(c.lastStart + c.maxDur) < t0)
            continue;
        // Its kernels on the ranks in view, and the nearest one above and below (kernels are
        // by rank, top to bottom): a band into the view is drawn, none of the thousand others.
        const auto below = [this](const CollectiveKernel &k, int y) {
            return rowRect(k.rankIndex).bottom() < y;
        };
        const auto first = std::lower_bound(c.kernels.begin(), c.kernels.end(), kTop, below);
        const auto last = std::lower_bound(first, c.kernels.end(), height(),
            [this](const CollectiveKernel &k, int y) { return rowRect(k.rankIndex).top() <= y; });
        std::vector<std::pair<QRectF, bool>> shown;
        for (auto it = first == c.kernels.begin() ? first : first - 1;
             it != c.kernels.end() && it <= last; ++it) {
            const CollectiveKernel &k = *it;
            const QRect row = rowRect(k.rankIndex);
            const double x0 = xOf(k.start);
            const double x1 = std::max(x0 + 2, xOf(k.start + k.dur));
            shown.emplace_back(
                QRectF(x0, row.top(), x1 - x0, row.height()), k.rankIndex == c.lastRankIndex);
        }
        paintCollective(
            p, shown, double(c.skew()) / double(maxSkew), int(ci) == m_current, lastArrivers);
    }
}

void RankLines::wheelEvent(QWheelEvent *event)
{
    m_gestures->wheel(event, width() - kLabelWidth);
}

void RankLines::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        m_gestures->press(event->pos());
}

void RankLines::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton)
        m_gestures->move(event->pos(), width() - kLabelWidth);
}

void RankLines::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        m_gestures->release();
}

void RankLines::scrollTo(int y)
{
    const int content = int(m_run->ranks.size()) * kRowHeight;
    m_scrollY = std::clamp(y, 0, std::max(0, content - (height() - kTop)));
    update();
}

void RankLines::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (const int rank = rankAt(event->pos().y()); rank >= 0)
        emit rankActivated(size_t(rank));
}

} // namespace ks
