// SPDX-License-Identifier: MIT
// Building the module tree (see ModuleTree), phase by phase; each phase reads what the ones
// before it left in Build.
#include "analysis/modules/moduletree.h"

#include "analysis/modules/moduleroles.h"
#include "link/gpuside.h"
#include "model/slicewalk.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace ks {

using namespace moduletree;

namespace {

void addTotals(ModuleTimes &to, const ModuleTimes &child)
{
    to.forwardTotal += child.forwardTotal;
    to.backwardTotal += child.backwardTotal;
    to.backwardOtherTotal += child.backwardOtherTotal;
    to.recomputeTotal += child.recomputeTotal;
    to.otherTotal += child.otherTotal;
}

void initTotals(ModuleTimes &t)
{
    t.forwardTotal = t.forwardSelf;
    t.backwardTotal = t.backwardSelf;
    t.backwardOtherTotal = t.backwardOtherSelf;
    t.recomputeTotal = t.recomputeSelf;
    t.otherTotal = t.otherSelf;
}

bool isEmpty(const ModuleTimes &t)
{
    return t.calls == 0 && t.cpuTotal == 0 && t.forwardTotal.count == 0
        && t.backwardTotal.count == 0 && t.backwardOtherTotal.count == 0
        && t.recomputeTotal.count == 0 && t.otherTotal.count == 0;
}

} // namespace

//! What the phases pass on to each other.
struct ModuleTree::Build {
    explicit Build(const OpGraph &g)
        : graph(g)
        , m(g.model())
    {
    }
    const OpGraph &graph;
    const TraceModel &m;
    //! A module path while building: its parent, name and first call.
    struct Path {
        ModuleId parent;
        StringId name;
        TimeNs firstCall;
    };
    std::vector<Path> paths {{kNoModule, 0, std::numeric_limits<TimeNs>::min()}};
    struct Call {
        SliceId slice;
        ModuleId node;
        TimeNs childDur; //!< summed durations of the calls directly inside
    };
    std::vector<Call> calls;
    std::vector<SliceId> otherTops; //!< outermost backward-other events
    size_t count = 0; //!< module nodes
    std::vector<ModuleId> charge; //!< per backward node: the module charged
    std::vector<ModuleId> tie; //!< per other top: the module it is tied to
    std::vector<ModuleId> recomputeCharge; //!< per recomputation: the module re-run
    std::unordered_map<uint64_t, ModuleTimes> perStep; //!< (node, step index) → self times
};

std::unique_ptr<ModuleTree> ModuleTree::build(const OpGraph &graph, std::optional<Source> source)
{
    std::unique_ptr<ModuleTree> tree(new ModuleTree(graph, source ? *source : detectSource(graph)));
    Build b(graph);
    tree->scanSlices(b);
    tree->orderNodes(b);
    tree->chargeBackwardNodes(b);
    tree->tieBackwardOther(b);
    tree->chargeRecompute(b);
    tree->countSelfTimes(b);
    tree->rollUpTotals(b);
    tree->groupHighlights(b);
    tree->resolveOwners(b);
    return tree;
}

