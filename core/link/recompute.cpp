// SPDX-License-Identifier: MIT
// Recomputed forward work inside backward nodes (activation checkpointing): which ops they are,
// which forward op each repeats, and their GPU work. The rule is docs/recompute.md.
#include "link/recompute.h"

#include "link/gpuattribution.h"
#include "link/opnames.h"
#include "model/slicewalk.h"

#include <algorithm>
#include <tuple>
#include <unordered_set>

namespace ks {

namespace {

constexpr std::string_view kModulePrefix = "nn.Module: ";

//! A forward-candidate op: numbered, and not itself backward work (Fwd thread id 0 or absent).
bool isCandidate(const SliceTable &t, SliceId s)
{
    return t.kind[s] == EventKind::CpuOp && t.sequence[s] != kNoValue
        && (t.fwdThread[s] == kNoValue || t.fwdThread[s] == 0);
}

// What a pre-order pass knows of a slice from its ancestors (see findRecomputations()).
constexpr uint32_t kInRecompute = 1u << 31; //!< inside a recomputed op
constexpr uint32_t kOwnOpPosition = 1u << 30; //!< the nearest cpu_op above is a node event
constexpr uint32_t kInBackward = 1u << 29; //!< inside a node's outermost event
constexpr uint32_t kNodeEvent = 1u << 28; //!< the slice is a node event (its own, not inherited)
//! Innermost node event around: index + 1 (2^28 - 1 nodes would take a model of some 30 GB).
constexpr uint32_t kHostMask = kNodeEvent - 1;

//! Groups recomputations with originals (docs/recompute.md, "Which forward op…").
struct MatchKey {
    int64_t step;
    StringId name, dims, module;
    auto tie() const { return std::tie(step, name, dims, module); }
};

} // namespace

Recomputations::Recomputations(
    const TraceModel &model, const AutogradPairing &pairing, const StepIndex &steps)
    : m_model(model)
{
    if (pairing.nodes().empty())
        return;
    std::vector<uint32_t> context(model.slices.size(), 0);
    find(pairing, context);
    if (!m_all.empty())
        match(pairing, steps, context);
}

void Recomputations::find(const AutogradPairing &pairing, std::vector<uint32_t> &context)
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;
    const std::vector<BackwardNode> &nodes = pairing.nodes();

    // One pre-order pass per host thread: each slice inherits its parent's context. A pass rather
    // than walks up the tree, so that deep nesting costs nothing extra.
    std::vector<uint32_t> ownOps(nodes.size(), 0), numberedOwnOps(nodes.size(), 0);
    std::vector<bool> nesting(nodes.size(), false); // holds another node event
    forEachHostSlice(m, [&](SliceId s) {
        const SliceId p = t.parent[s];
        uint32_t c = 0;
        if (p != kNoSlice) {
            c = context[p] & ~(kOwnOpPosition | kNodeEvent);
            const bool ownPosition = t.kind[p] == EventKind::CpuOp
                ? (context[p] & kNodeEvent) != 0
                : (context[p] & kOwnOpPosition) != 0;
            c |= ownPosition ? kOwnOpPosition : 0;
        }
        const bool inRecompute = c & kInRecompute;
        const uint32_t host = c & kHostMask;
        const int n = pairing.nodeOf(s); // of a node event or its wrapper
        const bool nodeEvent = n >= 0 && nodes[size_t(n)].node == s;
        if (n >= 0)
            c |= kInBackward;
        if (nodeEvent && !inRecompute) {
            if (host != 0)
                nesting[host - 1] = true;
            c = (c & ~kHostMask) | uint32_t(n + 1);
        } else if (host != 0 && !inRecompute && isCandidate(t, s)) {
            c |= kInRecompute;
            Recomputation r;
            r.op = s;
            r.hostNode = host - 1;
            m_all.push_back(r);
        }
        // Double-backward evidence: a node's own ops, and which of them are numbered.
        if ((c & kOwnOpPosition) && host != 0 && t.kind[s] == EventKind::CpuOp && !nodeEvent
            && !isEvaluateWrapper(m.sliceName(s))) {
            ++ownOps[host - 1];
            numberedOwnOps[host - 1] += isCandidate(t, s);
        }
        context[s] = nodeEvent ? c | kNodeEvent : c;
    });

