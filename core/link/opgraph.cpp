// SPDX-License-Identifier: MIT
#include "link/opgraph.h"

#include "base/bothcores.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>

namespace ks {

namespace {

constexpr std::string_view kEvaluatePrefix = "autograd::engine::evaluate_function:";

bool parseStepNumber(std::string_view name, int64_t &n)
{
    constexpr std::string_view prefix = "ProfilerStep#";
    if (!name.starts_with(prefix) || name.size() == prefix.size())
        return false;
    const std::string_view digits = name.substr(prefix.size());
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    // A number beyond int64 (found by the fuzzer) is no step number.
    return std::from_chars(digits.data(), digits.data() + digits.size(), n).ec == std::errc();
}

//! std::equal_range of \a key over \a v by \a proj, counting comparisons into \a steps.
template<typename T, typename Key, typename Proj>
auto equalRangeCounted(const std::vector<T> &v, const Key &key, Proj proj, uint64_t &steps)
{
    auto lo = std::lower_bound(v.begin(), v.end(), key, [&](const T &e, const Key &k) {
        ++steps;
        return proj(e) < k;
    });
    auto hi = std::upper_bound(lo, v.end(), key, [&](const Key &k, const T &e) {
        ++steps;
        return k < proj(e);
    });
    return std::pair(lo, hi);
}

} // namespace

std::string_view linkMethodName(LinkMethod method)
{
    switch (method) {
    case LinkMethod::Flow:
        return "flow";
    case LinkMethod::Sequence:
        return "sequence";
    case LinkMethod::None:
        break;
    }
    return "none";
}

bool OpGraph::isEvaluateWrapper(std::string_view name)
{
    return name.starts_with(kEvaluatePrefix);
}

bool OpGraph::isUnpairedBackwardWork(std::string_view name)
{
    // The engine's root, gradient accumulation and module hooks are never what a forward op of
    // the model created (trace-format.md §10): their time is "backward – other".
    return name == "torch::autograd::GraphRoot"
        || name.find("AccumulateGrad") != std::string_view::npos
        || name.find("BackwardHookFunctionBackward") != std::string_view::npos;
}

bool OpGraph::isCommunication(std::string_view name)
{
    return name.find("nccl") != std::string_view::npos
        || name.find("rccl") != std::string_view::npos;
}

OpGraph::OpGraph(const TraceModel &model)
    : m_model(model)
{
}

std::unique_ptr<OpGraph> OpGraph::build(const TraceModel &model, const LinkOptions &options)
{
    std::unique_ptr<OpGraph> g(new OpGraph(model));
    g->m_options = options;
    // GPU attribution and forward/backward pairing are independent: one runs on a second core.
    // They write disjoint members (the GPU tables and their counters vs. nodes and steps).
    runOnBothCores(
        model.slices.size(), [&g] { g->attributeGpu(); },
        [&g, &options] {
            g->findSteps();
            g->findNodes();
            if (options.useFlows)
                g->pairByFlows();
            // With flows, the fallback first only cross-checks them, then pairs what they missed.
            if (g->m_stats.pairsFromFlows > 0)
                g->pairBySequence(true);
            g->pairBySequence(false);
            g->findRecomputations();
        });
    g->indexRecomputeGpu();
    g->buildRows();
    return g;
}

SliceId OpGraph::innermostCpuOp(SliceId s) const
{
    const SliceTable &t = m_model.slices;
    for (SliceId a = t.parent[s]; a != kNoSlice; a = t.parent[a]) {
        if (t.kind[a] == EventKind::CpuOp)
            return a;
    }
    return kNoSlice;
}

void OpGraph::attributeGpu()
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;