//! One pre-order pass per host thread: the context of every slice (the innermost module call,
//! backward node or backward-other event around it) and the module paths.
void ModuleTree::scanSlices(Build &b)
{
    const TraceModel &m = b.m;
    const SliceTable &t = b.m.slices;
    std::vector<uint32_t> &ctx = m_owner;
    auto &paths = b.paths;
    auto &calls = b.calls;
    auto &otherTops = b.otherTops;
    ctx.assign(t.size(), 0);
    // Backward nodes and their wrappers marked up front, the first node of a slice winning as in
    // OpGraph::nodeOf(): a pass over the nodes instead of a table lookup for every slice.
    const std::vector<BackwardNode> &nodes = m_graph.nodes();
    for (size_t n = nodes.size(); n-- > 0;) {
        ctx[nodes[n].outer] = pack(Role::Backward, uint32_t(n));
        ctx[nodes[n].node] = pack(Role::Backward, uint32_t(n));
    }
    std::unordered_map<uint64_t, ModuleId> pathByKey; // (parent, name) → path
    std::vector<uint32_t> open; // calls open at the current slice, innermost last
    for (const Lane &lane : m.lanes) {
        if (lane.device)
            continue;
        open.clear();
        for (SliceId s = lane.sliceBegin; s < lane.sliceEnd; ++s) {
            while (!open.empty() && t.subtreeEnd[calls[open.back()].slice] <= s)
                open.pop_back();
            const SliceId p = t.parent[s];
            const uint32_t pc = p == kNoSlice ? 0 : ctx[p];
            const Role prole = packedRole(pc);
            uint32_t c = pc;
            if (ctx[s] != 0) { // a node, marked above: nothing else writes a slice before its visit
                c = ctx[s];
            } else if (isBackwardOtherEvent(m, s)) {
                // Inside a node it stays the node's work, as gpuSideOf() counts it.
                if (prole == Role::None || prole == Role::Forward) {
                    c = pack(Role::BackwardOther, uint32_t(otherTops.size()));
                    otherTops.push_back(s);
                }
            } else if ((prole == Role::None || prole == Role::Forward) && isScope(m, s, m_source)
                && (m_source != Source::OpNames || prole == Role::None)) {
                const ModuleId parent = prole == Role::Forward ? valueBits(pc) : 0;
                const uint64_t key = uint64_t(parent) << 32 | t.name[s];
                auto [it, inserted] = pathByKey.try_emplace(key, ModuleId(paths.size()));
                if (inserted)
                    paths.push_back({parent, t.name[s], t.start[s]});
                else
                    paths[it->second].firstCall = std::min(paths[it->second].firstCall, t.start[s]);
                if (!open.empty())
                    calls[open.back()].childDur += t.dur[s];
                open.push_back(uint32_t(calls.size()));
                calls.push_back({s, it->second, 0});
                c = pack(Role::Forward, it->second);
            }
            ctx[s] = c;
        }
    }
}

//! Pre-order, children in the order of their first call.
void ModuleTree::orderNodes(Build &b)
{
    const TraceModel &m = b.m;
    std::vector<uint32_t> &ctx = m_owner;
    auto &paths = b.paths;
    auto &calls = b.calls;
    b.count = paths.size();
    const size_t count = b.count;
    std::vector<std::vector<ModuleId>> children(count);
    for (ModuleId i = 1; i < count; ++i)
        children[paths[i].parent].push_back(i);
    for (auto &list : children) {
        std::sort(list.begin(), list.end(), [&](ModuleId a, ModuleId b) {
            return std::tie(paths[a].firstCall, a) < std::tie(paths[b].firstCall, b);
        });
    }
    std::vector<ModuleId> newId(count, kNoModule);
    m_nodes.resize(count);
    {
        std::vector<ModuleId> order;
        order.reserve(count);
        std::vector<ModuleId> stack {0};
        while (!stack.empty()) {
            const ModuleId old = stack.back();
            stack.pop_back();
            newId[old] = ModuleId(order.size());
            order.push_back(old);
            // Last child first on the stack, so the first child is visited next.
            stack.insert(stack.end(), children[old].rbegin(), children[old].rend());
        }
        for (ModuleId id = 0; id < count; ++id) {
            const Build::Path &path = paths[order[id]];
            ModuleNode &node = m_nodes[id];
            if (id == 0) {
                node.name = kRootName;
                continue;
            }
            std::string_view name = m.str(path.name);
            if (m_source == Source::Modules && name.starts_with(kModulePrefix))
                name.remove_prefix(kModulePrefix.size());
            node.name = name;
            node.parent = newId[path.parent];
            const ModuleNode &parent = m_nodes[node.parent];
            node.depth = parent.depth + 1;
            node.path = node.parent == 0 ? node.name : parent.path + '/' + node.name;
            m_nodes[node.parent].children.push_back(id);
        }
        for (ModuleId id = count; id-- > 0;) {
            ModuleNode &node = m_nodes[id];
            node.subtreeEnd
                = node.children.empty() ? id + 1 : m_nodes[node.children.back()].subtreeEnd;
        }
    }
    forEachHostSlice(m, [&](SliceId s) {
        if (packedRole(ctx[s]) == Role::Forward)
            ctx[s] = pack(Role::Forward, newId[valueBits(ctx[s])]);
    });
    for (Build::Call &call : calls)
        call.node = newId[call.node];
}

