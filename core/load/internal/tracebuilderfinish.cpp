// SPDX-License-Identifier: MIT
// TraceBuilder::finish(): what was added, made into the model — begins left open closed, lanes
// and instants in time order, processes named, the time range, counters.
#include "tracebuilder.h"

#include "tracebuilderparts.h"

#include "base/parallel.h"
#include "base/podvector.h"
#include "kernelnames.h"
#include "slicenester.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <string>

namespace ks {

namespace {

/*!
 * \a column reordered (the value at order[i] goes to i) in its own memory, which the model's
 * column then takes over: copied into new columns, every page would be a new page fault.
 * \a scratch, room for one 8-byte value per slice, holds each column's new order meanwhile.
 */
template<typename T>
PodVector<T> reordered(
    PodVector<T> &column, const std::vector<uint32_t> &order, PodVector<uint64_t> &scratch)
{
    static_assert(sizeof(T) <= sizeof(uint64_t), "the scratch holds 8-byte values");
    void *memory = scratch.data(); // malloc'd bytes: they hold whatever type is stored in them
    T *to = static_cast<T *>(memory);
    for (size_t i = 0; i < order.size(); ++i)
        to[i] = column[order[i]];
    if (!order.empty())
        std::memcpy(static_cast<void *>(column.data()), to, order.size() * sizeof(T));
    return std::move(column);
}

/*!
 * The indices of \a items grouped by groupOf(item), a group below \a groups (counting sort:
 * file order within each group), and where each group begins (\a begin, groups + 1 entries).
 */
template<typename GroupOf>
std::vector<uint32_t> groupedBy(
    const PodVector<uint32_t> &items, size_t groups, GroupOf groupOf, std::vector<uint32_t> &begin)
{
    begin.assign(groups + 1, 0);
    for (const uint32_t item : items)
        ++begin[groupOf(item) + 1];
    std::partial_sum(begin.begin(), begin.end(), begin.begin());
    std::vector<uint32_t> next(begin.begin(), begin.end() - 1);
    std::vector<uint32_t> order(items.size());
    for (size_t i = 0; i < items.size(); ++i)
        order[next[groupOf(items[i])]++] = uint32_t(i);
    return order;
}

} // namespace

void TraceBuilder::closeOpenBegins()
{
    Columns &c = *m_columns;
    TimeNs last = std::numeric_limits<TimeNs>::min();
    for (size_t i = 0; i < c.start.size(); ++i)
        last = std::max(last, c.start[i] + c.dur[i]);
    for (const auto &[lane, open] : m_openBegins) { // in lane order
        for (uint32_t i : open) {
            m_model->diagnostics.add(Diag::UnmatchedBegin, c.offset[i],
                "B event without a matching E: closed at the end of the trace");
            c.dur[i] = std::max<TimeNs>(0, last - c.start[i]);
        }
    }
    m_openBegins.clear();
}

void TraceBuilder::buildLanes()
{
    std::vector<uint32_t> order(m_lanes.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const LaneKey &x = m_lanes[a].key, &y = m_lanes[b].key;
        return std::tie(x.device, x.pid, x.tid) < std::tie(y.device, y.pid, y.tid);
    });
    for (uint32_t i = 0; i < order.size(); ++i)
        m_lanes[order[i]].finalId = i;
    auto finalOf = [this](uint32_t lane) { return m_lanes[lane].finalId; };

    TraceModel &m = *m_model;
    SliceTable &t = m.slices;
    Columns &c = *m_columns;
    const size_t total = c.start.size();
    if (total >= kNoSlice) {
        m.diagnostics.add(Diag::TooManySlices, 0, "more than 4 billion slices: the trace is cut");
    }
    // Every lane's slices together, each lane then sorted into pre-order in place.
    std::vector<uint32_t> laneBegin;
    std::vector<uint32_t> grouped = groupedBy(c.lane, m_lanes.size(), finalOf, laneBegin);
    c.lane.release();
    std::vector<LaneSlices> lanes(m_lanes.size());
    for (size_t l = 0; l < lanes.size(); ++l)
        lanes[l] = {grouped.data() + laneBegin[l], laneBegin[l + 1] - laneBegin[l]};
    sortPreorders(c.start.data(), c.dur.data(), lanes);