    // §9 step 4: GPU event → launch by correlation; the launch flow is the fallback. Sorted
    // vectors rather than hash maps: millions of entries, looked up once each.
    std::vector<std::pair<int64_t, SliceId>> launchByCorrelation;
    // Ops by External id: only for launches outside every op, so built on first need.
    std::unordered_multimap<int64_t, SliceId> opsByExternalId;
    bool opsIndexed = false;
    auto indexOps = [&] {
        opsIndexed = true;
        for (SliceId s = 0; s < t.size(); ++s) {
            if (t.kind[s] == EventKind::CpuOp && t.externalId[s] != kNoValue)
                opsByExternalId.emplace(t.externalId[s], s);
        }
    };
    for (LaneId l = 0; l < m.lanes.size(); ++l) {
        if (m.lanes[l].device)
            continue;
        for (SliceId s = m.lanes[l].sliceBegin; s < m.lanes[l].sliceEnd; ++s) {
            if (t.kind[s] == EventKind::Runtime && t.correlation[s] != kNoValue)
                launchByCorrelation.emplace_back(t.correlation[s], s);
        }
    }
    // On a duplicate correlation the first launch in lane order wins.
    std::stable_sort(launchByCorrelation.begin(), launchByCorrelation.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<std::pair<SliceId, SliceId>> launchByFlow; // GPU event → launch
    for (const FlowEdge &e : m.flows) {
        if (e.kind == FlowKind::LaunchToGpu && e.from != kNoSlice && e.to != kNoSlice
            && t.kind[e.from] == EventKind::Runtime)
            launchByFlow.emplace_back(e.to, e.from);
    }
    std::stable_sort(launchByFlow.begin(), launchByFlow.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    // Kernel names are long and few: decide "communication" once per name.
    std::unordered_map<StringId, bool> communicationName;

    for (LaneId l = 0; l < m.lanes.size(); ++l) {
        if (!m.lanes[l].device)
            continue;
        for (SliceId s = m.lanes[l].sliceBegin; s < m.lanes[l].sliceEnd; ++s) {
            if (isGpuWork(t.kind[s]))
                m_gpuEvents.push_back(s);
        }
    }
    m_launch.assign(m_gpuEvents.size(), kNoSlice);
    m_launchingOp.assign(m_gpuEvents.size(), kNoSlice);
    m_stats.gpuEvents = m_gpuEvents.size();

    for (uint32_t i = 0; i < m_gpuEvents.size(); ++i) {
        const SliceId g = m_gpuEvents[i];
        auto [name, fresh] = communicationName.try_emplace(t.name[g], false);
        if (fresh)
            name->second = isCommunication(m.sliceName(g));
        m_stats.communicationGpuEvents += name->second;
        SliceId launch = kNoSlice;
        if (t.correlation[g] != kNoValue) {
            auto it = std::lower_bound(launchByCorrelation.begin(), launchByCorrelation.end(),
                std::pair(t.correlation[g], SliceId(0)));
            if (it != launchByCorrelation.end() && it->first == t.correlation[g])
                launch = it->second;
        }
        if (launch == kNoSlice) {
            auto it = std::lower_bound(
                launchByFlow.begin(), launchByFlow.end(), std::pair(g, SliceId(0)));
            if (it != launchByFlow.end() && it->first == g)
                launch = it->second;
        }
        if (launch == kNoSlice)
            continue;
        m_launch[i] = launch;
        ++m_stats.gpuEventsWithLaunch;

        // §9 step 5: innermost enclosing cpu_op, refined by the launch's External id unless
        // it merely repeats the correlation (2022–2024 traces).
        SliceId op = innermostCpuOp(launch);
        const int64_t ext = t.externalId[launch];
        const bool usefulExt = ext != kNoValue && ext != t.correlation[launch];
        if (op != kNoSlice && usefulExt) {
            for (SliceId a = op; a != kNoSlice; a = t.parent[a]) {
                if (t.kind[a] == EventKind::CpuOp && t.externalId[a] == ext) {
                    op = a;
                    break;
                }
            }
        } else if (op == kNoSlice && usefulExt) {
            if (!opsIndexed)
                indexOps();
            if (opsByExternalId.count(ext) == 1)
                op = opsByExternalId.find(ext)->second;
        }
        m_launchingOp[i] = op;
        if (op != kNoSlice)
            ++m_stats.gpuEventsAttributed;
    }

    // GPU events ordered by launch slice: a subtree [s, subtreeEnd) is then one range.
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < m_gpuEvents.size(); ++i) {
        if (m_launch[i] != kNoSlice)
            order.push_back(i);
    }
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::tie(m_launch[a], m_gpuEvents[a]) < std::tie(m_launch[b], m_gpuEvents[b]);
    });
    m_launchSorted.reserve(order.size());
    m_gpuByLaunch.reserve(order.size());
    m_prefixTime.reserve(order.size() + 1);
    m_prefixTime.push_back(0);
    for (uint32_t i : order) {
        m_launchSorted.push_back(m_launch[i]);
        m_gpuByLaunch.push_back(m_gpuEvents[i]);
        m_prefixTime.push_back(m_prefixTime.back() + t.dur[m_gpuEvents[i]]);
    }
}

