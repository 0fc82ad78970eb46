// SPDX-License-Identifier: MIT
#include "link/autogradpairing.h"

#include "link/opnames.h"
#include "model/slicewalk.h"

#include <algorithm>
#include <map>

namespace ks {

namespace {

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

//! A forward op that may have created a backward node (step 8a).
struct Candidate {
    LaneId lane;
    int64_t seq;
    TimeNs start, end;
    SliceId slice;
};

//! The candidates grouped by (lane, number), by end within a group, and each prefix's creator.
struct Candidates {
    std::vector<Candidate> all;
    /*!
     * best[i]: the creator among the group's candidates up to i (by end) — the latest start,
     * then the later end, then the first in the file (a candidate's end never precedes its
     * start, so every one that ended before the node also started before it).
     */
    std::vector<uint32_t> best;
};

Candidates forwardCandidates(const TraceModel &m)
{
    const SliceTable &t = m.slices;
    Candidates out;
    std::vector<Candidate> &cands = out.all;
    forEachHostSlice(m, [&](SliceId s) {
        if (t.kind[s] == EventKind::CpuOp && t.sequence[s] != kNoValue
            && (t.fwdThread[s] == kNoValue || t.fwdThread[s] == 0))
            cands.push_back({t.lane[s], t.sequence[s], t.start[s], t.end(s), s});
    });
    // Within a group, by end: the candidates that ended before a node starts are then a prefix.
    std::sort(cands.begin(), cands.end(), [](const Candidate &a, const Candidate &b) {
        return std::tie(a.lane, a.seq, a.end, a.slice) < std::tie(b.lane, b.seq, b.end, b.slice);
    });
    out.best.resize(cands.size());
    for (uint32_t i = 0; i < cands.size(); ++i) {
        const bool first
            = i == 0 || cands[i].lane != cands[i - 1].lane || cands[i].seq != cands[i - 1].seq;
        out.best[i] = i;
        if (!first) {
            const Candidate &a = cands[out.best[i - 1]], &b = cands[i];
            if (std::tie(a.start, a.end) >= std::tie(b.start, b.end)
                && !(std::tie(a.start, a.end) == std::tie(b.start, b.end) && b.slice < a.slice))
                out.best[i] = out.best[i - 1];
        }
    }
    return out;
}

using ThreadKey = std::pair<int64_t, int64_t>; // (pid, Fwd thread id)

//! (pid, number) → each lane whose candidates carry that number, sorted, for the vote.
struct LaneNumber {
    int64_t pid, seq;
    LaneId lane;
    auto key() const { return std::tie(pid, seq, lane); }
};

std::vector<LaneNumber> laneNumbers(const TraceModel &m, const std::vector<Candidate> &cands)
{
    std::vector<LaneNumber> out;
    out.reserve(cands.size());
    for (const Candidate &c : cands) {
        const LaneNumber n {m.lanes[c.lane].pid, c.seq, c.lane};
        if (out.empty() || out.back().key() != n.key())
            out.push_back(n);
    }
    std::sort(out.begin(), out.end(),
        [](const LaneNumber &a, const LaneNumber &b) { return a.key() < b.key(); });
    return out;
}

/*!
 * Step 8b: which host thread is profiler thread T (per process)? Pairs found by flows vote
 * first (\a useFlows); else each number a node of T carries votes for the threads whose forward
 * ops carry it too.
 */
std::map<ThreadKey, LaneId> profilerThreadLanes(const TraceModel &m,
    const std::vector<BackwardNode> &nodes,
    const std::vector<Candidate> &cands,
    bool useFlows,
    uint64_t &steps)
{
    const SliceTable &t = m.slices;
    std::map<ThreadKey, std::vector<int64_t>> numbersByThread;
    for (const BackwardNode &node : nodes)
        numbersByThread[{m.lanes[t.lane[node.node]].pid, t.fwdThread[node.node]}].push_back(
            t.sequence[node.node]);
    const std::vector<LaneNumber> numbers = laneNumbers(m, cands);
    // A number that this many threads of one process carry says nothing about which one is T
    // (and would make the vote quadratic on a hostile file).
    constexpr ptrdiff_t kMaxThreadsPerNumber = 64;
    std::map<ThreadKey, std::map<LaneId, uint64_t>> flowVotes;
    for (const BackwardNode &node : nodes) {
        if (useFlows && node.method == LinkMethod::Flow)
            ++flowVotes[{m.lanes[t.lane[node.node]].pid, t.fwdThread[node.node]}]
                       [t.lane[node.creator]];
    }
    std::map<ThreadKey, LaneId> out;
    for (auto &[key, carried] : numbersByThread) {
        std::map<LaneId, uint64_t> votes;
        if (auto it = flowVotes.find(key); it != flowVotes.end())
            votes = std::move(it->second);
        if (votes.empty()) {
            std::sort(carried.begin(), carried.end());
            for (size_t i = 0; i < carried.size();) {
                size_t j = i;
                while (j < carried.size() && carried[j] == carried[i])
                    ++j;
                auto [lo, hi] = equalRangeCounted(
                    numbers, std::pair(key.first, carried[i]),
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
        out[key] = winner->first;
    }
    return out;
}

} // namespace

AutogradPairing::AutogradPairing(const TraceModel &model, const LinkOptions &options)
    : m_model(model)
{
    findNodes();
    if (options.useFlows)
        pairByFlows();
    // With flows, the fallback first only cross-checks them, then pairs what they missed.
    if (m_stats.pairsFromFlows > 0)
        pairBySequence(true);
    pairBySequence(false);
}

int AutogradPairing::nodeOf(SliceId slice) const
{
    const uint32_t n = m_nodeBySlice.find(slice);
    return n == SliceIndexMap::kAbsent ? -1 : int(n);
}

void AutogradPairing::findNodes()
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;
    forEachHostSlice(m, [&](SliceId s) {
        if (t.kind[s] != EventKind::CpuOp || t.sequence[s] == kNoValue)
            return;
        m_stats.hasSequenceNumbers = true;
        if (t.fwdThread[s] <= 0) // 0 for forward ops; absent (kNoValue) is negative too
            return;
        const std::string_view name = m.sliceName(s);
        // The wrapper carries the node's number too (1.12+) but is not the node.
        if (isEvaluateWrapper(name) || isUnpairedBackwardWork(name))
            return;
        BackwardNode node;
        node.node = s;
        const SliceId p = t.parent[s];
        node.outer = p != kNoSlice && isEvaluateWrapper(m.sliceName(p)) ? p : s;
        const auto index = uint32_t(m_nodes.size());
        m_nodes.push_back(node);
        m_nodeBySlice.insert(s, index);
        if (node.outer != s)
            m_nodeBySlice.insert(node.outer, index);
    });
    m_stats.backwardNodes = m_nodes.size();
}

void AutogradPairing::pairByFlows()
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
        // step 7: endpoints are matched by identical (pid, tid, ts), not by viewer binding.
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
            node = nodeOf(s);
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

void AutogradPairing::pairBySequence(bool crossCheckOnly)
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;
    if (m_nodes.empty())
        return;
    // Every comparison below is counted: the cost stays O(n log n) whatever the trace holds
    // (thousands of ops sharing one number included), and the tests check it by this count.
    uint64_t &steps = m_stats.pairingSteps;
    const Candidates cands = forwardCandidates(m);
    const std::map<ThreadKey, LaneId> laneOfThread
        = profilerThreadLanes(m, m_nodes, cands.all, !crossCheckOnly, steps);

    // step 8c: the creator is the last-starting candidate that ended before the node began.
    for (BackwardNode &node : m_nodes) {
        const bool paired = node.method != LinkMethod::None;
        if (crossCheckOnly ? node.method != LinkMethod::Flow : paired)
            continue;
        const SliceId n = node.node;
        auto lane = laneOfThread.find({m.lanes[t.lane[n]].pid, t.fwdThread[n]});
        SliceId creator = kNoSlice;
        if (lane != laneOfThread.end()) {
            auto [lo, hi] = equalRangeCounted(
                cands.all, std::pair(lane->second, t.sequence[n]),
                [](const Candidate &c) { return std::pair(c.lane, c.seq); }, steps);
            const auto ended
                = std::upper_bound(lo, hi, t.start[n], [&steps](TimeNs v, const Candidate &c) {
                      ++steps;
                      return v < c.end;
                  });
            if (ended != lo)
                creator = cands.all[cands.best[size_t(ended - cands.all.begin()) - 1]].slice;
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

} // namespace ks