//! The module each backward node is charged to: the innermost module around its creator; a creator
//! re-run inside another node (checkpointing) follows that node.
void ModuleTree::chargeBackwardNodes(Build &b)
{
    const std::vector<BackwardNode> &gnodes = b.graph.nodes();
    std::vector<uint32_t> &ctx = m_owner;
    auto &charge = b.charge;
    charge.assign(gnodes.size(), kNoModule);
    std::vector<uint32_t> chain;
    auto chargeOf = [&](uint32_t n) -> ModuleId {
        chain.clear();
        ModuleId result = 0;
        for (size_t guard = 0; guard <= gnodes.size(); ++guard) {
            if (charge[n] != kNoModule) {
                result = charge[n];
                break;
            }
            chain.push_back(n);
            const SliceId creator = gnodes[n].creator;
            const uint32_t v = creator == kNoSlice ? 0 : ctx[creator];
            if (packedRole(v) == Role::Forward) {
                result = valueBits(v);
                break;
            }
            if (packedRole(v) != Role::Backward || valueBits(v) == n)
                break;
            n = valueBits(v);
        }
        for (uint32_t k : chain)
            charge[k] = result;
        return result;
    };
    for (uint32_t n = 0; n < gnodes.size(); ++n)
        chargeOf(n);
}

//! AccumulateGrad → the module of the node just before it (see the class comment).
void ModuleTree::tieBackwardOther(Build &b)
{
    const TraceModel &m = b.m;
    const SliceTable &t = b.m.slices;
    std::vector<uint32_t> &ctx = m_owner;
    auto &otherTops = b.otherTops;
    auto &charge = b.charge;
    auto &tie = b.tie;
    auto previousSibling = [&](SliceId w) -> SliceId {
        if (w == m.lanes[t.lane[w]].sliceBegin || w - 1 == t.parent[w])
            return kNoSlice;
        SliceId q = w - 1;
        while (q != kNoSlice && t.parent[q] != t.parent[w])
            q = t.parent[q];
        return q;
    };
    tie.assign(otherTops.size(), 0);
    for (uint32_t k = 0; k < otherTops.size(); ++k) {
        const SliceId w = otherTops[k];
        if (m.sliceName(w).find("AccumulateGrad") == std::string_view::npos)
            continue;
        SliceId q = previousSibling(w);
        while (q != kNoSlice && t.kind[q] == EventKind::Runtime)
            q = previousSibling(q);
        if (q == kNoSlice)
            continue;
        const uint32_t v = ctx[q];
        if (packedRole(v) == Role::Backward)
            tie[k] = charge[valueBits(v)];
        else if (packedRole(v) == Role::BackwardOther && otherTops[valueBits(v)] == q)
            tie[k] = tie[valueBits(v)]; // 0 unless q is itself a tied AccumulateGrad
    }
}

//! Recompute → the module being re-run (see the class comment).
void ModuleTree::chargeRecompute(Build &b)
{
    const TraceModel &m = b.m;
    const SliceTable &t = b.m.slices;
    const std::vector<BackwardNode> &gnodes = b.graph.nodes();
    std::vector<uint32_t> &ctx = m_owner;
    auto &recomputeCharge = b.recomputeCharge;
    std::unordered_map<std::string_view, ModuleId> firstNamed; // built on first need
    for (const Recomputation &r : m_graph.recomputations()) {
        ModuleId id = 0;
        if (r.original != kNoSlice && packedRole(ctx[r.original]) == Role::Forward) {
            id = valueBits(ctx[r.original]);
        } else if (m_source == Source::Modules) {
            const SliceId host = gnodes[r.hostNode].node;
            for (SliceId a = t.parent[r.op]; a != kNoSlice && a != host; a = t.parent[a]) {
                if (!isScope(m, a, Source::Modules))
                    continue;
                if (firstNamed.empty()) {
                    for (ModuleId n = ModuleId(m_nodes.size()); n-- > 1;)
                        firstNamed[m_nodes[n].name] = n;
                }
                auto it = firstNamed.find(m.sliceName(a).substr(kModulePrefix.size()));
                id = it == firstNamed.end() ? 0 : it->second;
                break;
            }
        }
        recomputeCharge.push_back(id);
    }
}