void OpGraph::findNodes()
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;
    for (LaneId l = 0; l < m.lanes.size(); ++l) {
        if (m.lanes[l].device)
            continue;
        for (SliceId s = m.lanes[l].sliceBegin; s < m.lanes[l].sliceEnd; ++s) {
            if (t.kind[s] != EventKind::CpuOp || t.sequence[s] == kNoValue)
                continue;
            m_stats.hasSequenceNumbers = true;
            if (t.fwdThread[s] == kNoValue || t.fwdThread[s] <= 0)
                continue;
            const std::string_view name = m.sliceName(s);
            // The wrapper carries the node's number too (1.12+) but is not the node.
            if (isEvaluateWrapper(name) || isUnpairedBackwardWork(name))
                continue;
            BackwardNode node;
            node.node = s;
            const SliceId p = t.parent[s];
            node.outer = p != kNoSlice && isEvaluateWrapper(m.sliceName(p)) ? p : s;
            const auto index = uint32_t(m_nodes.size());
            m_nodes.push_back(node);
            m_nodeBySlice.emplace(s, index);
            if (node.outer != s)
                m_nodeBySlice.emplace(node.outer, index);
        }
    }
    m_stats.backwardNodes = m_nodes.size();
}

void OpGraph::pairByFlows()
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;
    auto sameStart = [&](LaneId lane, TimeNs ts) {
        const Lane &l = m.lanes[lane];
        auto first = t.start.begin() + l.sliceBegin;
        auto last = t.start.begin() + l.sliceEnd;
        auto [lo, hi] = std::equal_range(first, last, ts);
        return std::pair(SliceId(lo - t.start.begin()), SliceId(hi - t.start.begin()));
    };
    Diagnostics &diag = m_diagnostics;
    for (const FlowEdge &e : m.flows) {
        if (e.kind != FlowKind::FwdBwd)
            continue;
        // §9 step 7: endpoints are matched by identical (pid, tid, ts), not by viewer binding.
        SliceId creator = kNoSlice;
        auto [lo, hi] = sameStart(e.fromLane, e.fromTime);
        for (SliceId s = lo; s < hi; ++s) {
            if (t.kind[s] == EventKind::CpuOp && t.sequence[s] != kNoValue
                && (t.fwdThread[s] == kNoValue || t.fwdThread[s] == 0)
                && (creator == kNoSlice || t.depth[s] >= t.depth[creator]))
                creator = s;
        }
        int node = -1;
        auto [nlo, nhi] = sameStart(e.toLane, e.toTime);
        for (SliceId s = nlo; s < nhi && node < 0; ++s) {
            if (auto it = m_nodeBySlice.find(s); it != m_nodeBySlice.end())
                node = int(it->second);
        }
        if (node < 0) {
            // Hooks carry numbers and get flows, but are deliberately not nodes.
            bool hook = false;
            for (SliceId s = nlo; s < nhi; ++s)
                hook = hook || isUnpairedBackwardWork(m.sliceName(s));
            if (hook) {
                diag.add(Diag::FwdbwdFlowToHook, t.offset[nlo],
                    "fwdbwd flow to a backward hook: not a pair");
                continue;
            }
        }
        if (creator == kNoSlice || node < 0) {
            const SliceId at = creator != kNoSlice ? creator : e.from;
            diag.add(Diag::FwdbwdFlowUnmatched, at != kNoSlice ? t.offset[at] : 0,
                "fwdbwd flow whose ends are not a numbered forward op and a backward node");
            continue;
        }
        BackwardNode &n = m_nodes[size_t(node)];
        if (t.sequence[creator] != t.sequence[n.node]) {
            diag.add(Diag::FwdbwdFlowSequenceMismatch, t.offset[n.node],
                "fwdbwd flow joins ops with different sequence numbers: ignored");
            continue;
        }
        if (n.creator != kNoSlice) {
            diag.add(Diag::FwdbwdFlowDuplicate, t.offset[n.node],
                "second fwdbwd flow to one node: ignored");
            continue;
        }
        n.creator = creator;
        n.method = LinkMethod::Flow;
        ++m_stats.pairsFromFlows;
    }
}

