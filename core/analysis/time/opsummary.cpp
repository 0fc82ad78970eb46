// SPDX-License-Identifier: MIT
#include "analysis/time/opsummary.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace ks {

namespace {

//! The nearest event above \a s that is no Python frame (they are looked through), or kNoSlice.
SliceId hostParent(const SliceTable &t, SliceId s)
{
    SliceId p = t.parent[s];
    while (p != kNoSlice && t.kind[p] == EventKind::PythonFunction)
        p = t.parent[p];
    return p;
}

//! What one op call adds up to before it is summed by name.
struct CallTimes {
    TimeNs children = 0; //!< its host children's durations
    TimeNs deviceTotal = 0;
    TimeNs deviceSelf = 0;
};

/*!
 * Whether \a op runs in the backward pass: inside an autograd node (itself one included). Not
 * by its thread: without a GPU, backward runs on the forward's thread.
 */
bool inBackward(const OpGraph &graph, SliceId op)
{
    const SliceTable &t = graph.model().slices;
    for (SliceId a = op; a != kNoSlice; a = t.parent[a])
        if (graph.isBackwardNode(a))
            return true;
    return false;
}

} // namespace

OpSummary opSummary(const OpGraph &graph, bool byInputDims, int64_t step)
{
    const TraceModel &m = graph.model();
    const SliceTable &t = m.slices;
    std::unordered_map<SliceId, CallTimes> calls; // the ops with children or GPU work
    for (SliceId s = 0; s < t.size(); ++s) {
        if (m.lanes[t.lane[s]].device || t.kind[s] == EventKind::PythonFunction)
            continue;
        if (const SliceId p = hostParent(t, s); p != kNoSlice && t.kind[p] == EventKind::CpuOp)
            calls[p].children += t.dur[s];
    }
    const std::vector<SliceId> &gpu = graph.gpuEvents();
    for (size_t i = 0; i < gpu.size(); ++i) {
        bool innermost = true;
        for (SliceId a = graph.gpuLaunches()[i]; a != kNoSlice; a = t.parent[a]) {
            if (t.kind[a] != EventKind::CpuOp)
                continue;
            CallTimes &c = calls[a];
            c.deviceTotal += t.dur[gpu[i]];
            if (innermost)
                c.deviceSelf += t.dur[gpu[i]];
            innermost = false;
        }
    }
    OpSummary out;
    std::map<std::pair<StringId, StringId>, size_t> rowOf;
    for (SliceId s = 0; s < t.size(); ++s) {
        if (t.kind[s] != EventKind::CpuOp || (step != kNoValue && graph.stepAt(t.start[s]) != step))
            continue;
        const StringId dims = byInputDims ? t.inputDims[s] : 0;
        const auto [it, added] = rowOf.try_emplace({t.name[s], dims}, out.rows.size());
        if (added)
            out.rows.push_back({t.name[s], dims});
        OpSummaryRow &row = out.rows[it->second];
        const auto found = calls.find(s);
        const CallTimes times = found == calls.end() ? CallTimes {} : found->second;
        ++row.calls;
        row.hostTotal += t.dur[s];
        row.hostSelf += std::max<TimeNs>(0, t.dur[s] - times.children);
        row.deviceTotal += times.deviceTotal;
        row.deviceSelf += times.deviceSelf;
        if (inBackward(graph, s)) {
            ++row.backwardCalls;
            row.backwardHostTotal += t.dur[s];
            row.backwardDeviceTotal += times.deviceTotal;
        }
    }
    std::sort(out.rows.begin(), out.rows.end(), [&](const auto &a, const auto &b) {
        if (a.deviceTotal != b.deviceTotal)
            return a.deviceTotal > b.deviceTotal;
        if (a.hostTotal != b.hostTotal)
            return a.hostTotal > b.hostTotal;
        return std::pair(m.str(a.name), m.str(a.inputDims))
            < std::pair(m.str(b.name), m.str(b.inputDims));
    });
    return out;
}

} // namespace ks