//! Self times per node, whole trace and per step.
void ModuleTree::countSelfTimes(Build &b)
{
    const TraceModel &m = b.m;
    const SliceTable &t = b.m.slices;
    const std::vector<ProfilerStep> &steps = b.graph.steps();
    std::vector<uint32_t> &ctx = m_owner;
    auto &calls = b.calls;
    auto &charge = b.charge;
    auto &tie = b.tie;
    auto &recomputeCharge = b.recomputeCharge;
    auto &perStep = b.perStep;
    auto stepIndexAt = [&](TimeNs time) -> int {
        auto it = std::upper_bound(steps.begin(), steps.end(), time,
            [](TimeNs v, const ProfilerStep &s) { return v < s.start; });
        for (int k = 0; k < 2 && it != steps.begin(); ++k) {
            --it;
            if (time < it->end || time == it->start)
                return int(it - steps.begin());
        }
        return kWholeTrace;
    };
    auto stepTimes = [&](ModuleId id, int si) -> ModuleTimes & {
        return perStep[uint64_t(id) << 32 | uint32_t(si)];
    };
    for (const Build::Call &call : calls) {
        const TimeNs dur = t.dur[call.slice];
        auto add = [&](ModuleTimes &times) {
            ++times.calls;
            times.cpuTotal += dur;
            times.cpuSelf += dur - call.childDur;
        };
        add(m_nodes[call.node].times);
        if (const int si = stepIndexAt(t.start[call.slice]); si >= 0)
            add(stepTimes(call.node, si));
    }
    const std::vector<SliceId> &events = m_graph.gpuEvents();
    for (size_t k = 0; k < events.size(); ++k) {
        const SliceId g = events[k];
        const GpuTotals one {1, t.dur[g]};
        const SliceId launch = m_graph.gpuLaunches()[k];
        // The side is gpuSideOf()'s, as everywhere else; the context picks the module.
        const GpuSide side = gpuSideOfLaunch(m_graph, launch);
        const uint32_t v = launch == kNoSlice ? 0 : ctx[launch];
        const Role context = packedRole(v);
        ModuleId id = 0;
        Role role = Role::None;
        GpuTotals ModuleTimes::*field = &ModuleTimes::otherSelf;
        switch (side) {
        case GpuSide::Recompute:
            // Backward-phase work, charged to the module it re-runs.
            id = recomputeCharge[size_t(m_graph.recomputationOf(launch))];
            field = &ModuleTimes::recomputeSelf;
            role = Role::Backward;
            break;
        case GpuSide::Forward:
            id = context == Role::Forward ? valueBits(v) : 0;
            field = &ModuleTimes::forwardSelf;
            role = Role::Forward;
            break;
        case GpuSide::Backward:
            // The module of the node's forward op; unpaired (no sequence numbers), none is known.
            id = context == Role::Backward ? charge[valueBits(v)] : 0;
            field = &ModuleTimes::backwardSelf;
            role = Role::Backward;
            break;
        case GpuSide::BackwardOther:
            // A DDP bucket's all-reduce carries many modules' gradients: never one module's.
            id = context == Role::BackwardOther && !isCommunication(m.sliceName(g))
                ? tie[valueBits(v)]
                : 0;
            field = &ModuleTimes::backwardOtherSelf;
            role = Role::BackwardOther;
            break;
        case GpuSide::Other:
        case GpuSide::Unattributed:
            // Optimizer or data loading inside a scope (a "## optimizer ##" annotation) is that
            // scope's "other" work, never its forward.
            if (context == Role::Forward) {
                id = valueBits(v);
                role = Role::Forward;
            }
            break;
        }
        m_nodes[id].times.*field += one;
        // Without a launch there is no step: whole-trace times only.
        if (const int si = launch == kNoSlice ? kWholeTrace : stepIndexAt(t.start[launch]); si >= 0)
            stepTimes(id, si).*field += one;
        ctx[g] = role == Role::None ? 0 : pack(role, id);
    }
}

