// SPDX-License-Identifier: MIT
// The GPU half of the critical-path graph: HTA's _construct_graph_from_kernels
// (facebookresearch/HolisticTraceAnalysis f4d0062, hta/analyzers/critical_path_analysis.py:1147).
#include "analysis/criticalpath/criticalgraph.h"

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace ks {

namespace {

constexpr uint32_t kNone = ~0u;

/*!
 * Calls that queue GPU work on a stream: HTA's list (get_runtime_launch_events_mask,
 * hta/common/trace_symbol_table.py:319) and what it misses — hipExtLaunchKernel (RCCL on MI300)
 * and graph launches.
 */
bool queuesWork(std::string_view name)
{
    static constexpr std::array<std::string_view, 18> kNames = {"cudaLaunchKernel",
        "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx", "cudaMemcpyAsync",
        "cudaMemsetAsync", "runFunction - job_prep_and_submit_for_execution", "hipLaunchKernel",
        "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream",
        // beyond HTA
        "hipExtLaunchKernel", "hipModuleLaunchKernel", "cudaGraphLaunch", "cuGraphLaunch",
        "hipGraphLaunch", "cudaLaunchCooperativeKernel"};
    return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

int64_t streamKey(const GpuInfo &g, int32_t stream)
{
    return (int64_t(g.device) << 32) | uint32_t(stream);
}

//! What the loop over GPU events needs to know of launches: queue lengths and event order.
class LaunchQueues {
public:
    explicit LaunchQueues(const OpGraph &graph);

    //! Would HTA draw a launch edge to \a gpuEvent: the stream had nothing queued when its
    //! launch was issued, nothing was queued after it before it started, and it is its launch's
    //! first GPU event there.
    bool idleAtLaunch(SliceId gpuEvent) const;
    //! The last GPU event of the last launch on \a stream issued at or before \a t.
    SliceId lastLaunchedBy(int64_t stream, TimeNs t) const;
    //! The first GPU event on \a stream of the first launch from \a lane at or after \a t.
    SliceId nextLaunchedAfter(int64_t stream, LaneId lane, TimeNs t) const;
    //! The last GPU event of the last launch before \a t on another stream of \a stream's device.
    SliceId lastLaunchedBeside(int64_t stream, TimeNs t) const;

private:
    struct Queued {
        int64_t atLaunch = 0;
        int64_t atStart = 0;
        int64_t launched = 0; //!< GPU events of its launch on its stream
        bool first = false;
    };
    struct Launch {
        TimeNs time;
        SliceId launch;
        SliceId firstEvent;
        SliceId lastEvent;
    };
    const OpGraph &m_graph;
    std::unordered_map<SliceId, Queued> m_queued;
    std::map<int64_t, std::vector<Launch>> m_launches; //!< per stream, by launch time
};

LaunchQueues::LaunchQueues(const OpGraph &graph)
    : m_graph(graph)
{
    const TraceModel &m = graph.model();
    const SliceTable &s = m.slices;
    struct Step {
        TimeNs time;
        int delta;
        SliceId event; // the GPU event
    };
    std::map<int64_t, std::vector<Step>> byStream;
    std::map<std::pair<int64_t, SliceId>, std::vector<SliceId>> ofLaunch;
    const std::vector<SliceId> &gpu = graph.gpuEvents();
    const std::vector<SliceId> &launches = graph.gpuLaunches();
    for (size_t i = 0; i < gpu.size(); ++i) {
        const SliceId r = launches[i];
        if (r == kNoSlice || !queuesWork(m.sliceName(r)))
            continue;
        const int64_t key = streamKey(*m.gpu(gpu[i]), m.gpu(gpu[i])->stream);
        byStream[key].push_back({s.start[r], +1, gpu[i]});
        byStream[key].push_back({s.start[gpu[i]], -1, gpu[i]});
        ofLaunch[{key, r}].push_back(gpu[i]);
    }
    for (auto &[key, steps] : byStream) {
        std::stable_sort(steps.begin(), steps.end(), [](const Step &a, const Step &b) {
            return a.time != b.time ? a.time < b.time : a.delta > b.delta;
        });
        int64_t length = 0;
        for (const Step &st : steps) {
            length += st.delta;
            Queued &q = m_queued[st.event];
            (st.delta > 0 ? q.atLaunch : q.atStart) = length;
        }
    }
    for (auto &[key, events] : ofLaunch) {
        std::sort(events.begin(), events.end(),
            [&](SliceId a, SliceId b) { return s.start[a] < s.start[b]; });
        int64_t atLaunch = 0; // the queue once all of the launch's events were queued
        for (SliceId e : events)
            atLaunch = std::max(atLaunch, m_queued[e].atLaunch);
        for (SliceId e : events) {
            m_queued[e].launched = int64_t(events.size());
            m_queued[e].atLaunch = atLaunch;
        }
        m_queued[events.front()].first = true;
        m_launches[key.first].push_back(
            {s.start[key.second], key.second, events.front(), events.back()});
    }
    for (auto &[key, list] : m_launches)
        std::sort(list.begin(), list.end(), [&](const Launch &a, const Launch &b) {
            return a.time != b.time ? a.time < b.time : s.offset[a.launch] < s.offset[b.launch];
        });
}

bool LaunchQueues::idleAtLaunch(SliceId gpuEvent) const
{
    const auto q = m_queued.find(gpuEvent);
    if (q == m_queued.end() || !q->second.first)
        return false;
    const Queued &e = q->second;
    return e.atLaunch == e.launched && e.atStart == e.launched - 1;
}

SliceId LaunchQueues::lastLaunchedBy(int64_t stream, TimeNs t) const
{
    const auto it = m_launches.find(stream);
    if (it == m_launches.end())
        return kNoSlice;
    const auto &list = it->second;
    const auto after = std::upper_bound(
        list.begin(), list.end(), t, [](TimeNs v, const Launch &l) { return v < l.time; });
    return after == list.begin() ? kNoSlice : std::prev(after)->lastEvent;
}

SliceId LaunchQueues::nextLaunchedAfter(int64_t stream, LaneId lane, TimeNs t) const
{
    const auto it = m_launches.find(stream);
    if (it == m_launches.end())
        return kNoSlice;
    const auto &list = it->second;
    auto l = std::lower_bound(
        list.begin(), list.end(), t, [](const Launch &a, TimeNs v) { return a.time < v; });
    const SliceTable &s = m_graph.model().slices;
    for (; l != list.end(); ++l)
        if (s.lane[l->launch] == lane)
            return l->firstEvent;
    return kNoSlice;
}

SliceId LaunchQueues::lastLaunchedBeside(int64_t stream, TimeNs t) const
{
    const SliceTable &s = m_graph.model().slices;
    SliceId found = kNoSlice;
    TimeNs foundAt = 0;
    const auto first = m_launches.lower_bound(stream & ~int64_t(0xffffffff));
    for (auto it = first; it != m_launches.end() && (it->first >> 32) == (stream >> 32); ++it) {
        if (it->first == stream)
            continue;
        const SliceId e = lastLaunchedBy(it->first, t - 1);
        const TimeNs at = e == kNoSlice ? 0 : s.start[m_graph.launchOf(e)];
        if (e != kNoSlice && (found == kNoSlice || at > foundAt)) {
            found = e;
            foundAt = at;
        }
    }
    return found;
}

//! A sync event (cuda_sync) and the runtime call it belongs to.
struct SyncRow {
    SliceId event;
    SliceId call;
};

//! The runtime call of each cuda_sync event, by correlation; and each event record's stream.
struct SyncCalls {
    std::vector<SyncRow> rows;
    std::unordered_map<int64_t, int64_t> recordStream; //!< cudaEventRecord correlation → stream
    std::unordered_map<int64_t, SliceId> recordCall; //!< cudaEventRecord correlation → call

    explicit SyncCalls(const TraceModel &m)
    {
        const SliceTable &s = m.slices;
        std::unordered_map<int64_t, SliceId> calls;
        for (SliceId id = 0; id < s.size(); ++id)
            if (s.kind[id] == EventKind::Runtime && s.correlation[id] != kNoValue)
                calls[s.correlation[id]] = id;
        for (SliceId id = 0; id < s.size(); ++id) {
            if (s.kind[id] != EventKind::GpuSync)
                continue;
            const GpuInfo &g = *m.gpu(id);
            if (g.waitOnRecord != kNoValue && g.waitOnStream >= 0)
                recordStream[g.waitOnRecord] = streamKey(g, g.waitOnStream);
            const auto c = calls.find(s.correlation[id]);
            if (c != calls.end())
                rows.push_back({id, c->second});
        }
        for (const auto &[corr, call] : calls)
            if (m.sliceName(call) == "cudaEventRecord" || m.sliceName(call) == "hipEventRecord")
                recordCall[corr] = call;
    }
};

//! A sync call that waits for the GPU as a whole or for a stream (not a copy or a query).
bool waitsForGpu(std::string_view name)
{
    static constexpr std::array<std::string_view, 6> kNames
        = {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
            "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventSynchronize"};
    return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

/*!
 * For the step model, a sync call the trace records no sync event of (Kineto before 2.1 and
 * ROCm's) returns when the GPU work it waited for ends: joined to the work launched before it
 * that ended last while it waited. Calls with a recorded sync edge are in \a synced.
 */
void addInferredSyncEdges(CriticalGraph &cg,
    const std::vector<SliceId> &gpuEvents,
    const std::unordered_set<uint32_t> &synced)
{
    const OpGraph &graph = cg.graph();
    const SliceTable &s = graph.model().slices;
    std::vector<SliceId> byEnd(gpuEvents);
    std::sort(
        byEnd.begin(), byEnd.end(), [&](SliceId a, SliceId b) { return s.end(a) < s.end(b); });
    const auto &nodes = cg.nodes();
    for (uint32_t n = 0; n < nodes.size(); ++n) {
        const SliceId call = nodes[n].event;
        if (nodes[n].start || synced.count(n) || s.kind[call] != EventKind::Runtime
            || !waitsForGpu(graph.model().sliceName(call)))
            continue;
        auto it = std::upper_bound(byEnd.begin(), byEnd.end(), s.end(call),
            [&](TimeNs t, SliceId k) { return t < s.end(k); });
        for (; it != byEnd.begin() && s.end(*std::prev(it)) >= s.start[call]; --it) {
            const SliceId k = *std::prev(it);
            if (s.start[graph.launchOf(k)] < s.start[call]) {
                cg.addStepEdge(cg.endNode(k), n, PathEdgeKind::Sync, kNoSlice);
                break;
            }
        }
    }
}

} // namespace

void addGpuEdges(CriticalGraph &cg,
    const std::vector<SliceId> &gpuEvents,
    const PathWindow &w,
    bool assumeStreamOrder)
{
    const OpGraph &graph = cg.graph();
    const TraceModel &m = graph.model();
    const SliceTable &s = m.slices;
    const LaunchQueues queues(graph);
    const SyncCalls syncs(m);

    // GPU events by start, sync events by end (a stream sync can outlast the copy it waits for).
    struct Row {
        TimeNs key;
        SliceId event;
        SliceId call; // kNoSlice for GPU work
    };
    std::vector<Row> rows;
    rows.reserve(gpuEvents.size() + syncs.rows.size());
    for (SliceId k : gpuEvents)
        rows.push_back({s.start[k], k, kNoSlice});
    for (const SyncRow &r : syncs.rows) {
        const bool waitEvent = m.sliceName(r.event) == "Stream Wait Event";
        const bool onStream = m.gpu(r.event)->stream >= 0;
        const SliceId anchor = onStream ? r.call : r.event;
        if (w.holds(s, anchor) || waitEvent)
            rows.push_back({s.end(r.event), r.event, r.call});
    }
    std::sort(rows.begin(), rows.end(), [&](const Row &a, const Row &b) {
        return a.key != b.key ? a.key < b.key : s.offset[a.event] < s.offset[b.event];
    });

    std::map<int64_t, uint32_t> lastOnStream; // end node of the last GPU event seen
    std::unordered_map<SliceId, SliceId> waitsFor; // GPU event → GPU event it must follow
    auto recordedKernel = [&](const GpuInfo &g) -> SliceId {
        const auto stream = syncs.recordStream.find(g.waitOnRecord);
        const auto call = syncs.recordCall.find(g.waitOnRecord);
        if (stream == syncs.recordStream.end() || call == syncs.recordCall.end())
            return kNoSlice;
        return queues.lastLaunchedBy(stream->second, s.start[call->second]);
    };
    std::unordered_set<uint32_t> synced; // the calls' end nodes that sync edges reach
    auto syncEdge = [&](uint32_t from, SliceId call) {
        const uint32_t to = cg.endNode(call);
        if (from != kNone && to != kNone) {
            cg.addEdge(from, to, PathEdgeKind::Sync, kNoSlice);
            synced.insert(to);
        }
    };
    for (const Row &row : rows) {
        if (row.call != kNoSlice) {
            const GpuInfo &g = *m.gpu(row.event);
            const std::string_view name = m.sliceName(row.event);
            if (name == "Stream Wait Event" || name == "Event Sync") {
                const SliceId src = recordedKernel(g);
                if (src == kNoSlice)
                    continue;
                if (name == "Event Sync") {
                    syncEdge(cg.endNode(src), row.call);
                    continue;
                }
                const SliceId dest = queues.nextLaunchedAfter(
                    streamKey(g, g.stream), s.lane[row.call], s.start[row.call]);
                if (dest != kNoSlice)
                    waitsFor[dest] = src;
            } else if (name == "Stream Sync") {
                const auto last = lastOnStream.find(streamKey(g, g.stream));
                if (last != lastOnStream.end())
                    syncEdge(last->second, row.call);
            } else if (name == "Context Sync") {
                for (const auto &[key, node] : lastOnStream)
                    syncEdge(node, row.call);
            }
            continue;
        }
        const SliceId k = row.event;
        const uint32_t start = cg.startNode(k);
        const uint32_t end = cg.endNode(k);
        cg.addEdge(start, end, PathEdgeKind::Span, k);
        const int64_t key = streamKey(*m.gpu(k), m.gpu(k)->stream);
        const auto lastIt = lastOnStream.find(key);
        const uint32_t last = lastIt == lastOnStream.end() ? kNone : lastIt->second;
        uint32_t waitEnd = kNone;
        if (const auto wf = waitsFor.find(k); wf != waitsFor.end()) {
            waitEnd = cg.endNode(wf->second);
            if (waitEnd != kNone)
                cg.addEdge(waitEnd, start, PathEdgeKind::Sync, kNoSlice);
            waitsFor.erase(wf);
        }
        const auto &nodes = cg.nodes();
        const SliceId launch = graph.launchOf(k);
        const uint32_t launchStart = cg.startNode(launch);
        const TimeNs issued = s.start[launch];
        bool launchEdge = false;
        bool streamEdge = false;
        if (launchStart != kNone && queues.idleAtLaunch(k)
            && (last == kNone || nodes[last].time < issued)
            && (waitEnd == kNone || nodes[waitEnd].time < issued)) {
            cg.addEdge(launchStart, start, PathEdgeKind::LaunchDelay, kNoSlice);
            launchEdge = true;
        } else if (last != kNone && nodes[start].time - nodes[last].time < kKernelKernelThreshold
            && (waitEnd == kNone || nodes[waitEnd].time < nodes[last].time)) {
            cg.addEdge(last, start, PathEdgeKind::KernelKernel, nodes[last].event);
            streamEdge = true;
        }
        // What HTA leaves out: work starts after its launch and after the stream's previous work.
        if (!launchEdge && launchStart != kNone)
            cg.addStepEdge(launchStart, start, PathEdgeKind::LaunchDelay, kNoSlice);
        if (!streamEdge && last != kNone)
            cg.addStepEdge(last, start, PathEdgeKind::KernelKernel, nodes[last].event);
        // A blocking copy returns when its GPU copy is done (HTA gives it its own time only).
        if (const uint32_t callEnd = cg.endNode(launch); callEnd != kNone
            && isBlockingSyncCall(m.sliceName(launch)) && nodes[end].time <= nodes[callEnd].time)
            cg.addStepEdge(end, callEnd, PathEdgeKind::Sync, kNoSlice);
        if (assumeStreamOrder && launchStart != kNone)
            if (const SliceId before = queues.lastLaunchedBeside(key, issued); before != kNoSlice)
                if (const uint32_t b = cg.endNode(before);
                    b != kNone && nodes[b].time <= nodes[start].time)
                    cg.addEdge(b, start, PathEdgeKind::Sync, kNoSlice);
        lastOnStream[key] = end;
    }
    addInferredSyncEdges(cg, gpuEvents, synced);
}

} // namespace ks