    {
        PodVector<uint64_t> scratch;
        scratch.reserve(total);
        t.start = reordered(c.start, grouped, scratch);
        t.dur = reordered(c.dur, grouped, scratch);
        t.name = reordered(c.name, grouped, scratch);
        t.category = reordered(c.cat, grouped, scratch);
        t.kind = reordered(c.kind, grouped, scratch);
        t.flags = reordered(c.flags, grouped, scratch);
        t.externalId = reordered(c.externalId, grouped, scratch);
        t.correlation = reordered(c.correlation, grouped, scratch);
        t.sequence = reordered(c.sequence, grouped, scratch);
        t.fwdThread = reordered(c.fwdThread, grouped, scratch);
        t.inputDims = reordered(c.inputDims, grouped, scratch);
        t.extra = reordered(c.extra, grouped, scratch);
        t.offset = reordered(c.offset, grouped, scratch);
    }
    std::vector<uint32_t>().swap(grouped);
    // Exact capacity up front for what nestLane() appends: growing would briefly hold it twice.
    auto reserve = [total](auto &...columns) { (columns.reserve(total), ...); };
    reserve(t.depth, t.parent, t.subtreeEnd, t.lane);

    std::vector<SliceId> stack;
    m.lanes.reserve(order.size());
    const std::string_view written(m_writtenIds);
    for (LaneId laneId = 0; laneId < order.size(); ++laneId) {
        const LaneState &src = m_lanes[order[laneId]];
        const LaneKey &key = src.key;
        Lane lane;
        lane.pid = key.pid;
        lane.tid = key.tid;
        lane.pidText = m.strings.intern(written.substr(src.writtenAt, src.pidLength));
        lane.tidText
            = m.strings.intern(written.substr(src.writtenAt + src.pidLength, src.tidLength));
        lane.device = key.device;
        lane.sliceBegin = laneBegin[laneId];
        lane.sliceEnd = laneBegin[laneId + 1];
        nestLane(m, laneId, lane, stack);
        m.lanes.push_back(lane);
    }
}

void TraceBuilder::buildInstants()
{
    TraceModel &m = *m_model;
    InstantTable &table = m.instants;
    Columns &c = *m_columns;
    std::vector<uint32_t> laneBegin;
    std::vector<uint32_t> grouped = groupedBy(
        c.instantLane, m_lanes.size(), [this](uint32_t lane) { return m_lanes[lane].finalId; },
        laneBegin);
    for (LaneId laneId = 0; laneId < m.lanes.size(); ++laneId) {
        const auto first = grouped.begin() + laneBegin[laneId];
        const auto last = grouped.begin() + laneBegin[laneId + 1];
        std::stable_sort(first, last,
            [&](uint32_t a, uint32_t b) { return c.instantTime[a] < c.instantTime[b]; });
        m.lanes[laneId].instantBegin = uint32_t(table.size());
        for (auto i = first; i != last; ++i) {
            table.time.push_back(c.instantTime[*i]);
            table.name.push_back(c.instantName[*i]);
            table.lane.push_back(laneId);
            table.offset.push_back(c.instantOffset[*i]);
        }
        m.lanes[laneId].instantEnd = uint32_t(table.size());
    }
    c.instantTime.release();
    c.instantName.release();
    c.instantOffset.release();
    c.instantLane.release();
    // Global-scope instants ("Iteration Start", "Record Window End") belong to no lane.
    std::stable_sort(m_globalInstants.begin(), m_globalInstants.end(),
        [](const GlobalInstant &a, const GlobalInstant &b) { return a.time < b.time; });
    for (const GlobalInstant &g : m_globalInstants) {
        table.time.push_back(g.time);
        table.name.push_back(g.name);
        table.lane.push_back(kNoLane);
        table.offset.push_back(g.offset);
    }
    m_globalInstants.clear();
}

LaneId TraceBuilder::finalLane(int64_t pid, int64_t tid, bool device) const
{
    const auto it = m_laneIndex.find(LaneKey {pid, tid, device});
    return it == m_laneIndex.end() ? kNoLane : m_lanes[it->second].finalId;
}