//! Totals: GPU work rolls up; calls and CPU time are the path's own slices.
void ModuleTree::rollUpTotals(Build &b)
{
    const std::vector<ProfilerStep> &steps = b.graph.steps();
    const size_t count = b.count;
    auto &perStep = b.perStep;
    auto rollUp = [&](auto &&timesOf) {
        for (ModuleId id = 0; id < count; ++id)
            initTotals(timesOf(id));
        for (ModuleId id = count; id-- > 1;) {
            addTotals(timesOf(m_nodes[id].parent), timesOf(id));
            if (m_nodes[id].parent == 0)
                timesOf(0).cpuTotal += timesOf(id).cpuTotal;
        }
    };
    rollUp([&](ModuleId id) -> ModuleTimes & { return m_nodes[id].times; });
    struct Entry {
        ModuleId node;
        int step;
        ModuleTimes times;
    };
    std::vector<Entry> entries;
    {
        std::vector<std::vector<std::pair<ModuleId, const ModuleTimes *>>> byStep(steps.size());
        for (const auto &[key, times] : perStep)
            byStep[key & 0xffffffffu].emplace_back(ModuleId(key >> 32), &times);
        std::vector<ModuleTimes> dense;
        for (int si = 0; si < int(steps.size()); ++si) {
            if (byStep[size_t(si)].empty())
                continue;
            dense.assign(count, ModuleTimes());
            for (const auto &[id, times] : byStep[size_t(si)])
                dense[id] = *times;
            rollUp([&](ModuleId id) -> ModuleTimes & { return dense[id]; });
            for (ModuleId id = 0; id < count; ++id) {
                if (!isEmpty(dense[id]))
                    entries.push_back({id, si, dense[id]});
            }
        }
    }
    std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        return std::tie(a.node, a.step) < std::tie(b.node, b.step);
    });
    m_stepBegin.assign(count + 1, 0);
    for (const Entry &e : entries) {
        ++m_stepBegin[e.node + 1];
        m_stepOfEntry.push_back(e.step);
        m_stepTimes.push_back(e.times);
    }
    for (ModuleId id = 0; id < count; ++id)
        m_stepBegin[id + 1] += m_stepBegin[id];
}

//! Highlight lists, grouped by node in pre-order, in time order.
void ModuleTree::groupHighlights(Build &b)
{
    const SliceTable &t = b.m.slices;
    const std::vector<BackwardNode> &gnodes = b.graph.nodes();
    auto &calls = b.calls;
    auto &otherTops = b.otherTops;
    const size_t count = b.count;
    auto &charge = b.charge;
    auto &tie = b.tie;
    auto group = [&](auto &items, std::vector<uint32_t> &begin, auto &&nodeOfItem, auto &&timeOf) {
        std::stable_sort(items.begin(), items.end(), [&](const auto &a, const auto &b) {
            return std::pair(nodeOfItem(a), timeOf(a)) < std::pair(nodeOfItem(b), timeOf(b));
        });
        begin.assign(count + 1, 0);
        for (const auto &item : items)
            ++begin[nodeOfItem(item) + 1];
        for (ModuleId id = 0; id < count; ++id)
            begin[id + 1] += begin[id];
    };
    group(
        calls, m_forwardBegin, [](const Build::Call &c) { return c.node; },
        [&](const Build::Call &c) { return t.start[c.slice]; });
    m_forwardSlices.reserve(calls.size());
    for (const Build::Call &c : calls)
        m_forwardSlices.push_back(c.slice);

    m_backwardNodes.resize(gnodes.size());
    for (uint32_t n = 0; n < gnodes.size(); ++n)
        m_backwardNodes[n] = n;
    group(
        m_backwardNodes, m_backwardBegin, [&](uint32_t n) { return charge[n]; },
        [&](uint32_t n) { return t.start[gnodes[n].node]; });

    std::vector<std::pair<ModuleId, SliceId>> others;
    others.reserve(otherTops.size());
    for (uint32_t k = 0; k < otherTops.size(); ++k)
        others.emplace_back(tie[k], otherTops[k]);
    group(
        others, m_otherBegin, [](const auto &o) { return o.first; },
        [&](const auto &o) { return t.start[o.second]; });
    m_otherSlices.reserve(others.size());
    for (const auto &o : others)
        m_otherSlices.push_back(o.second);

    m_byPath.resize(count);
    for (ModuleId id = 0; id < count; ++id)
        m_byPath[id] = id;
    std::sort(m_byPath.begin(), m_byPath.end(),
        [&](ModuleId a, ModuleId b) { return m_nodes[a].path < m_nodes[b].path; });
}

//! Owners of host slices: node indices and tops become module ids.
void ModuleTree::resolveOwners(Build &b)
{
    const TraceModel &m = b.m;
    std::vector<uint32_t> &ctx = m_owner;
    auto &charge = b.charge;
    auto &tie = b.tie;
    forEachHostSlice(m, [&](SliceId s) {
        const uint32_t v = ctx[s];
        if (packedRole(v) == Role::Backward)
            ctx[s] = pack(Role::Backward, charge[valueBits(v)]);
        else if (packedRole(v) == Role::BackwardOther)
            ctx[s] = pack(Role::BackwardOther, tie[valueBits(v)]);
    });
}

} // namespace ks