void OpGraph::pairBySequence(bool crossCheckOnly)
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;
    if (m_nodes.empty())
        return;
    // Every comparison below is counted: the cost stays O(n log n) whatever the trace holds
    // (thousands of ops sharing one number included), and the tests check it by this count.
    uint64_t &steps = m_stats.pairingSteps;

    // §9 step 8a: forward candidates, grouped by (lane, number).
    struct Candidate {
        LaneId lane;
        int64_t seq;
        TimeNs start, end;
        SliceId slice;
    };
    std::vector<Candidate> cands;
    for (LaneId l = 0; l < m.lanes.size(); ++l) {
        if (m.lanes[l].device)
            continue;
        for (SliceId s = m.lanes[l].sliceBegin; s < m.lanes[l].sliceEnd; ++s) {
            if (t.kind[s] == EventKind::CpuOp && t.sequence[s] != kNoValue
                && (t.fwdThread[s] == kNoValue || t.fwdThread[s] == 0))
                cands.push_back({l, t.sequence[s], t.start[s], t.end(s), s});
        }
    }
    // Within a group, by end: the candidates that ended before a node starts are then a prefix.
    std::sort(cands.begin(), cands.end(), [](const Candidate &a, const Candidate &b) {
        return std::tie(a.lane, a.seq, a.end, a.slice) < std::tie(b.lane, b.seq, b.end, b.slice);
    });
    auto group = [&](LaneId lane, int64_t seq) {
        return equalRangeCounted(
            cands, std::pair(lane, seq),
            [](const Candidate &c) { return std::pair(c.lane, c.seq); }, steps);
    };
    // best[i]: the creator among the group's candidates up to i (by end) — the latest start,
    // then the later end, then the first in the file (a candidate's end never precedes its start,
    // so every one that ended before the node also started before it).
    std::vector<uint32_t> best(cands.size());
    for (uint32_t i = 0; i < cands.size(); ++i) {
        const bool first
            = i == 0 || cands[i].lane != cands[i - 1].lane || cands[i].seq != cands[i - 1].seq;
        best[i] = i;
        if (!first) {
            const Candidate &a = cands[best[i - 1]], &b = cands[i];
            if (std::tie(a.start, a.end) >= std::tie(b.start, b.end)
                && !(std::tie(a.start, a.end) == std::tie(b.start, b.end) && b.slice < a.slice))
                best[i] = best[i - 1];
        }
    }

    // §9 step 8b: which host thread is profiler thread T (per process)? Each number a node of T
    // carries votes for the threads whose forward ops carry it too.
    using ThreadKey = std::pair<int64_t, int64_t>; // (pid, Fwd thread id)
    std::map<ThreadKey, std::vector<int64_t>> numbersByThread;
    for (const BackwardNode &node : m_nodes)
        numbersByThread[{m.lanes[t.lane[node.node]].pid, t.fwdThread[node.node]}].push_back(
            t.sequence[node.node]);
    struct LaneNumber {
        int64_t pid, seq;
        LaneId lane;
        auto key() const { return std::tie(pid, seq, lane); }
    };
    std::vector<LaneNumber> laneNumbers;
    laneNumbers.reserve(cands.size());
    for (const Candidate &c : cands) {
        const LaneNumber n {m.lanes[c.lane].pid, c.seq, c.lane};
        if (laneNumbers.empty() || laneNumbers.back().key() != n.key())
            laneNumbers.push_back(n);
    }
    std::sort(laneNumbers.begin(), laneNumbers.end(),
        [](const LaneNumber &a, const LaneNumber &b) { return a.key() < b.key(); });
    // A number that this many threads of one process carry says nothing about which one is T
    // (and would make the vote quadratic on a hostile file).
    constexpr ptrdiff_t kMaxThreadsPerNumber = 64;
    // Pairs found by flows are the best evidence, when there are any.
    std::map<ThreadKey, std::map<LaneId, uint64_t>> flowVotes;
    if (!crossCheckOnly) {
        for (const BackwardNode &node : m_nodes) {
            if (node.method == LinkMethod::Flow)
                ++flowVotes[{m.lanes[t.lane[node.node]].pid, t.fwdThread[node.node]}]
                           [t.lane[node.creator]];
        }
    }
    std::map<ThreadKey, LaneId> laneOfThread;
    for (auto &[key, numbers] : numbersByThread) {
        std::map<LaneId, uint64_t> votes;
        if (auto it = flowVotes.find(key); it != flowVotes.end())
            votes = std::move(it->second);
        if (votes.empty()) {
            std::sort(numbers.begin(), numbers.end());
            for (size_t i = 0; i < numbers.size();) {
                size_t j = i;
                while (j < numbers.size() && numbers[j] == numbers[i])
                    ++j;
                auto [lo, hi] = equalRangeCounted(
                    laneNumbers, std::pair(key.first, numbers[i]),
                    [](const LaneNumber &n) { return std::pair(n.pid, n.seq); }, steps);
                if (hi - lo <= kMaxThreadsPerNumber) {
                    for (auto it = lo; it != hi; ++it, ++steps)
                        votes[it->lane] += j - i;
                }
                i = j;
            }
        }
        if (votes.empty())
            continue;
        auto winner = std::max_element(
            votes.begin(), votes.end(), [](auto &a, auto &b) { return a.second < b.second; });
        laneOfThread[key] = winner->first;
    }

    // §9 step 8c: the creator is the last-starting candidate that ended before the node began.
    for (BackwardNode &node : m_nodes) {
        const bool paired = node.method != LinkMethod::None;
        if (crossCheckOnly ? node.method != LinkMethod::Flow : paired)
            continue;
        const SliceId n = node.node;
        auto lane = laneOfThread.find({m.lanes[t.lane[n]].pid, t.fwdThread[n]});
        SliceId creator = kNoSlice;
        if (lane != laneOfThread.end()) {
            auto [lo, hi] = group(lane->second, t.sequence[n]);
            const auto ended
                = std::upper_bound(lo, hi, t.start[n], [&steps](TimeNs v, const Candidate &c) {
                      ++steps;
                      return v < c.end;
                  });
            if (ended != lo)
                creator = cands[best[size_t(ended - cands.begin()) - 1]].slice;
        }
        if (crossCheckOnly) {
            ++m_stats.flowPairsCheckedBySequence;
            // In integer-µs files nested ops can share the flow's ts: the flow cannot tell them
            // apart, so a creator starting at the same instant on the same thread agrees with it.
            const bool same = creator == node.creator
                || (creator != kNoSlice && t.lane[creator] == t.lane[node.creator]
                    && t.start[creator] == t.start[node.creator]);
            if (same)
                ++m_stats.flowPairsAgreeingWithSequence;
            continue;
        }
        if (creator != kNoSlice) {
            node.creator = creator;
            node.method = LinkMethod::Sequence;
            ++m_stats.pairsFromSequence;
        }
    }
    if (crossCheckOnly) {
        const uint64_t disagree
            = m_stats.flowPairsCheckedBySequence - m_stats.flowPairsAgreeingWithSequence;
        if (disagree > 0)
            m_diagnostics.addCount(Diag::FlowAndSequenceDisagree, disagree);
    }
}

