// SPDX-License-Identifier: MIT
#include "timeline/tracklayout.h"

#include "common/qstrings.h"
#include "timeline/timelinecoordinates.h"
#include "timeline/timelinemetrics.h"

#include <QStringList>

#include <algorithm>
#include <map>
#include <tuple>

namespace ks {

using namespace timeline;

namespace {

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

TrackLayout::TrackLayout(
    const TraceModel &model, const TimelineIndex &index, const TraceCurves &curves)
    : m_model(model)
    , m_index(index)
    , m_curves(curves)
{
    m_laneCollapsed.assign(m_model.lanes.size(), false);
    buildGroups();
    addCurveGroups();
    relayout();
}

void TrackLayout::addCurveGroups()
{
    Group memory, counters;
    memory.label = QStringLiteral("Memory");
    counters.label = QStringLiteral("Counters");
    for (size_t i = 0; i < m_curves.tracks.size(); ++i)
        (m_curves.tracks[i].kind == CurveTrack::Kind::Memory ? memory : counters)
            .curves.push_back(int(i));
    for (Group *g : {&memory, &counters}) {
        if (!g->curves.empty())
            m_groups.push_back(std::move(*g));
    }
    // Each memory track's peak, against the largest.
    std::vector<double> peaks(m_curves.tracks.size(), 0);
    double largest = 0;
    for (size_t i = 0; i < m_curves.tracks.size(); ++i) {
        const CurveTrack &track = m_curves.tracks[i];
        if (track.kind != CurveTrack::Kind::Memory)
            continue;
        for (const Curve &curve : track.curves)
            if (const auto range = curve.rangeOver(m_model.minTime, m_model.maxTime + 1))
                peaks[i] = std::max(peaks[i], range->max);
        largest = std::max(largest, peaks[i]);
    }
    m_smallCurve.assign(m_curves.tracks.size(), false);
    for (size_t i = 0; i < peaks.size(); ++i)
        m_smallCurve[i]
            = m_curves.tracks[i].kind == CurveTrack::Kind::Memory && peaks[i] < largest / 100;
}

void TrackLayout::buildGroups()
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
    m_groupOfLane.assign(m.lanes.size(), -1);
    // Each process's lanes in one pass (a trace may hold 100 000 processes: a scan of every lane
    // per process would be quadratic).
    std::map<std::pair<int64_t, bool>, std::vector<LaneId>> lanesOf;
    for (LaneId l = 0; l < m.lanes.size(); ++l) {
        const Lane &lane = m.lanes[l];
        if (lane.sliceEnd > lane.sliceBegin || lane.instantEnd > lane.instantBegin)
            lanesOf[{lane.pid, lane.device}].push_back(l);
    }
    for (const Key &key : keys) {
        const Process &proc = m.processes[key.process];
        Group g;
        const QString name = toQString(m.str(proc.name));
        const QString labels = toQString(m.str(proc.labels));
        if (proc.device) {
            g.label = labels.startsWith(QLatin1String("GPU"))
                ? labels
                : QStringLiteral("GPU %1").arg(proc.pid);
        } else {
            g.label = (name.isEmpty() ? QStringLiteral("process") : name) + QStringLiteral(" (")
                + toQString(m.str(proc.pidText)) + QLatin1Char(')');
            if (!labels.isEmpty())
                g.label += QStringLiteral(" · ") + labels;
        }
        if (const auto it = lanesOf.find({proc.pid, proc.device}); it != lanesOf.end())
            g.lanes = it->second;
        // Forward threads first, then backward threads, then the rest by sort index and tid.
        std::stable_sort(g.lanes.begin(), g.lanes.end(), [&](LaneId a, LaneId b) {
            auto rank = [&](LaneId l) {
                const LaneRole r = m_index.role(l);
                return r.forward ? 0 : r.backward ? 1 : 2;
            };
            const Lane &x = m.lanes[a], &y = m.lanes[b];
            const int64_t sx = x.sortIndex == kNoValue ? x.tid : x.sortIndex;
            const int64_t sy = y.sortIndex == kNoValue ? y.tid : y.sortIndex;
            return std::tuple(rank(a), sx) < std::tuple(rank(b), sy);
        });
        if (g.lanes.empty())
            continue;
        for (LaneId l : g.lanes)
            m_groupOfLane[l] = int(m_groups.size());
        m_groups.push_back(std::move(g));
    }
}

void TrackLayout::relayout()
{
    const TraceModel &m = m_model;
    m_tracks.clear();
    m_trackOfLane.assign(m.lanes.size(), -1);
    m_trackOfCurve.assign(m_curves.tracks.size(), -1);
    m_headerOfGroup.assign(m_groups.size(), -1);
    int y = 0;
    for (size_t gi = 0; gi < m_groups.size(); ++gi) {
        const Group &g = m_groups[gi];
        Track header;
        header.header = true;
        header.group = int(gi);
        header.y = y;
        header.height = kHeaderHeight;
        header.label = g.label;
        m_headerOfGroup[gi] = int(m_tracks.size());
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
            const uint32_t depths = std::max<uint32_t>(1, m_index.depthCount(l));
            t.height = int(m_laneCollapsed[l] ? 1 : depths) * kRowHeight + 2 * kLanePad;
            if (lane.device) {
                t.label = g.label + QStringLiteral(" · ") + toQString(m.laneLabel(l));
            } else {
                t.label = toQString(m.laneLabel(l));
                const LaneRole role = m_index.role(l);
                t.detail = role.forward && role.backward ? QStringLiteral("forward + backward")
                    : role.forward                       ? QStringLiteral("forward")
                    : role.backward                      ? QStringLiteral("backward")
                                                         : QString();
            }
            m_trackOfLane[l] = int(m_tracks.size());
            m_tracks.push_back(t);
            y += t.height;
        }
        for (int c : g.curves) {
            const CurveTrack &curve = m_curves.tracks[size_t(c)];
            Track t;
            t.group = int(gi);
            t.curve = c;
            t.y = y;
            t.height = m_smallCurve[size_t(c)] ? kSmallCurveTrackHeight : kCurveTrackHeight;
            t.label = toQString(curve.label);
            QStringList names;
            for (const std::string &name : curve.curveNames)
                names << toQString(name);
            t.detail = curve.kind == CurveTrack::Kind::Memory ? names.join(QStringLiteral(" · "))
                                                              : QString();
            if (curve.relative)
                t.detail = QStringLiteral("allocated since the first event");
            m_trackOfCurve[size_t(c)] = int(m_tracks.size());
            m_tracks.push_back(t);
            y += t.height;
        }
    }
}

