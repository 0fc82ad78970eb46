// SPDX-License-Identifier: MIT
#include "run/collectivebands.h"

#include "timeline/chainpainter.h"
#include "timeline/timelineview.h"

#include <QPainter>

#include <algorithm>
#include <optional>

namespace ks {

CollectiveBands::CollectiveBands(
    const Run &run, std::vector<TimelineView *> timelines, QWidget *parent)
    : QWidget(parent)
    , m_run(run)
    , m_timelines(std::move(timelines))
{
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    for (const Collective &c : run.collectives.collectives)
        m_maxSkew = std::max(m_maxSkew, c.skew());
}

void CollectiveBands::setCurrent(int collective)
{
    m_current = collective;
    update();
}

void CollectiveBands::setPathHops(std::vector<RankHop> hops)
{
    m_hops = std::move(hops);
    update();
}

void CollectiveBands::paintHops(QPainter &p)
{
    m_hopLines.clear();
    auto at = [&](uint32_t rank, SliceId event, TimeNs time) -> std::optional<QPointF> {
        const TimelineView *view = m_timelines[rank];
        if (!view || !view->isVisible())
            return std::nullopt;
        const auto point = view->pathPoint(event, time);
        if (!point)
            return std::nullopt;
        return *point + QPointF(view->mapTo(parentWidget(), QPoint(0, 0)) - pos());
    };
    for (const RankHop &hop : m_hops) {
        const auto from = at(hop.fromRank, hop.from, hop.fromTime);
        const auto to = at(hop.toRank, hop.to, hop.toTime);
        if (!from || !to)
            continue;
        drawPathHop(p, *from, *to);
        m_hopLines.emplace_back(*from, *to);
    }
}

void CollectiveBands::paintEvent(QPaintEvent *)
{
    m_bands.clear();
    m_lastArrivers.clear();
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const auto &collectives = m_run.collectives.collectives;
    for (size_t ci = 0; ci < collectives.size(); ++ci) {
        const Collective &c = collectives[ci];
        const bool current = int(ci) == m_current;
        // The kernel's rectangle on each rank shown, in this widget's coordinates.
        std::vector<std::pair<QRectF, bool>> shown; // rect, last arriver
        for (const CollectiveKernel &k : c.kernels) {
            TimelineView *view = m_timelines[k.rankIndex];
            if (!view || !view->isVisible())
                continue;
            const std::optional<QRectF> r = view->sliceRect(k.kernel);
            if (!r)
                continue;
            const QPointF origin = view->mapTo(parentWidget(), QPoint(0, 0));
            shown.emplace_back(r->translated(origin - pos()), k.rankIndex == c.lastRankIndex);
        }
        const double weight = double(c.skew()) / double(m_maxSkew);
        for (const QPolygonF &band : paintCollective(p, shown, weight, current, m_lastArrivers))
            m_bands.push_back({int(ci), band, current});
    }
    paintHops(p);
}

std::vector<QPolygonF> paintCollective(QPainter &p,
    const std::vector<std::pair<QRectF, bool>> &shown,
    double weight,
    bool current,
    std::vector<QRectF> &lastArrivers)
{
    std::vector<QPolygonF> bands;
    QColor fill = QColor::fromHsvF(0.08, 0.35 + 0.6 * weight, 0.95);
    fill.setAlphaF(current ? 0.55 : 0.18 + 0.25 * weight);
    for (size_t i = 0; i + 1 < shown.size(); ++i) {
        const QRectF a = shown[i].first, b = shown[i + 1].first;
        QPolygonF band;
        band << a.bottomLeft() << a.bottomRight() << b.topRight() << b.topLeft();
        p.setPen(current ? QPen(QColor(200, 90, 0), 1.5) : Qt::NoPen);
        p.setBrush(fill);
        p.drawPolygon(band);
        bands.push_back(band);
    }
    for (const auto &[rect, last] : shown) {
        if (!last || shown.size() < 2)
            continue;
        p.setPen(QPen(QColor(210, 30, 30), current ? 2.5 : 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect.adjusted(-1, -1, 1, 1));
        lastArrivers.push_back(rect);
    }
    return bands;
}

} // namespace ks
