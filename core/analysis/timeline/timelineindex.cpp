// SPDX-License-Identifier: MIT
#include "analysis/timeline/timelineindex.h"

#include "base/parallel.h"
#include "link/opnames.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ks {

namespace {

SliceStyle baseStyle(const TraceModel &m, SliceId s)
{
    switch (m.slices.kind[s]) {
    case EventKind::CpuOp:
        return SliceStyle::Forward;
    case EventKind::UserAnnotation:
        return SliceStyle::Annotation;
    case EventKind::PythonFunction:
        return SliceStyle::Python;
    case EventKind::Runtime:
        return SliceStyle::Runtime;
    case EventKind::Kernel:
        return isCommunication(m.sliceName(s)) ? SliceStyle::Communication : SliceStyle::Kernel;
    case EventKind::Memcpy:
        return SliceStyle::Memcpy;
    case EventKind::Memset:
        return SliceStyle::Memset;
    case EventKind::GpuUserAnnotation:
    case EventKind::GpuSync:
        return SliceStyle::GpuAnnotation;
    case EventKind::Overhead:
    case EventKind::TraceSpan:
    case EventKind::Other:
        break;
    }
    return SliceStyle::Other;
}

//! First index in \a row whose slice ends after \a t (slices at one depth are ordered).
size_t firstEndingAfter(const TraceModel &m, std::span<const SliceId> row, TimeNs origin, double t)
{
    const SliceTable &st = m.slices;
    auto it = std::upper_bound(row.begin(), row.end(), t,
        [&](double v, SliceId s) { return v < double(st.start[s] - origin); });
    size_t i = size_t(it - row.begin());
    // The slice starting before t may still cover it; a malformed overlap may reach further. A
    // zero-length slice exactly at t is visible too (the right edge takes them the same way).
    auto reaches = [&](SliceId s) {
        return double(st.end(s) - origin) > t
            || (st.dur[s] == 0 && double(st.start[s] - origin) == t);
    };
    while (i > 0 && reaches(row[i - 1]))
        --i;
    return i;
}

} // namespace

TimelineIndex::TimelineIndex(const TraceModel &m, const OpGraph &graph)
    : m_graphLanes(m)
{
    const SliceTable &t = m.slices;
    m_rows.resize(m.lanes.size());
    m_opRows.resize(m.lanes.size());
    m_band.resize(m.lanes.size());
    m_style.resize(t.size());
    m_roles.assign(m.lanes.size(), LaneRole());
    // Lanes are independent: both cores index them, largest first.
    std::vector<LaneId> bySize(m.lanes.size());
    std::iota(bySize.begin(), bySize.end(), LaneId(0));
    std::sort(bySize.begin(), bySize.end(), [&](LaneId a, LaneId b) {
        return m.lanes[a].sliceEnd - m.lanes[a].sliceBegin
            > m.lanes[b].sliceEnd - m.lanes[b].sliceBegin;
    });
    parallelFor(
        bySize.size(), threadsFor(t.size()), [&](size_t i) { indexLane(m, graph, bySize[i]); });
    for (const BackwardNode &n : graph.nodes()) {
        m_roles[t.lane[n.node]].backward = true;
        if (n.creator != kNoSlice)
            m_roles[t.lane[n.creator]].forward = true;
    }
}

void TimelineIndex::indexLane(const TraceModel &m, const OpGraph &graph, LaneId l)
{
    const SliceTable &t = m.slices;
    const Lane &lane = m.lanes[l];
    m_rows[l].resize(lane.sliceEnd > lane.sliceBegin ? lane.maxDepth + 1 : 0);
    // Pre-order with a stack of (inside backward, inside a recomputed op) gives every slice its
    // side; the stack also counts the ops above a slice and knows its innermost Python frame.
    struct Open {
        SliceId slice;
        bool backward, recompute;
        uint32_t ops; //!< non-Python slices on the path to this one, itself included
        SliceId python; //!< the innermost Python frame on that path, kNoSlice if none
    };
    std::vector<Open> stack;
    const auto kinds = t.kind.begin();
    const bool folds
        = std::find(kinds + lane.sliceBegin, kinds + lane.sliceEnd, EventKind::PythonFunction)
        != kinds + lane.sliceEnd;
    std::vector<std::pair<SliceId, uint32_t>> ops; // (slice, op depth), for the folded rows
    // Per slice of a folding lane: a Python frame that has another one below it.
    std::vector<bool> pythonAbove(folds ? lane.sliceEnd - lane.sliceBegin : 0, false);
    for (SliceId s = lane.sliceBegin; s < lane.sliceEnd; ++s) {
        while (!stack.empty() && t.subtreeEnd[stack.back().slice] <= s)
            stack.pop_back();
        const Open *parent = stack.empty() ? nullptr : &stack.back();
        const bool parentBackward = parent && parent->backward;
        const bool startsBackward = graph.isBackwardNode(s) || isEvaluateWrapper(m.sliceName(s));
        const bool backward = parentBackward || startsBackward;
        // Outside a recomputed op, being inside one means being the op itself.
        const bool recompute
            = (parent && parent->recompute) || (parentBackward && graph.recomputationOf(s) >= 0);
        SliceStyle style = baseStyle(m, s);
        if (recompute && style != SliceStyle::Kernel && style != SliceStyle::Memcpy)
            style = SliceStyle::Recompute;
        else if (style == SliceStyle::Forward && backward)
            style = SliceStyle::Backward;
        m_style[s] = style;
        const bool python = t.kind[s] == EventKind::PythonFunction;
        const uint32_t opsAbove = parent ? parent->ops : 0;
        const SliceId pythonParent = parent ? parent->python : kNoSlice;
        if (python && pythonParent != kNoSlice)
            pythonAbove[pythonParent - lane.sliceBegin] = true;
        else if (!python && folds)
            ops.emplace_back(s, opsAbove);
        stack.push_back(
            {s, backward, recompute, opsAbove + (python ? 0 : 1), python ? s : pythonParent});
        m_rows[l][t.depth[s]].push_back(s);
    }
    if (!folds)
        return; // no Python frames: the nesting rows are the only ones
    for (const auto &[s, depth] : ops) {
        if (depth >= m_opRows[l].size())
            m_opRows[l].resize(depth + 1);
        m_opRows[l][depth].push_back(s);
    }
    for (SliceId s = lane.sliceBegin; s < lane.sliceEnd; ++s) {
        if (t.kind[s] == EventKind::PythonFunction && !pythonAbove[s - lane.sliceBegin])
            m_band[l].push_back(s);
    }
}

