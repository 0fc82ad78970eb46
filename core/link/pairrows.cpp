// SPDX-License-Identifier: MIT
#include "link/pairrows.h"

#include "link/opnames.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace ks {

SliceId moduleAround(const TraceModel &model, SliceId slice)
{
    const SliceTable &t = model.slices;
    for (SliceId a = t.parent[slice]; a != kNoSlice; a = t.parent[a]) {
        if (t.kind[a] == EventKind::PythonFunction && model.sliceName(a).starts_with("nn.Module: "))
            return a;
    }
    return kNoSlice;
}

int PairRows::rowOfForward(SliceId slice) const
{
    const uint32_t r = m_rowByForward.find(slice);
    return r == SliceIndexMap::kAbsent ? -1 : int(r);
}

SliceId PairRows::displayOp(const AutogradPairing &pairing, SliceId creator, bool &recompute) const
{
    const TraceModel &m = m_model;
    const SliceTable &t = m.slices;
    // step 10: climb to the outermost cpu_op, never into a backward node or its wrapper.
    SliceId row = creator;
    SliceId p = t.parent[creator];
    // 1.9 files record ProfilerStep#N as an `Operator`; it is still a step, not an op.
    while (p != kNoSlice && t.kind[p] == EventKind::CpuOp && pairing.nodeOf(p) < 0
        && !isEvaluateWrapper(m.sliceName(p)) && !m.sliceName(p).starts_with("ProfilerStep#")) {
        row = p;
        p = t.parent[p];
    }
    recompute = false;
    for (SliceId a = p; a != kNoSlice; a = t.parent[a]) {
        if (pairing.nodeOf(a) >= 0 || isEvaluateWrapper(m.sliceName(a))) {
            recompute = true;
            break;
        }
    }
    return row;
}

PairRows::PairRows(const TraceModel &model,
    AutogradPairing &pairing,
    const GpuAttribution &gpu,
    const Recomputations &recomputations,
    const StepIndex &steps)
    : m_model(model)
{
    const SliceTable &t = model.slices;
    std::vector<BackwardNode> &allNodes = pairing.nodes();

    std::vector<std::vector<uint32_t>> members;
    for (uint32_t i = 0; i < allNodes.size(); ++i) {
        const BackwardNode &node = allNodes[i];
        if (node.creator == kNoSlice) {
            ++m_stats.unpairedBackward;
            PairRow row;
            row.sortTime = t.start[node.node];
            m_rows.push_back(row);
            members.push_back({i});
            continue;
        }
        bool recompute = false;
        const SliceId op = displayOp(pairing, node.creator, recompute);
        const uint32_t r = m_rowByForward.insert(op, uint32_t(m_rows.size()));
        if (r == m_rows.size()) {
            PairRow row;
            row.forward = op;
            row.recompute = recompute;
            row.sortTime = t.start[op];
            m_rows.push_back(row);
            members.emplace_back();
        }
        members[r].push_back(i);
    }

    // Order rows by their first event; ties by thread, then by first node.
    std::vector<uint32_t> order(m_rows.size());
    std::iota(order.begin(), order.end(), 0);
    auto firstNodeStart = [&](uint32_t r) {
        TimeNs best = std::numeric_limits<TimeNs>::max();
        for (uint32_t i : members[r])
            best = std::min(best, t.start[allNodes[i].node]);
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
    m_rowNodes.reserve(allNodes.size());
    for (uint32_t r : order) {
        PairRow row = m_rows[r];
        const auto newIndex = uint32_t(rows.size());
        std::vector<uint32_t> &nodes = members[r];
        std::sort(nodes.begin(), nodes.end(), [&](uint32_t a, uint32_t b) {
            return std::tie(t.start[allNodes[a].node], allNodes[a].node)
                < std::tie(t.start[allNodes[b].node], allNodes[b].node);
        });
        row.firstNode = uint32_t(m_rowNodes.size());
        row.nodeCount = uint32_t(nodes.size());
        bool allFlow = true;
        for (uint32_t i : nodes) {
            BackwardNode &node = allNodes[i];
            node.row = newIndex;
            m_rowNodes.push_back(i);
            allFlow = allFlow && node.method == LinkMethod::Flow;
            // Forward work re-run inside the node is recompute, not the node's backward time.
            const GpuTotals rerun = recomputations.gpuUnder(node.outer);
            row.recomputeGpu += rerun;
            row.backwardGpu += gpu.totalsUnder(node.outer) - rerun;
            row.backwardDur += t.dur[node.outer];
        }
        if (row.forward != kNoSlice) {
            row.link = allFlow ? LinkMethod::Flow : LinkMethod::Sequence;
            row.forwardGpu = gpu.totalsUnder(row.forward);
            const Recomputations::Repeated recomputed = recomputations.repeatedUnder(row.forward);
            row.recomputations = recomputed.count;
            row.recomputedGpu = recomputed.gpu;
            row.step = steps.stepAt(t.start[row.forward]);
            row.module = moduleAround(model, row.forward);
            m_rowByForward.assign(row.forward, newIndex);
            m_stats.recomputeRows += row.recompute;
        } else {
            row.step = steps.stepAt(t.start[allNodes[nodes.front()].node]);
        }
        rows.push_back(row);
    }
    m_rows = std::move(rows);
}

} // namespace ks
