// SPDX-License-Identifier: MIT
#include "timeline/trackgeometry.h"

#include "common/qstrings.h"
#include "common/slicecolors.h"
#include "timeline/timelinemetrics.h"

#include <QColor>
#include <QFontMetrics>

#include <algorithm>

namespace ks {

TrackGeometry::TrackGeometry(const TraceModel &model, const TimelineIndex &index)
    : m_model(model)
    , m_index(index)
    , m_rows(model.lanes.size())
{
    for (LaneId l = 0; l < m_rows.size(); ++l)
        m_rows[l].resize(index.rowSlots(l));
}

void TrackGeometry::prepare(const timeline::TimeAxis &axis, const QFont &font)
{
    // Exact comparisons: any change of the range moves pixels, and equal doubles give equal
    // pictures.
    const bool same = m_prepared && axis.start == m_axis.start && axis.span == m_axis.span
        && axis.left == m_axis.left && axis.width == m_axis.width && font == m_font;
    if (same)
        return;
    for (auto [lane, slot] : m_built) {
        Row &row = m_rows[lane][slot];
        row.built = false;
        row.pieces.clear();
    }
    m_built.clear();
    m_axis = axis;
    m_font = font;
    m_prepared = true;
}

const std::vector<TrackGeometry::Piece> &TrackGeometry::row(LaneId lane, RowRef ref)
{
    const uint32_t slot = m_index.rowSlot(lane, ref);
    Row &row = m_rows[lane][slot];
    if (!row.built) {
        build(lane, ref, row.pieces);
        row.built = true;
        m_built.emplace_back(lane, slot);
        ++m_scans;
    }
    return row.pieces;
}

QRgb TrackGeometry::colorOf(SliceId s)
{
    const SliceStyle style = m_index.style(s);
    const uint64_t key = (uint64_t(m_model.slices.name[s]) << 8) | uint64_t(style);
    auto [it, inserted] = m_colors.try_emplace(key, 0);
    if (inserted)
        it->second = SliceColors::forStyle(style, m_model.sliceName(s)).rgb();
    return it->second;
}

QRgb TrackGeometry::mergedColor(SliceStyle style)
{
    QRgb &c = m_mergedColors[size_t(style)];
    if (c == 0)
        c = SliceColors::forStyle(style, {}).darker(125).rgb();
    return c;
}

void TrackGeometry::build(LaneId lane, RowRef ref, std::vector<Piece> &out)
{
    const timeline::TimeAxis &axis = m_axis;
    m_items.clear();
    TimelineIndex::scan(m_model, m_index.slices(lane, ref), m_model.minTime, axis.start,
        axis.nsPerPixel, axis.width, m_items);
    const bool band = ref.set == RowSet::PythonBand;
    const int height = band ? timeline::kPythonBandHeight : timeline::kRowHeight;
    const QFontMetrics fm(m_font);
    const QRgb recomputeRun = mergedColor(SliceStyle::Recompute);
    // Adjacent runs of merged slices share one neutral colour per style and become one
    // rectangle: a zoomed-out row of a million slices costs a few fills.
    Piece pending {};
    bool havePending = false;
    auto flush = [&] {
        if (havePending)
            out.push_back(std::move(pending));
        havePending = false;
    };
    for (const TimelineIndex::Item &item : m_items) {
        // Clipped to just outside the tracks: a slice far off screen would hand QPainter
        // coordinates past its precision.
        const double x0 = std::max(-2.0, item.x0) + axis.left;
        const double x1 = std::min(double(axis.width) + 2, item.x1) + axis.left;
        const QRectF r(x0, 1, std::max(1.0, x1 - x0), height - 2);
        if (item.count > 1) {
            const QRgb c = mergedColor(m_index.style(item.slice));
            if (havePending && c == pending.color && r.left() <= pending.rect.right() + 0.5) {
                pending.rect.setRight(std::max(pending.rect.right(), r.right()));
            } else {
                flush();
                pending = {r, c, kNoSlice, c == recomputeRun, 0, {}};
                havePending = true;
            }
            continue;
        }
        flush();
        const QRgb c = colorOf(item.slice);
        Piece piece {r, c, item.slice, m_index.style(item.slice) == SliceStyle::Recompute, 0, {}};
        if (r.width() > 28 && !band) {
            const std::string_view name = m_model.sliceName(item.slice);
            QString text = fm.elidedText(toQString(name), Qt::ElideRight, int(r.width()) - 6);
            if (!text.isEmpty() && text != QStringLiteral("…")) {
                piece.text = std::move(text);
                piece.textColor
                    = QColor::fromRgb(c).lightness() > 150 ? qRgb(25, 25, 25) : qRgb(250, 250, 250);
            }
        }
        out.push_back(std::move(piece));
    }
    flush();
}

} // namespace ks