std::span<const SliceId> TimelineIndex::slices(LaneId lane, RowRef ref) const
{
    const auto pick = [&](const std::vector<std::vector<SliceId>> &rows) {
        return ref.depth < rows.size() ? std::span<const SliceId>(rows[ref.depth])
                                       : std::span<const SliceId>();
    };
    switch (ref.set) {
    case RowSet::Nesting:
        return pick(m_rows[lane]);
    case RowSet::Ops:
        return pick(m_opRows[lane]);
    case RowSet::Graph:
        return m_graphLanes.row(lane, ref.depth);
    case RowSet::PythonBand:
        break;
    }
    return m_band[lane];
}

uint32_t TimelineIndex::rowSlot(LaneId lane, RowRef ref) const
{
    switch (ref.set) {
    case RowSet::Nesting:
        return ref.depth;
    case RowSet::Ops:
        return depthCount(lane) + ref.depth;
    case RowSet::Graph:
        return depthCount(lane) + opDepthCount(lane) + (hasPython(lane) ? 1 : 0) + ref.depth;
    case RowSet::PythonBand:
        break;
    }
    return depthCount(lane) + opDepthCount(lane);
}

uint32_t TimelineIndex::opDepth(const TraceModel &m, SliceId s)
{
    uint32_t depth = 0;
    for (SliceId p = m.slices.parent[s]; p != kNoSlice; p = m.slices.parent[p])
        depth += m.slices.kind[p] == EventKind::PythonFunction ? 0 : 1;
    return depth;
}

void TimelineIndex::scan(const TraceModel &m,
    std::span<const SliceId> row,
    TimeNs origin,
    double t0,
    double nsPerPixel,
    double width,
    std::vector<Item> &out,
    double mergeBelow)
{
    const SliceTable &st = m.slices;
    const double t1 = t0 + width * nsPerPixel;
    auto rel = [&](TimeNs t) { return double(t - origin); };
    auto toX = [&](double t) { return (t - t0) / nsPerPixel; };
    size_t i = firstEndingAfter(m, row, origin, t0);
    while (i < row.size()) {
        const SliceId s = row[i];
        const double start = rel(st.start[s]);
        if (start >= t1 && !(start == t1 && st.dur[s] == 0))
            break;
        const double x0 = toX(start);
        const double x1 = toX(rel(st.end(s)));
        if (x1 - x0 >= mergeBelow) {
            out.push_back({s, x0, x1, 1});
            ++i;
            continue;
        }
        // A narrow slice: everything starting before the end of its pixel column joins it.
        const double column = std::floor(x0);
        const double columnEnd = t0 + (column + 1.0) * nsPerPixel;
        auto it = std::lower_bound(row.begin() + long(i) + 1, row.end(), columnEnd,
            [&](SliceId a, double v) { return rel(st.start[a]) < v; });
        size_t j = size_t(it - row.begin());
        double runEnd = std::max(column + 1.0, x1);
        // The last member may be wide and reach far past the column: it gets drawn on its own.
        if (j > i + 1 && double(st.dur[row[j - 1]]) / nsPerPixel >= mergeBelow) {
            --j;
        } else if (j > i + 1) {
            runEnd = std::max(runEnd, toX(rel(st.end(row[j - 1]))));
        }
        out.push_back({s, column, runEnd, uint32_t(j - i)});
        i = j;
    }
}

SliceId TimelineIndex::hit(
    const TraceModel &m, std::span<const SliceId> row, TimeNs origin, double t, double toleranceNs)
{
    const SliceTable &st = m.slices;
    size_t i = firstEndingAfter(m, row, origin, t - toleranceNs);
    SliceId best = kNoSlice;
    double bestDistance = toleranceNs;
    for (; i < row.size(); ++i) {
        const SliceId s = row[i];
        const double start = double(st.start[s] - origin);
        const double end = double(st.end(s) - origin);
        if (start > t + toleranceNs)
            break;
        if (start <= t && t <= end)
            return s;
        const double d = t < start ? start - t : t - end;
        if (d <= bestDistance) {
            bestDistance = d;
            best = s;
        }
    }
    return best;
}

} // namespace ks