int TrackLayout::contentHeight() const
{
    return m_tracks.empty() ? 0 : m_tracks.back().y + m_tracks.back().height;
}

void TrackLayout::setLaneCollapsed(LaneId lane, bool collapsed)
{
    m_laneCollapsed[lane] = collapsed;
    relayout();
}

void TrackLayout::toggle(int index)
{
    const Track &tr = m_tracks[size_t(index)];
    if (tr.header)
        m_groups[size_t(tr.group)].collapsed = !m_groups[size_t(tr.group)].collapsed;
    else if (tr.curve < 0)
        m_laneCollapsed[tr.lane] = !m_laneCollapsed[tr.lane];
    relayout();
}

bool TrackLayout::expandGroupOf(LaneId lane)
{
    const int g = lane < m_groupOfLane.size() ? m_groupOfLane[lane] : -1;
    if (g < 0 || !m_groups[size_t(g)].collapsed)
        return false;
    m_groups[size_t(g)].collapsed = false;
    relayout();
    return true;
}

int TrackLayout::trackAt(int y) const
{
    auto it = std::upper_bound(
        m_tracks.begin(), m_tracks.end(), y, [](int v, const Track &t) { return v < t.y; });
    if (it == m_tracks.begin())
        return -1;
    --it;
    return y < it->y + it->height ? int(it - m_tracks.begin()) : -1;
}

uint32_t TrackLayout::visibleRows(LaneId lane) const
{
    const uint32_t depths = m_index.depthCount(lane);
    return m_laneCollapsed[lane] ? std::min<uint32_t>(1, depths) : depths;
}

int TrackLayout::rowAt(int track, int y) const
{
    const Track &tr = m_tracks[size_t(track)];
    if (tr.header || tr.curve >= 0)
        return -1;
    return timeline::rowAt(y - tr.y - kLanePad, kRowHeight, int(visibleRows(tr.lane)));
}

int TrackLayout::rowTop(int track, uint32_t depth) const
{
    return m_tracks[size_t(track)].y + kLanePad + int(depth) * kRowHeight;
}

std::optional<double> TrackLayout::anchorY(LaneId lane, uint32_t depth) const
{
    const int ti = laneTrack(lane);
    if (ti >= 0)
        return rowTop(ti, m_laneCollapsed[lane] ? 0 : depth) + kRowHeight / 2.0;
    // The lane's group is collapsed: anchor on its header.
    const int g = lane < m_groupOfLane.size() ? m_groupOfLane[lane] : -1;
    if (g < 0)
        return std::nullopt;
    const Track &header = m_tracks[size_t(m_headerOfGroup[size_t(g)])];
    return header.y + header.height / 2.0;
}

} // namespace ks