SliceId OpGraph::displayOp(SliceId creator, bool &recompute) const
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;
    // §9 step 10: climb to the outermost cpu_op, never into a backward node or its wrapper.
    SliceId row = creator;
    SliceId p = t.parent[creator];
    // 1.9 files record ProfilerStep#N as an `Operator`; it is still a step, not an op.
    while (p != kNoSlice && t.kind[p] == EventKind::CpuOp && !isBackwardNode(p)
        && !isEvaluateWrapper(m.sliceName(p)) && !m.sliceName(p).starts_with("ProfilerStep#")) {
        row = p;
        p = t.parent[p];
    }
    recompute = false;
    for (SliceId a = p; a != kNoSlice; a = t.parent[a]) {
        if (isBackwardNode(a) || isEvaluateWrapper(m.sliceName(a))) {
            recompute = true;
            break;
        }
    }
    return row;
}

void OpGraph::buildRows()
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;

    std::vector<std::vector<uint32_t>> members;
    for (uint32_t i = 0; i < m_nodes.size(); ++i) {
        const BackwardNode &node = m_nodes[i];
        if (node.creator == kNoSlice) {
            ++m_stats.unpairedBackward;
            PairRow row;
            row.sortTime = t.start[node.node];
            m_rows.push_back(row);
            members.push_back({i});
            continue;
        }
        bool recompute = false;
        const SliceId op = displayOp(node.creator, recompute);
        auto [it, inserted] = m_rowByForward.try_emplace(op, uint32_t(m_rows.size()));
        if (inserted) {
            PairRow row;
            row.forward = op;
            row.recompute = recompute;
            row.sortTime = t.start[op];
            m_rows.push_back(row);
            members.emplace_back();
        }
        members[it->second].push_back(i);
    }

    // Order rows by their first event; ties by thread, then by first node.
    std::vector<uint32_t> order(m_rows.size());
    std::iota(order.begin(), order.end(), 0);
    auto firstNodeStart = [&](uint32_t r) {
        TimeNs best = std::numeric_limits<TimeNs>::max();
        for (uint32_t i : members[r])
            best = std::min(best, t.start[m_nodes[i].node]);
        return best;
    };
    std::vector<TimeNs> firstNode(m_rows.size());
    for (uint32_t r = 0; r < m_rows.size(); ++r)
        firstNode[r] = firstNodeStart(r);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const PairRow &x = m_rows[a], &y = m_rows[b];
        const LaneId lx = x.forward == kNoSlice ? kNoLane : t.lane[x.forward];
        const LaneId ly = y.forward == kNoSlice ? kNoLane : t.lane[y.forward];
        return std::tie(x.sortTime, lx, firstNode[a], x.forward)
            < std::tie(y.sortTime, ly, firstNode[b], y.forward);
    });

    std::vector<PairRow> rows;
    rows.reserve(m_rows.size());
    m_rowNodes.reserve(m_nodes.size());
    for (uint32_t r : order) {
        PairRow row = m_rows[r];
        const auto newIndex = uint32_t(rows.size());
        std::vector<uint32_t> &nodes = members[r];
        std::sort(nodes.begin(), nodes.end(), [&](uint32_t a, uint32_t b) {
            return std::tie(t.start[m_nodes[a].node], m_nodes[a].node)
                < std::tie(t.start[m_nodes[b].node], m_nodes[b].node);
        });
        row.firstNode = uint32_t(m_rowNodes.size());
        row.nodeCount = uint32_t(nodes.size());
        bool allFlow = true;
        for (uint32_t i : nodes) {
            BackwardNode &node = m_nodes[i];
            node.row = newIndex;
            m_rowNodes.push_back(i);
            allFlow = allFlow && node.method == LinkMethod::Flow;
            // Forward work re-run inside the node is recompute, not the node's backward time.
            const GpuTotals recompute = recomputeGpuUnder(node.outer);
            row.recomputeGpu += recompute;
            row.backwardGpu += gpuTotalsUnder(node.outer) - recompute;
            row.backwardDur += t.dur[node.outer];
        }
        if (row.forward != kNoSlice) {
            row.link = allFlow ? LinkMethod::Flow : LinkMethod::Sequence;
            row.forwardGpu = gpuTotalsUnder(row.forward);
            const Recomputed recomputed = recomputedUnder(row.forward);
            row.recomputations = recomputed.count;
            row.recomputedGpu = recomputed.gpu;
            row.step = stepAt(t.start[row.forward]);
            row.module = moduleOf(row.forward);
            m_rowByForward[row.forward] = newIndex;
            m_stats.recomputeRows += row.recompute;
        } else {
            row.step = stepAt(t.start[m_nodes[nodes.front()].node]);
        }
        rows.push_back(row);
    }
    m_rows = std::move(rows);
}

