// SPDX-License-Identifier: MIT
#include "analysis/criticalpath/criticalgraph.h"

#include "analysis/criticalpath/pathowners.h"
#include "link/opnames.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace ks {

namespace {

constexpr uint32_t kNone = ~0u;

// Calls that hold the runtime's lock (HTA's CUDA_RUNTIME_EVENTS, critical_path_analysis.py:34),
// with their HIP counterparts, which HTA leaves out.
bool holdsRuntimeLock(std::string_view name)
{
    static constexpr std::array<std::string_view, 7> kNames
        = {"cudaHostAlloc", "cudaLaunchKernel", "cudaMemcpyAsync", "hipHostMalloc",
            "hipLaunchKernel", "hipExtLaunchKernel", "hipMemcpyAsync"};
    return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

//! The one host lane whose ops or annotations have \a word in their name, kNoLane if not one.
LaneId onlyLaneNaming(
    const TraceModel &m, const std::vector<SliceId> &events, std::string_view word)
{
    LaneId found = kNoLane;
    for (SliceId s : events) {
        const EventKind k = m.slices.kind[s];
        if ((k != EventKind::CpuOp && k != EventKind::UserAnnotation)
            || m.sliceName(s).find(word) == std::string_view::npos)
            continue;
        if (found != kNoLane && found != m.slices.lane[s])
            return kNoLane;
        found = m.slices.lane[s];
    }
    return found;
}

// One end of an event for HTA's call-stack order (hta/common/call_stack.py:64, compare_events).
struct StackEvent {
    uint64_t idx; // file order
    TimeNs time;
    TimeNs dur;
    bool start;
    SliceId slice;
};

bool stackBefore(const StackEvent &x, const StackEvent &y)
{
    if (x.idx == y.idx)
        return x.start && !y.start;
    if (x.time != y.time)
        return x.time < y.time;
    if (x.start == y.start) {
        if (x.dur == y.dur)
            return x.start ? x.idx < y.idx : x.idx > y.idx;
        return x.start ? x.dur > y.dur : x.dur < y.dur;
    }
    return !x.start; // an end before a start at the same time (durations are > 0)
}

} // namespace

bool isBlockingSyncCall(std::string_view name)
{
    // HTA's BLOCKING_SYNC_CALLS (critical_path_analysis.py:162) and their HIP counterparts.
    static constexpr std::array<std::string_view, 12> kNames = {"cudaDeviceSynchronize",
        "cudaStreamSynchronize", "cudaEventQuery", "cudaEventSynchronize", "cudaMemcpy",
        "cudaMemcpyAsync", "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventQuery",
        "hipEventSynchronize", "hipMemcpy", "hipMemcpyAsync"};
    return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

CriticalGraph::CriticalGraph(const OpGraph &graph,
    const PathWindow &window,
    const NameTest &dataLoading,
    bool assumeStreamOrder)
    : m_graph(graph)
{
    const TraceModel &m = graph.model();
    const SliceTable &s = m.slices;
    std::vector<SliceId> host; // every host event in the window: the call stacks
    std::vector<SliceId> events; // those that get nodes
    std::vector<bool> launchInWindow(s.size(), false);
    std::vector<int8_t> loadingName(dataLoading ? m.strings.size() : 0, -1); // -1: not tried
    auto isLoading = [&](SliceId id) {
        int8_t &known = loadingName[s.name[id]];
        if (known < 0) {
            const std::string_view name = m.strings.view(s.name[id]);
            known = int8_t(dataLoading(name));
        }
        return known == 1;
    };
    for (SliceId id = 0; id < s.size(); ++id) {
        if (m.lanes[s.lane[id]].device || !window.holds(s, id))
            continue;
        host.push_back(id);
        launchInWindow[id] = true;
        const bool loading = dataLoading && isLoading(id);
        if (loading)
            m_dataLoading.push_back(id);
        if (s.kind[id] == EventKind::CpuOp || s.kind[id] == EventKind::Runtime || loading)
            events.push_back(id);
    }
    std::vector<SliceId> gpu;
    const std::vector<SliceId> &all = graph.gpuEvents();
    const std::vector<SliceId> &launches = graph.gpuLaunches();
    for (size_t i = 0; i < all.size(); ++i)
        if (launches[i] != kNoSlice && launchInWindow[launches[i]])
            gpu.push_back(all[i]);
    events.insert(events.end(), gpu.begin(), gpu.end());
    addNodes(events);
    addRuntimeLockEdges();
    addCallStackEdges(host);
    addGpuEdges(*this, gpu, window, assumeStreamOrder);
    m_dag.finish();
}

bool CriticalGraph::isDataLoading(SliceId event) const
{
    return std::binary_search(m_dataLoading.begin(), m_dataLoading.end(), event);
}

void CriticalGraph::addNodes(const std::vector<SliceId> &events)
{
    const SliceTable &s = m_graph.model().slices;
    m_nodes.reserve(2 * events.size());
    for (SliceId e : events) {
        m_nodes.push_back({.event = e, .start = true, .time = s.start[e]});
        m_nodes.push_back({.event = e, .start = false, .time = s.end(e)});
    }
    // HTA sorts by (ts, event index), a start before the end of the same event.
    std::stable_sort(m_nodes.begin(), m_nodes.end(), [&](const PathNode &a, const PathNode &b) {
        if (a.time != b.time)
            return a.time < b.time;
        if (a.event != b.event)
            return s.offset[a.event] < s.offset[b.event];
        return a.start && !b.start;
    });
    m_nodeOfSlice.assign(s.size(), kNone);
    m_endOfSlice.assign(s.size(), kNone);
    for (uint32_t n = 0; n < m_nodes.size(); ++n)
        (m_nodes[n].start ? m_nodeOfSlice : m_endOfSlice)[m_nodes[n].event] = n;
    m_dag = PathDag(m_nodes.size());
}

uint32_t CriticalGraph::startNode(SliceId event) const
{
    return event < m_nodeOfSlice.size() ? m_nodeOfSlice[event] : kNone;
}

uint32_t CriticalGraph::endNode(SliceId event) const
{
    return event < m_endOfSlice.size() ? m_endOfSlice[event] : kNone;
}

std::string_view CriticalGraph::eventName(SliceId event) const
{
    return m_graph.model().sliceName(event);
}

PathBound CriticalGraph::spanBound(SliceId event) const
{
    if (event == kNoSlice || !isGpuWork(m_graph.model().slices.kind[event]))
        return isDataLoading(event) ? PathBound::DataLoading : PathBound::Cpu;
    return isCommunication(eventName(event)) ? PathBound::GpuCommunication : PathBound::GpuCompute;
}

std::vector<RowSide> CriticalGraph::rowSides(const std::vector<SliceId> &events) const
{
    RowSides sides(m_graph);
    std::vector<RowSide> out;
    out.reserve(events.size());
    for (SliceId e : events)
        out.push_back(sides.of(e));
    return out;
}

size_t CriticalGraph::rowCount() const
{
    return m_graph.rows().size();
}

std::string_view CriticalGraph::pairName(int row) const
{
    if (row < 0)
        return {};
    const SliceId rep = m_graph.representativeSlice(m_graph.rows()[size_t(row)]);
    return rep == kNoSlice ? std::string_view() : m_graph.model().sliceName(rep);
}

void CriticalGraph::addEdge(
    uint32_t from, uint32_t to, PathEdgeKind kind, SliceId charged, bool zero)
{
    const bool timed = !zero && kind != PathEdgeKind::Dependency && kind != PathEdgeKind::Sync;
    const TimeNs w = timed ? std::max<TimeNs>(0, m_nodes[to].time - m_nodes[from].time) : 0;
    m_dag.add({.from = from, .to = to, .weight = w, .charged = charged, .kind = kind});
}

void CriticalGraph::addStepEdge(uint32_t from, uint32_t to, PathEdgeKind kind, SliceId charged)
{
    m_dag.addStepEdge({.from = from,
        .to = to,
        .weight = std::max<TimeNs>(0, m_nodes[to].time - m_nodes[from].time),
        .charged = charged,
        .kind = kind});
}

// Calls holding the runtime lock complete one at a time, whatever their thread: each waits for
// the one that completed before it (HTA's _construct_graph_from_cuda_runtime_events).
void CriticalGraph::addRuntimeLockEdges()
{
    const TraceModel &m = m_graph.model();
    std::vector<uint32_t> open;
    uint32_t last = kNone;
    for (uint32_t n = 0; n < m_nodes.size(); ++n) {
        const PathNode &node = m_nodes[n];
        if (!holdsRuntimeLock(m.sliceName(node.event)))
            continue;
        if (node.start) {
            open.push_back(n);
        } else {
            for (; !open.empty(); open.pop_back()) {
                const uint32_t o = open.back();
                const bool own = m_nodes[o].event == node.event;
                addEdge(o, n, own ? PathEdgeKind::Span : PathEdgeKind::Dependency,
                    own ? node.event : kNoSlice);
            }
            if (last != kNone && !m_nodes[last].start)
                addEdge(last, n, PathEdgeKind::Dependency, kNoSlice);
        }
        last = n;
    }
}

// Each thread's events in call-stack order, the backward thread merged into the forward one
// (HTA's _construct_graph_from_call_stacks and _construct_graph_from_call_stack).
void CriticalGraph::addCallStackEdges(const std::vector<SliceId> &hostEvents)
{
    const TraceModel &m = m_graph.model();
    const SliceTable &s = m.slices;
    const LaneId fwd = onlyLaneNaming(m, hostEvents, "forward");
    const LaneId bwd = onlyLaneNaming(m, hostEvents, "autograd");
    auto groupOf = [&](SliceId id) {
        const LaneId l = s.lane[id];
        return l == bwd && fwd != kNoLane ? fwd : l;
    };
    std::unordered_map<LaneId, std::vector<StackEvent>> groups;
    for (SliceId id : hostEvents) {
        auto &g = groups[groupOf(id)];
        g.push_back({s.offset[id], s.start[id], s.dur[id], true, id});
        g.push_back({s.offset[id], s.end(id), s.dur[id], false, id});
    }
    auto isLock = [&](uint32_t n) { return holdsRuntimeLock(m.sliceName(m_nodes[n].event)); };
    auto sharesLock = [&](uint32_t a, uint32_t b) {
        return isLock(a) && isLock(b) && (m_nodes[a].start || !m_nodes[b].start);
    };
    for (auto &[lane, seq] : groups) {
        std::sort(seq.begin(), seq.end(), stackBefore);
        // HTA's stack pops whatever is on top at an end: build that tree, then walk it.
        std::unordered_map<SliceId, SliceId> parent;
        std::unordered_map<SliceId, std::vector<SliceId>> children;
        std::vector<SliceId> roots, stack;
        for (const StackEvent &e : seq) {
            if (e.start) {
                const SliceId p = stack.empty() ? kNoSlice : stack.back();
                parent[e.slice] = p;
                (p == kNoSlice ? roots : children[p]).push_back(e.slice);
                stack.push_back(e.slice);
            } else if (!stack.empty()) {
                stack.pop_back();
            }
        }
        uint32_t last = kNone;
        int depth = 0;
        SliceId lastParent = kNoSlice;
        auto charge = [&](uint32_t from, uint32_t to) {
            if (m_nodes[from].start)
                return m_nodes[from].event;
            return m_nodes[to].start ? lastParent : m_nodes[to].event;
        };
        auto visit = [&](SliceId id, bool enter) {
            const uint32_t n = enter ? startNode(id) : endNode(id);
            if (n == kNone)
                return;
            if (last != kNone && !sharesLock(last, n)) {
                const bool topLevel = enter && depth == 0;
                const bool blocking = !enter && isBlockingSyncCall(m.sliceName(id));
                if (topLevel)
                    addEdge(last, n, PathEdgeKind::Dependency, kNoSlice);
                else
                    addEdge(last, n, PathEdgeKind::Span, charge(last, n), blocking);
            }
            last = n;
            lastParent = parent[id];
            depth += enter ? 1 : -1;
        };
        // Iterative depth-first walk: (slice, next child index).
        std::vector<std::pair<SliceId, size_t>> walk;
        for (SliceId root : roots) {
            visit(root, true);
            walk.emplace_back(root, 0);
            while (!walk.empty()) {
                auto &[id, next] = walk.back();
                const auto kids = children.find(id);
                if (kids != children.end() && next < kids->second.size()) {
                    const SliceId child = kids->second[next++];
                    visit(child, true);
                    walk.emplace_back(child, 0);
                } else {
                    visit(id, false);
                    walk.pop_back();
                }
            }
        }
    }
}

} // namespace ks
