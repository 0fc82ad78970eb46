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
    m_pythonUnfolded.assign(m_model.lanes.size(), false);
    m_laneHidden.assign(m_model.lanes.size(), false);
    buildGroups();
    addCurveGroups();
    relayout();
}

void TrackLayout::addCurveGroups()
{
    Group memory, counters;
    memory.label = QStringLiteral("Memory");
    counters.label = QStringLiteral("Counters");
    for (size_t i = 0; i < m_curves.tracks.size(); ++i) {
        const CurveTrack &track = m_curves.tracks[i];
        // A GPU's hardware counters sit under its streams.
        const auto device = std::find_if(m_groups.begin(), m_groups.end(),
            [&](const Group &g) { return track.device >= 0 && g.device == track.device; });
        Group &to = track.kind == CurveTrack::Kind::Memory ? memory
            : device != m_groups.end()                     ? *device
                                                           : counters;
        to.curves.push_back(int(i));
    }
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

std::tuple<int, int64_t, bool> TrackLayout::laneOrder(LaneId l) const
{
    const LaneRole role = m_index.role(l);
    const Lane &lane = m_model.lanes[l];
    // Kineto puts a stream's Stream Sync events on a row of their own, tid = stream + 1000000,
    // sorted with the stream (kineto#1356; pytorch/kineto, libkineto/src/output_json.cpp,
    // ChromeTraceLogger::handleActivity, kSyncStreamTidOffset).
    constexpr int64_t kSyncRowOffset = 1000000;
    const bool syncRow = lane.device && lane.tid >= kSyncRowOffset;
    const int64_t tid = syncRow ? lane.tid - kSyncRowOffset : lane.tid;
    return {role.forward    ? 0
            : role.backward ? 1
                            : 2,
        lane.sortIndex == kNoValue ? tid : lane.sortIndex, syncRow};
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
            g.device = proc.pid;
            // "GPU 0", or another accelerator's own label ("MTIA 0", "XPU 0").
            g.label = isDeviceLabel(m.str(proc.labels)) ? labels
                                                        : QStringLiteral("GPU %1").arg(proc.pid);
        } else {
            g.label = (name.isEmpty() ? QStringLiteral("process") : name) + QStringLiteral(" (")
                + toQString(m.str(proc.pidText)) + QLatin1Char(')');
            if (!labels.isEmpty())
                g.label += QStringLiteral(" · ") + labels;
        }
        if (const auto it = lanesOf.find({proc.pid, proc.device}); it != lanesOf.end())
            g.lanes = it->second;
        // Forward threads first, then backward threads, then the rest by sort index and tid; a
        // stream's sync row right under its stream.
        std::stable_sort(g.lanes.begin(), g.lanes.end(),
            [&](LaneId a, LaneId b) { return laneOrder(a) < laneOrder(b); });
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
    m_rows.clear();
    m_trackOfLane.assign(m.lanes.size(), -1);
    m_trackOfGraph.assign(m_index.graphLanes().graphs().size(), -1);
    m_trackOfCurve.assign(m_curves.tracks.size(), -1);
    m_headerOfGroup.assign(m_groups.size(), -1);
    int y = 0;
    for (LaneId l : m_pinned)
        if (!m_laneHidden[l])
            y = addLane(m_groupOfLane[l], l, y, true);
    for (size_t gi = 0; gi < m_groups.size(); ++gi) {
        const Group &g = m_groups[gi];
        if (g.hidden)
            continue;
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
        for (LaneId l : g.lanes)
            if (!m_laneHidden[l] && !pinned(l))
                y = addLane(int(gi), l, y, false);
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

int TrackLayout::addLane(int group, LaneId l, int y, bool pinned)
{
    const size_t first = m_tracks.size();
    y = m_graphsCompacted && m_index.graphLanes().compacted(l) ? addGraphTracks(group, l, y)
                                                               : addLaneTrack(group, l, y);
    for (size_t t = first; pinned && t < m_tracks.size(); ++t)
        if (!m_model.lanes[l].device && m_tracks[t].graph < 0) // a host thread: say whose
            m_tracks[t].label
                = m_groups[size_t(group)].label + QStringLiteral(" · ") + m_tracks[t].label;
    return y;
}

int TrackLayout::addLaneTrack(int group, LaneId l, int y)
{
    const TraceModel &m = m_model;
    const Lane &lane = m.lanes[l];
    // Ops only: a thread of nothing but Python frames has nothing to show.
    if (m_pythonHidden && m_index.hasPython(l) && m_index.opDepthCount(l) == 0
        && lane.instantEnd == lane.instantBegin)
        return y;
    Track t;
    t.lane = l;
    t.group = group;
    t.y = y;
    t.firstRow = int(m_rows.size());
    y = addLaneRows(l, y);
    t.rowCount = int(m_rows.size()) - t.firstRow;
    t.height = y - t.y;
    if (lane.device) {
        t.label = m_groups[size_t(group)].label + QStringLiteral(" · ") + toQString(m.laneLabel(l));
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
    return y;
}

int TrackLayout::addGraphTracks(int group, LaneId host, int y)
{
    const GraphLanes &lanes = m_index.graphLanes();
    for (const GraphLanes::Graph &graph : lanes.hostedBy(host)) {
        Track t;
        t.lane = host;
        t.group = group;
        t.graph = int(&graph - lanes.graphs().data());
        t.y = y;
        t.firstRow = int(m_rows.size());
        y += kLanePad;
        for (uint32_t r = 0; r < graph.rowCount; ++r) {
            m_rows.push_back({{RowSet::Graph, graph.firstRow + r}, y, kRowHeight});
            y += kRowHeight;
        }
        y += kLanePad;
        t.rowCount = int(graph.rowCount);
        t.height = y - t.y;
        t.label = m_groups[size_t(group)].label + QStringLiteral(" · graph ")
            + QString::number(graph.graphId);
        // Short enough to share the lane's one row with its name; Details names each stream.
        t.detail = graph.streams.size() == 1
            ? toQString(m_model.laneLabel(graph.streams[0]))
            : QStringLiteral("%1 streams").arg(graph.streams.size());
        m_trackOfGraph[size_t(t.graph)] = int(m_tracks.size());
        m_tracks.push_back(t);
    }
    return y;
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
    else if (tr.curve < 0 && tr.graph < 0)
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

int TrackLayout::addLaneRows(LaneId l, int y)
{
    y += kLanePad;
    auto add = [&](RowRef ref, int height) {
        m_rows.push_back({ref, y, height});
        y += height;
    };
    const bool python = m_index.hasPython(l);
    if (python && !m_pythonHidden)
        add({RowSet::PythonBand, 0}, kPythonBandHeight);
    const bool folded = python && (m_pythonHidden || !m_pythonUnfolded[l]);
    const RowSet set = folded ? RowSet::Ops : RowSet::Nesting;
    const uint32_t shown = m_laneCollapsed[l] ? 1 : contentDepths(l);
    for (uint32_t d = 0; d < shown; ++d)
        add({set, d}, kRowHeight);
    return y + kLanePad;
}

std::span<const TrackLayout::Row> TrackLayout::rows(int track) const
{
    const Track &t = m_tracks[size_t(track)];
    return std::span(m_rows).subspan(size_t(t.firstRow), size_t(t.rowCount));
}

int TrackLayout::rowAt(int track, int y) const
{
    const Track &tr = m_tracks[size_t(track)];
    if (tr.header || tr.curve >= 0)
        return -1;
    const std::span<const Row> r = rows(track);
    for (size_t i = 0; i < r.size(); ++i) {
        if (y >= r[i].y && y < r[i].y + r[i].height)
            return int(i);
    }
    return -1;
}

std::span<const LaneId> TrackLayout::lanesOf(int track) const
{
    const Track &t = m_tracks[size_t(track)];
    if (t.graph >= 0)
        return m_index.graphLanes().graphs()[size_t(t.graph)].streams;
    return {&t.lane, 1};
}

int TrackLayout::trackOf(SliceId s) const
{
    const LaneId lane = m_model.slices.lane[s];
    if (!m_graphsCompacted || !m_index.graphLanes().compacted(lane))
        return laneTrack(lane);
    return m_trackOfGraph[m_index.graphLanes().placeOf(s).graph];
}

std::optional<TrackLayout::Row> TrackLayout::rowOf(SliceId s) const
{
    const SliceTable &t = m_model.slices;
    const LaneId lane = t.lane[s];
    const int ti = trackOf(s);
    if (ti < 0)
        return std::nullopt;
    if (m_tracks[size_t(ti)].graph >= 0) {
        const RowRef want {RowSet::Graph, m_index.graphLanes().placeOf(s).row};
        for (const Row &row : rows(ti)) {
            if (row.ref == want)
                return row;
        }
        return std::nullopt;
    }
    const bool pythonFrame = t.kind[s] == EventKind::PythonFunction;
    RowRef want {RowSet::Nesting, t.depth[s]};
    if (m_index.hasPython(lane) && (m_pythonHidden || !m_pythonUnfolded[lane])) {
        if (pythonFrame && m_pythonHidden)
            return std::nullopt;
        want = pythonFrame ? RowRef {RowSet::PythonBand, 0}
                           : RowRef {RowSet::Ops, TimelineIndex::opDepth(m_model, s)};
    }
    const std::span<const Row> r = rows(ti);
    for (const Row &row : r) {
        if (row.ref == want)
            return row;
    }
    // A collapsed lane: everything under the band shows on its first row.
    return firstContentRow(ti);
}

std::optional<double> TrackLayout::anchorY(SliceId s) const
{
    if (const std::optional<Row> row = rowOf(s))
        return row->y + row->height / 2.0;
    const LaneId lane = m_model.slices.lane[s];
    if (laneTrack(lane) >= 0)
        return std::nullopt; // shown, but not this slice (Python hidden)
    // The lane's group is collapsed: anchor on its header.
    const int g = lane < m_groupOfLane.size() ? m_groupOfLane[lane] : -1;
    if (g < 0 || !m_groups[size_t(g)].collapsed || m_headerOfGroup[size_t(g)] < 0)
        return std::nullopt;
    const Track &header = m_tracks[size_t(m_headerOfGroup[size_t(g)])];
    return header.y + header.height / 2.0;
}

bool TrackLayout::pythonFolded(LaneId lane) const
{
    return m_index.hasPython(lane) && !m_pythonUnfolded[lane];
}

uint32_t TrackLayout::contentDepths(LaneId lane) const
{
    const bool folded = m_index.hasPython(lane) && (m_pythonHidden || !m_pythonUnfolded[lane]);
    return std::max<uint32_t>(1, folded ? m_index.opDepthCount(lane) : m_index.depthCount(lane));
}

void TrackLayout::setPythonFolded(LaneId lane, bool folded)
{
    m_pythonUnfolded[lane] = !folded;
    relayout();
}

void TrackLayout::setPythonHidden(bool hidden)
{
    m_pythonHidden = hidden;
    relayout();
}

void TrackLayout::setGraphsCompacted(bool compacted)
{
    m_graphsCompacted = compacted;
    relayout();
}

QString TrackLayout::laneKey(LaneId lane) const
{
    const Lane &l = m_model.lanes[lane];
    return (l.device ? QStringLiteral("gpu ") : QString()) + toQString(m_model.str(l.pidText))
        + QLatin1Char('/') + toQString(m_model.str(l.tidText));
}

TrackLayout::FoldState TrackLayout::folds() const
{
    FoldState state;
    for (const Group &g : m_groups) {
        if (g.collapsed)
            state.collapsedGroups << g.label;
    }
    for (LaneId l = 0; l < m_model.lanes.size(); ++l) {
        if (m_laneCollapsed[l])
            state.collapsedLanes << laneKey(l);
        if (m_pythonUnfolded[l])
            state.unfoldedPython << laneKey(l);
        if (m_laneHidden[l])
            state.hiddenLanes << laneKey(l);
    }
    for (LaneId l : m_pinned)
        state.pinnedLanes << laneKey(l);
    for (const Group &g : m_groups) {
        if (g.hidden)
            state.hiddenGroups << g.label;
        for (LaneId l : g.reordered ? g.lanes : std::vector<LaneId>())
            state.laneOrder << laneKey(l);
    }
    return state;
}

void TrackLayout::restore(const FoldState &state)
{
    for (Group &g : m_groups)
        g.collapsed = state.collapsedGroups.contains(g.label);
    std::map<QString, LaneId> laneNamed;
    for (LaneId l = 0; l < m_model.lanes.size(); ++l) {
        const QString key = laneKey(l);
        laneNamed[key] = l;
        m_laneCollapsed[l] = state.collapsedLanes.contains(key);
        m_pythonUnfolded[l] = state.unfoldedPython.contains(key);
        m_laneHidden[l] = state.hiddenLanes.contains(key);
    }
    m_pinned.clear();
    for (const QString &key : state.pinnedLanes)
        if (const auto it = laneNamed.find(key);
            it != laneNamed.end() && m_groupOfLane[it->second] >= 0)
            m_pinned.push_back(it->second);
    for (Group &g : m_groups) {
        g.hidden = state.hiddenGroups.contains(g.label);
        // The user's order where it names the lanes; lanes it does not name keep theirs, after.
        auto place = [&](LaneId l) {
            const qsizetype at = state.laneOrder.indexOf(laneKey(l));
            return at < 0 ? state.laneOrder.size() : at;
        };
        g.reordered = std::any_of(g.lanes.begin(), g.lanes.end(),
            [&](LaneId l) { return place(l) < state.laneOrder.size(); });
        std::stable_sort(g.lanes.begin(), g.lanes.end(),
            [&](LaneId a, LaneId b) { return place(a) < place(b); });
    }
    relayout();
}

void TrackLayout::setPinned(LaneId lane, bool pin)
{
    std::erase(m_pinned, lane);
    if (pin)
        m_pinned.push_back(lane);
    relayout();
}

bool TrackLayout::pinned(LaneId lane) const
{
    return std::find(m_pinned.begin(), m_pinned.end(), lane) != m_pinned.end();
}

void TrackLayout::hideLane(LaneId lane)
{
    m_laneHidden[lane] = true;
    relayout();
}

void TrackLayout::hideGroup(int group)
{
    m_groups[size_t(group)].hidden = true;
    relayout();
}

void TrackLayout::showOnlyGroup(int group)
{
    for (size_t g = 0; g < m_groups.size(); ++g)
        m_groups[g].hidden = int(g) != group;
    relayout();
}

void TrackLayout::collapseOtherGroups(int group)
{
    for (size_t g = 0; g < m_groups.size(); ++g)
        m_groups[g].collapsed = int(g) != group;
    relayout();
}

void TrackLayout::moveLane(LaneId lane, int delta)
{
    Group *group = pinned(lane) ? nullptr : &m_groups[size_t(m_groupOfLane[lane])];
    std::vector<LaneId> &lanes = group ? group->lanes : m_pinned;
    const ptrdiff_t at = std::find(lanes.begin(), lanes.end(), lane) - lanes.begin();
    // Past the lanes that do not show there: one place is one place on screen.
    auto shown = [&](ptrdiff_t i) {
        return !group || (!m_laneHidden[lanes[size_t(i)]] && !pinned(lanes[size_t(i)]));
    };
    ptrdiff_t to = at;
    do
        to += delta < 0 ? -1 : 1;
    while (to >= 0 && to < ptrdiff_t(lanes.size()) && !shown(to));
    if (delta == 0 || to < 0 || to >= ptrdiff_t(lanes.size()))
        return;
    std::swap(lanes[size_t(at)], lanes[size_t(to)]);
    if (group)
        group->reordered = true;
    relayout();
}

int TrackLayout::hiddenCount() const
{
    return int(std::count(m_laneHidden.begin(), m_laneHidden.end(), true))
        + int(std::count_if(
            m_groups.begin(), m_groups.end(), [](const Group &g) { return g.hidden; }));
}

void TrackLayout::showAll()
{
    m_laneHidden.assign(m_laneHidden.size(), false);
    for (Group &g : m_groups)
        g.hidden = false;
    relayout();
}

} // namespace ks