void OpGraph::findSteps()
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;
    for (LaneId l = 0; l < m.lanes.size(); ++l) {
        if (m.lanes[l].device)
            continue;
        for (SliceId s = m.lanes[l].sliceBegin; s < m.lanes[l].sliceEnd; ++s) {
            int64_t n;
            if (t.kind[s] != EventKind::GpuUserAnnotation && parseStepNumber(m.sliceName(s), n))
                m_steps.push_back({n, s, t.start[s], t.end(s)});
        }
    }
    std::sort(m_steps.begin(), m_steps.end(),
        [](const ProfilerStep &a, const ProfilerStep &b) { return a.start < b.start; });
}

int64_t OpGraph::stepAt(TimeNs time) const
{
    auto it = std::upper_bound(m_steps.begin(), m_steps.end(), time,
        [](TimeNs v, const ProfilerStep &s) { return v < s.start; });
    // Steps do not overlap, but look back a little in case one is nested or zero-length.
    for (int k = 0; k < 2 && it != m_steps.begin(); ++k) {
        --it;
        if (time < it->end || time == it->start)
            return it->number;
    }
    return kNoValue;
}

SliceId OpGraph::moduleOf(SliceId slice) const
{
    const SliceTable &t = m_model.slices;
    for (SliceId a = t.parent[slice]; a != kNoSlice; a = t.parent[a]) {
        if (t.kind[a] == EventKind::PythonFunction
            && m_model.sliceName(a).starts_with("nn.Module: "))
            return a;
    }
    return kNoSlice;
}