    // create_graph=True numbers every op of every node; checkpointing leaves a node's own
    // implementation unnumbered. Half or more fully numbered nodes: double backward. A node
    // running a nested backward (reentrant checkpoint) re-runs forward work: it has no vote.
    uint64_t withOwnOps = 0, fullyNumbered = 0;
    for (size_t n = 0; n < nodes.size(); ++n) {
        if (ownOps[n] == 0 || nesting[n])
            continue;
        ++withOwnOps;
        fullyNumbered += numberedOwnOps[n] == ownOps[n];
    }
    if (fullyNumbered > 0 && 2 * fullyNumbered >= withOwnOps) {
        m_stats.doubleBackward = true;
        m_diagnostics.add(Diag::DoubleBackward, t.offset[nodes[0].node],
            "numbered ops run inside backward nodes (create_graph=True): counted as backward, "
            "not as recompute");
        m_diagnostics.addCount(Diag::DoubleBackward, fullyNumbered - 1);
        m_all.clear();
        return;
    }
    m_stats.recomputedOps = m_all.size();
}

void Recomputations::match(
    const AutogradPairing &pairing, const StepIndex &steps, const std::vector<uint32_t> &context)
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;

    // Innermost nn.Module slice above each slice, by the same kind of pass.
    std::vector<SliceId> module(t.size(), kNoSlice);
    forEachHostSlice(m, [&](SliceId s) {
        const SliceId p = t.parent[s];
        module[s] = p == kNoSlice ? kNoSlice : module[p];
        if (p != kNoSlice && t.kind[p] == EventKind::PythonFunction
            && m.sliceName(p).starts_with(kModulePrefix))
            module[s] = p;
    });
    auto keyOf = [&](SliceId op, SliceId boundary) {
        // A recomputed op's module counts only inside its host node (ids are pre-order).
        const SliceId mod = module[op];
        const bool use = mod != kNoSlice && (boundary == kNoSlice || mod > boundary);
        return MatchKey {
            steps.stepAt(t.start[op]), t.name[op], t.inputDims[op], use ? t.name[mod] : 0};
    };

    struct Recompute {
        MatchKey key;
        TimeNs negativeHostStart, start; //!< host nodes from the latest
        uint32_t index;
    };
    std::vector<Recompute> recomputes;
    std::unordered_set<uint64_t> names; // (name, dims) of every recomputed op
    for (uint32_t i = 0; i < m_all.size(); ++i) {
        const Recomputation &r = m_all[i];
        const SliceId host = pairing.nodes()[r.hostNode].node;
        recomputes.push_back({keyOf(r.op, host), -t.start[host], t.start[r.op], i});
        names.insert(uint64_t(t.name[r.op]) << 32 | t.inputDims[r.op]);
    }
    struct Original {
        MatchKey key;
        TimeNs start;
        SliceId slice;
    };
    std::vector<Original> originals;
    forEachHostSlice(m, [&](SliceId s) {
        if (t.kind[s] == EventKind::CpuOp && !(context[s] & kInBackward)
            && names.count(uint64_t(t.name[s]) << 32 | t.inputDims[s]))
            originals.push_back({keyOf(s, kNoSlice), t.start[s], s});
    });
    // Originals in time order; recomputations in the order they repeat the forward: the last
    // checkpointed region is re-run first, so host nodes from the latest, then in time order.
    std::sort(originals.begin(), originals.end(), [](const Original &a, const Original &b) {
        return std::tuple_cat(a.key.tie(), std::tie(a.start, a.slice))
            < std::tuple_cat(b.key.tie(), std::tie(b.start, b.slice));
    });
    std::sort(recomputes.begin(), recomputes.end(), [](const Recompute &a, const Recompute &b) {
        return std::tuple_cat(a.key.tie(), std::tie(a.negativeHostStart, a.start, a.index))
            < std::tuple_cat(b.key.tie(), std::tie(b.negativeHostStart, b.start, b.index));
    });
    uint64_t withoutOriginal = 0;
    uint64_t firstWithout = 0;
    for (size_t i = 0; i < recomputes.size();) {
        size_t j = i;
        while (j < recomputes.size() && recomputes[j].key.tie() == recomputes[i].key.tie())
            ++j;
        const auto key = recomputes[i].key.tie();
        const auto lo = std::partition_point(originals.begin(), originals.end(),
            [&](const Original &o) { return o.key.tie() < key; });
        const auto hi = std::partition_point(
            lo, originals.end(), [&](const Original &o) { return !(key < o.key.tie()); });
        for (size_t k = i; k < j; ++k) {
            Recomputation &r = m_all[recomputes[k].index];
            r.candidates = uint32_t(hi - lo);
            if (ptrdiff_t(k - i) < hi - lo) {
                r.original = (lo + ptrdiff_t(k - i))->slice;
            } else if (withoutOriginal++ == 0) {
                firstWithout = t.offset[r.op];
            }
        }
        i = j;
    }
    if (withoutOriginal > 0) {
        m_diagnostics.add(Diag::RecomputeWithoutOriginal, firstWithout,
            "a recomputed op repeats no forward op found in its step");
        m_diagnostics.addCount(Diag::RecomputeWithoutOriginal, withoutOriginal - 1);
    }
}