void TraceBuilder::buildProcesses()
{
    TraceModel &m = *m_model;
    const StringId processName = m.strings.intern("process_name");
    const StringId processLabels = m.strings.intern("process_labels");
    const StringId processSort = m.strings.intern("process_sort_index");
    const StringId threadName = m.strings.intern("thread_name");
    const StringId threadSort = m.strings.intern("thread_sort_index");

    // Looked up by key, not by scanning: a trace may hold 100 000 threads (or processes), each
    // named by a metadata event, and a scan of every lane per name took 20 s there.
    std::map<std::pair<int64_t, bool>, size_t> processOf; // (pid, device) → index
    for (const Lane &lane : m.lanes) {
        if (processOf.try_emplace({lane.pid, lane.device}, m.processes.size()).second) {
            Process p;
            p.pid = lane.pid;
            p.pidText = lane.pidText;
            p.device = lane.device;
            m.processes.push_back(p);
        }
    }
    auto processIndex = [&](int64_t pid, bool device) -> Process * {
        const auto it = processOf.find({pid, device});
        return it == processOf.end() ? nullptr : &m.processes[it->second];
    };
    for (const MetadataEntry &md : m_metadata) {
        Process *host = processIndex(md.pid, false);
        Process *dev = processIndex(md.pid, true);
        if (md.what == processName && md.hasValue) {
            for (Process *p : {host, dev})
                if (p)
                    p->name = md.value;
        } else if (md.what == processLabels) {
            // "GPU 0" (or "MTIA 0", "XPU 0") labels the device side of a pid, anything else
            // ("CPU") the host side.
            if (Process *p = isDeviceLabel(m.strings.view(md.labels)) ? dev : host)
                p->labels = md.labels;
        } else if (md.what == processSort) {
            for (Process *p : {host, dev})
                if (p)
                    p->sortIndex = md.sortIndex;
        } else if (md.what == threadName || md.what == threadSort) {
            auto laneOf = [&](bool device) {
                const LaneId l = finalLane(md.pid, md.tid, device);
                return l == kNoLane ? nullptr : &m.lanes[l];
            };
            Lane *hostLane = laneOf(false);
            Lane *devLane = laneOf(true);
            if (md.what == threadName && md.hasValue) {
                const bool stream = m.strings.view(md.value).starts_with("stream");
                Lane *target = hostLane && devLane ? (stream ? devLane : hostLane)
                                                   : (hostLane ? hostLane : devLane);
                if (target)
                    target->threadName = md.value;
            } else if (md.what == threadSort) {
                for (Lane *lane : {hostLane, devLane})
                    if (lane)
                        lane->sortIndex = md.sortIndex;
            }
        } else {
            m.diagnostics.add(Diag::UnknownMetadata, md.offset,
                "metadata event '" + std::string(m.strings.view(md.what)) + "' ignored");
        }
    }
    m_metadata.clear();
}

void TraceBuilder::computeTimeRange()
{
    TraceModel &m = *m_model;
    TimeNs lo = std::numeric_limits<TimeNs>::max();
    TimeNs hi = std::numeric_limits<TimeNs>::min();
    for (SliceId s = 0; s < m.slices.size(); ++s) {
        lo = std::min(lo, m.slices.start[s]);
        hi = std::max(hi, m.slices.end(s));
    }
    for (size_t i = 0; i < m.instants.size(); ++i) {
        lo = std::min(lo, m.instants.time[i]);
        hi = std::max(hi, m.instants.time[i]);
    }
    for (const CounterSeries &series : m.counters) { // in time order (buildCounters)
        if (!series.time.empty()) {
            lo = std::min(lo, series.time.front());
            hi = std::max(hi, series.time.back());
        }
    }
    if (lo > hi)
        lo = hi = 0;
    m.minTime = lo;
    m.maxTime = hi;
}

void TraceBuilder::buildCounters()
{
    StringPool &strings = m_model->strings;
    for (CounterSeries &series : m_model->counters) {
        const bool text
            = series.pid >= kTextKeyBase && uint64_t(series.pid - kTextKeyBase) < strings.size();
        series.pidText = text ? StringId(series.pid - kTextKeyBase)
                              : strings.intern(std::to_string(series.pid));
        std::vector<uint32_t> perm(series.time.size());
        std::iota(perm.begin(), perm.end(), 0);
        std::stable_sort(perm.begin(), perm.end(),
            [&](uint32_t a, uint32_t b) { return series.time[a] < series.time[b]; });
        std::vector<TimeNs> time;
        std::vector<double> value;
        for (uint32_t i : perm) {
            time.push_back(series.time[i]);
            value.push_back(series.value[i]);
        }
        series.time = std::move(time);
        series.value = std::move(value);
    }
}

std::unique_ptr<TraceModel> TraceBuilder::finish()
{
    closeOpenBegins();
    // Flow endpoints and counters sort on a second thread while the lanes are built.
    const size_t events = m_flows.size() + m_columns->start.size();
    parallelInvoke(
        events,
        [this] {
            m_flows.sort();
            buildCounters();
        },
        [this] { buildLanes(); });
    buildInstants();
    buildMemory();
    buildProcesses();
    m_flows.bind(*m_model,
        [this](int64_t pid, int64_t tid, bool device) { return finalLane(pid, tid, device); });
    computeTimeRange();
    demangleKernelNames(*m_model);
    m_lanes.clear();
    std::string().swap(m_writtenIds);
    m_lastLane = ~0u;
    m_laneIndex.clear();
    auto model = std::move(m_model);
    m_model = std::make_unique<TraceModel>();
    return model;
}

} // namespace ks