int OpGraph::gpuIndex(SliceId gpuEvent) const
{
    // GPU events are collected lane by lane in slice order: sorted.
    auto it = std::lower_bound(m_gpuEvents.begin(), m_gpuEvents.end(), gpuEvent);
    return it != m_gpuEvents.end() && *it == gpuEvent ? int(it - m_gpuEvents.begin()) : -1;
}

SliceId OpGraph::launchOf(SliceId gpuEvent) const
{
    const int i = gpuIndex(gpuEvent);
    return i < 0 ? kNoSlice : m_launch[size_t(i)];
}

SliceId OpGraph::launchingOp(SliceId gpuEvent) const
{
    const int i = gpuIndex(gpuEvent);
    return i < 0 ? kNoSlice : m_launchingOp[size_t(i)];
}

std::span<const SliceId> OpGraph::gpuEventsUnder(SliceId slice) const
{
    const auto lo = std::lower_bound(m_launchSorted.begin(), m_launchSorted.end(), slice);
    const auto hi = std::lower_bound(lo, m_launchSorted.end(), m_model.slices.subtreeEnd[slice]);
    return std::span<const SliceId>(m_gpuByLaunch)
        .subspan(size_t(lo - m_launchSorted.begin()), size_t(hi - lo));
}

GpuTotals OpGraph::gpuTotalsUnder(SliceId slice) const
{
    const auto lo = std::lower_bound(m_launchSorted.begin(), m_launchSorted.end(), slice);
    const auto hi = std::lower_bound(lo, m_launchSorted.end(), m_model.slices.subtreeEnd[slice]);
    const size_t a = size_t(lo - m_launchSorted.begin());
    const size_t b = size_t(hi - m_launchSorted.begin());
    return {uint32_t(b - a), m_prefixTime[b] - m_prefixTime[a]};
}

std::span<const uint32_t> OpGraph::nodesOf(const PairRow &row) const
{
    return std::span<const uint32_t>(m_rowNodes).subspan(row.firstNode, row.nodeCount);
}

int OpGraph::nodeOf(SliceId slice) const
{
    auto it = m_nodeBySlice.find(slice);
    return it == m_nodeBySlice.end() ? -1 : int(it->second);
}

int OpGraph::rowOf(SliceId slice) const
{
    const SliceTable &t = m_model.slices;
    if (slice == kNoSlice)
        return -1;
    if (isGpuWork(t.kind[slice])) {
        slice = launchOf(slice);
        if (slice == kNoSlice)
            return -1;
    }
    for (SliceId a = slice; a != kNoSlice; a = t.parent[a]) {
        if (auto it = m_rowByForward.find(a); it != m_rowByForward.end())
            return int(it->second);
        if (const int n = nodeOf(a); n >= 0)
            return int(m_nodes[size_t(n)].row);
    }
    return -1;
}

bool OpGraph::isForwardSide(SliceId slice) const
{
    const SliceTable &t = m_model.slices;
    if (slice == kNoSlice)
        return false;
    if (isGpuWork(t.kind[slice]))
        slice = launchOf(slice);
    for (SliceId a = slice; a != kNoSlice; a = t.parent[a]) {
        if (m_rowByForward.count(a))
            return true;
        if (nodeOf(a) >= 0)
            return false;
    }
    return false;
}

std::vector<SliceId> OpGraph::counterparts(SliceId slice) const
{
    const SliceTable &t = m_model.slices;
    const int r = rowOf(slice);
    if (r < 0)
        return {};
    const PairRow &row = m_rows[size_t(r)];
    std::vector<SliceId> out;
    if (!isForwardSide(slice)) {
        if (row.forward != kNoSlice)
            out.push_back(row.forward);
        return out;
    }
    // Prefer the nodes created inside the clicked op (aten::t → TBackward0 only).
    SliceId from = isGpuWork(t.kind[slice]) ? launchOf(slice) : slice;
    for (uint32_t i : nodesOf(row)) {
        const SliceId c = m_nodes[i].creator;
        if (c >= from && c < t.subtreeEnd[from])
            out.push_back(m_nodes[i].node);
    }
    if (out.empty()) {
        for (uint32_t i : nodesOf(row))
            out.push_back(m_nodes[i].node);
    }
    return out;
}

} // namespace ks