void Recomputations::countGpu(const GpuAttribution &gpu)
{
    m_prefix.assign(1, GpuTotals {});
    for (Recomputation &r : m_all) {
        r.gpu = gpu.totalsUnder(r.op);
        m_stats.gpuTime += r.gpu.time;
        GpuTotals next = m_prefix.back();
        m_prefix.push_back(next += r.gpu);
    }
    for (uint32_t i = 0; i < m_all.size(); ++i) {
        if (m_all[i].original != kNoSlice)
            m_byOriginal.emplace_back(m_all[i].original, i);
    }
    std::sort(m_byOriginal.begin(), m_byOriginal.end());
    m_byOriginalPrefix.assign(1, GpuTotals {});
    for (const auto &[original, i] : m_byOriginal) {
        GpuTotals next = m_byOriginalPrefix.back();
        m_byOriginalPrefix.push_back(next += m_all[i].gpu);
    }
}

int Recomputations::of(SliceId slice) const
{
    auto it = std::upper_bound(m_all.begin(), m_all.end(), slice,
        [](SliceId s, const Recomputation &r) { return s < r.op; });
    if (it == m_all.begin())
        return -1;
    --it;
    return slice < m_model.slices.subtreeEnd[it->op] ? int(it - m_all.begin()) : -1;
}

GpuTotals Recomputations::gpuUnder(SliceId slice) const
{
    if (m_all.empty())
        return {};
    auto byOp = [](const Recomputation &r, SliceId s) { return r.op < s; };
    const auto lo = std::lower_bound(m_all.begin(), m_all.end(), slice, byOp);
    const auto hi = std::lower_bound(lo, m_all.end(), m_model.slices.subtreeEnd[slice], byOp);
    return m_prefix[size_t(hi - m_all.begin())] - m_prefix[size_t(lo - m_all.begin())];
}

Recomputations::Repeated Recomputations::repeatedUnder(SliceId forwardOp) const
{
    if (m_byOriginal.empty())
        return {};
    const auto lo = std::lower_bound(
        m_byOriginal.begin(), m_byOriginal.end(), std::pair(forwardOp, uint32_t(0)));
    const auto hi = std::lower_bound(
        lo, m_byOriginal.end(), std::pair(m_model.slices.subtreeEnd[forwardOp], uint32_t(0)));
    return {uint32_t(hi - lo),
        m_byOriginalPrefix[size_t(hi - m_byOriginal.begin())]
            - m_byOriginalPrefix[size_t(lo - m_byOriginal.begin())]};
}

std::vector<uint32_t> Recomputations::repeating(SliceId forwardOp) const
{
    std::vector<uint32_t> out;
    auto it = std::lower_bound(
        m_byOriginal.begin(), m_byOriginal.end(), std::pair(forwardOp, uint32_t(0)));
    for (; it != m_byOriginal.end() && it->first == forwardOp; ++it)
        out.push_back(it->second);
    return out;
}

} // namespace ks
