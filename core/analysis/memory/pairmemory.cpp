// SPDX-License-Identifier: MIT
#include "analysis/memory/pairmemory.h"

#include "base/saturating.h"
#include "link/opnames.h"

#include <algorithm>

namespace ks {

namespace {

//! Who ends allocation \a a: the backward node, optimizer scope or op its free lies in.
Freer freerOf(const OpGraph &g, const Allocation &a)
{
    if (a.freeEvent < 0)
        return {Freer::Never, 0};
    const TraceModel &m = g.model();
    const uint32_t e = uint32_t(a.freeEvent);
    for (SliceId s = m.instantOwner(m.memory.lane[e], m.memory.time[e]); s != kNoSlice;
         s = m.slices.parent[s]) {
        if (const int n = g.nodeOf(s); n >= 0)
            return {Freer::Node, m.slices.name[g.nodes()[size_t(n)].node]};
        if (isOptimizerScope(m.sliceName(s)))
            return {Freer::Optimizer, 0};
    }
    return a.freeOp == kNoSlice ? Freer {Freer::Other, 0}
                                : Freer {Freer::Op, m.slices.name[a.freeOp]};
}

//! The freer of most bytes (the first one seen on a tie).
Freer largest(const std::vector<std::pair<Freer, int64_t>> &byFreer)
{
    Freer best;
    int64_t most = 0;
    for (const auto &[until, bytes] : byFreer) {
        if (bytes > most) {
            best = until;
            most = bytes;
        }
    }
    return best;
}

} // namespace

std::string heldUntilText(const TraceModel &m, Freer until)
{
    switch (until.kind) {
    case Freer::Node:
    case Freer::Op:
        return std::string(m.str(until.name));
    case Freer::Optimizer:
        return "optimizer";
    case Freer::Never:
        return "never";
    case Freer::Other:
        return "other";
    case Freer::Nothing:
        break;
    }
    return {};
}

BackwardPasses::BackwardPasses(const OpGraph &g)
{
    m_starts.reserve(g.nodes().size());
    for (const BackwardNode &n : g.nodes())
        m_starts.push_back(g.model().slices.start[n.outer]);
    std::sort(m_starts.begin(), m_starts.end());
}

TimeNs BackwardPasses::startAfter(TimeNs t) const
{
    const auto it = std::lower_bound(m_starts.begin(), m_starts.end(), t);
    return it == m_starts.end() ? kNoValue : *it;
}

std::vector<PairMemory> pairMemory(const MemoryIndex &index)
{
    const OpGraph &g = index.graph();
    const TraceModel &m = g.model();
    const MemoryTable &t = m.memory;
    const BackwardPasses passes(g);
    std::vector<PairMemory> out(g.rows().size());
    // Per row: bytes held by each freer, in the order first seen.
    std::vector<std::vector<std::pair<Freer, int64_t>>> freers(g.rows().size());
    for (const Allocation &a : index.allocations()) {
        if (a.row < 0)
            continue;
        const int64_t bytes = t.bytes[a.event];
        PairMemory &p = out[size_t(a.row)];
        if (!g.isForwardSide(a.op)) {
            addSaturating(p.backwardAllocated, bytes);
            continue;
        }
        addSaturating(p.forwardAllocated, bytes);
        if (p.held == kNoValue)
            continue;
        if (t.addr[a.event] == kNoValue) { // its free, if any, cannot be found
            p.held = kNoValue;
            continue;
        }
        const TimeNs pass = passes.startAfter(m.slices.end(g.rows()[size_t(a.row)].forward));
        const bool alive
            = a.freeEvent < 0 || (pass != kNoValue && t.time[size_t(a.freeEvent)] >= pass);
        if (!alive)
            continue;
        addSaturating(p.held, bytes);
        const Freer until = freerOf(g, a);
        auto &list = freers[size_t(a.row)];
        auto it = std::find_if(
            list.begin(), list.end(), [&](const auto &entry) { return entry.first == until; });
        if (it == list.end())
            list.emplace_back(until, bytes);
        else
            addSaturating(it->second, bytes);
    }
    for (size_t r = 0; r < out.size(); ++r) {
        if (out[r].held != kNoValue)
            out[r].heldUntil = largest(freers[r]);
    }
    return out;
}

} // namespace ks
