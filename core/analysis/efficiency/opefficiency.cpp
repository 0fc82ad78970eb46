// SPDX-License-Identifier: MIT
#include "analysis/efficiency/opefficiency.h"

#include "analysis/efficiency/attentionwork.h"
#include "analysis/time/gputime.h"
#include "model/slicewalk.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace ks {

std::string_view sideName(OpSide side)
{
    switch (side) {
    case OpSide::Forward:
        return "forward";
    case OpSide::Backward:
        return "backward";
    case OpSide::Recompute:
        return "recompute";
    case OpSide::Other:
        break;
    }
    return "other";
}

std::optional<Roofline> rooflineOf(const OpWork &work, TimeNs kernelTime, const DevicePeaks *peaks)
{
    if (!peaks || !work.bytes || peaks->memGBps <= 0)
        return std::nullopt;
    const auto peak = peaks->tflops.find(computeSpecOf(work.unit, work.dtype));
    if (peak == peaks->tflops.end() || peak->second <= 0)
        return std::nullopt;
    const double computeUs = work.flops / (peak->second * 1e12) * 1e6;
    const double memoryUs = *work.bytes / (peaks->memGBps * 1e9) * 1e6;
    Roofline r;
    r.us = std::max(computeUs, memoryUs);
    r.computeBound = computeUs >= memoryUs;
    if (kernelTime > 0)
        r.pct = r.us / (double(kernelTime) / 1e3) * 100;
    return r;
}

std::optional<double> SideEfficiency::tflopsPerS() const
{
    if (!modelled)
        return std::nullopt;
    OpWork work;
    work.flops = flops;
    return ratesOf(work, kernelTime).tflopsPerS; // the instances' arithmetic, to the last digit
}

std::optional<double> SideEfficiency::pctRoofline() const
{
    if (!rooflineUs || kernelTime <= 0)
        return std::nullopt;
    return *rooflineUs / (double(kernelTime) / 1e3) * 100;
}

namespace {

//! The GPU work of a row's backward nodes, less what recomputed ops there launched.
TimeNs backwardKernelTime(const OpGraph &graph, const PairRow &row)
{
    const SliceTable &t = graph.model().slices;
    std::vector<std::pair<TimeNs, TimeNs>> intervals;
    for (uint32_t n : graph.nodesOf(row)) {
        for (SliceId e : graph.gpuEventsUnder(graph.nodes()[n].outer)) {
            if (graph.recomputationOf(e) < 0)
                intervals.emplace_back(t.start[e], t.end(e));
        }
    }
    return busyTime(std::move(intervals));
}

OpSide sideOf(const OpGraph &graph, SliceId op, int &row)
{
    const OpGraph::RowSide side = graph.rowSideOf(op);
    row = side.row;
    if (graph.recomputationOf(op) >= 0)
        return OpSide::Recompute;
    if (side.row < 0)
        return OpSide::Other;
    return side.forward ? OpSide::Forward : OpSide::Backward;
}

} // namespace

OpEfficiency::OpEfficiency(const OpGraph &graph, std::shared_ptr<const PeakTable> peaks)
    : m_peaks(std::move(peaks))
{
    const auto props = graph.model().metadata.find("deviceProperties");
    if (props != graph.model().metadata.end()) {
        for (TraceDevice &d : traceDevices(props->second))
            m_devices.push_back({d, m_peaks->find(d.name, d.numSms)});
    }
    collectInstances(graph);
    addAttentionBackwards(graph);
    rollUp(graph);
    for (size_t i = 0; i < m_instances.size(); ++i)
        m_byOp.emplace_back(m_instances[i].op, i);
    std::sort(m_byOp.begin(), m_byOp.end());
}

std::vector<const OpInstance *> OpEfficiency::instancesOf(SliceId op) const
{
    std::vector<const OpInstance *> out;
    auto it = std::lower_bound(m_byOp.begin(), m_byOp.end(), std::pair<SliceId, size_t>(op, 0));
    for (; it != m_byOp.end() && it->first == op; ++it)
        out.push_back(&m_instances[it->second]);
    return out;
}

int OpEfficiency::deviceOf(const OpGraph &graph, SliceId op) const
{
    const std::span<const SliceId> gpu = graph.gpuEventsUnder(op);
    if (!gpu.empty()) {
        const TraceModel &m = graph.model();
        const int64_t pid = m.lanes[m.slices.lane[gpu.front()]].pid;
        for (size_t i = 0; i < m_devices.size(); ++i) {
            if (m_devices[i].trace.id == pid)
                return int(i);
        }
    }
    return m_devices.empty() ? -1 : 0; // one GPU a rank: the trace's first device
}

void OpEfficiency::collectInstances(const OpGraph &graph)
{
    const TraceModel &m = graph.model();
    const SliceTable &t = m.slices;
    std::unordered_map<StringId, bool> modelledName;
    // Many instances share their shapes: each distinct (name, dims, types, concrete) is modelled
    // once.
    std::map<std::tuple<StringId, StringId, StringId, StringId>, std::optional<OpWork>> works;
    std::vector<bool> isInstance(t.size());
    forEachHostSlice(m, [&](SliceId s) {
        if (t.kind[s] != EventKind::CpuOp)
            return;
        auto named = modelledName.try_emplace(t.name[s], false);
        if (named.second)
            named.first->second = isModelledOp(m.str(t.name[s]));
        if (!named.first->second)
            return;
        const CpuInfo *info = m.cpu(s);
        const auto key = std::make_tuple(t.name[s], t.inputDims[s],
            info ? info->inputTypes : StringId(0), info ? info->concreteInputs : StringId(0));
        auto cached = works.find(key);
        if (cached == works.end())
            cached = works.emplace(key, opWork(m.str(t.name[s]), shapesOf(m, s))).first;
        if (!cached->second)
            return;
        OpInstance in;
        in.op = s;
        in.work = *cached->second;
        in.side = sideOf(graph, s, in.row);
        for (SliceId p = t.parent[s]; p != kNoSlice && in.outermost; p = t.parent[p])
            in.outermost = !isInstance[p];
        isInstance[s] = true;
        in.kernelTime = subtreeKernelTime(graph, s);
        in.device = deviceOf(graph, s);
        in.rates = ratesOf(in.work, in.kernelTime);
        in.roofline = rooflineOf(
            in.work, in.kernelTime, in.device >= 0 ? m_devices[size_t(in.device)].peaks : nullptr);
        m_instances.push_back(std::move(in));
    });
}

/*!
 * Attention's backward nodes hold no modelled op (`…_flash_attention_backward` has no model of
 * its own, as in TraceLens): a row whose forward side holds one attention op and whose backward
 * holds no modelled op gets that op's backward from its forward shapes, timed by the nodes.
 */
void OpEfficiency::addAttentionBackwards(const OpGraph &graph)
{
    const std::vector<PairRow> &rows = graph.rows();
    std::vector<int> attention(rows.size(), -1); // instance index; -2 when more than one
    std::vector<bool> backwardModelled(rows.size());
    for (size_t i = 0; i < m_instances.size(); ++i) {
        const OpInstance &in = m_instances[i];
        if (in.row < 0)
            continue;
        if (in.side == OpSide::Backward)
            backwardModelled[size_t(in.row)] = true;
        else if (in.side == OpSide::Forward && attentionCovers(graph.model().sliceName(in.op)))
            attention[size_t(in.row)] = attention[size_t(in.row)] == -1 ? int(i) : -2;
    }
    for (size_t r = 0; r < rows.size(); ++r) {
        if (attention[r] < 0 || backwardModelled[r] || rows[r].nodeCount == 0)
            continue;
        const OpInstance &forward = m_instances[size_t(attention[r])];
        std::optional<OpWork> work = attentionBackwardWork(
            graph.model().sliceName(forward.op), shapesOf(graph.model(), forward.op));
        if (!work)
            continue;
        OpInstance in = forward;
        in.side = OpSide::Backward;
        in.fromForwardShapes = true;
        in.outermost = true;
        in.work = std::move(*work);
        in.kernelTime = backwardKernelTime(graph, rows[r]);
        in.rates = ratesOf(in.work, in.kernelTime);
        in.roofline = rooflineOf(
            in.work, in.kernelTime, in.device >= 0 ? m_devices[size_t(in.device)].peaks : nullptr);
        m_instances.push_back(std::move(in));
    }
}

void OpEfficiency::rollUp(const OpGraph &graph)
{
    const std::vector<PairRow> &rows = graph.rows();
    m_pairs.resize(rows.size());
    for (size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].forward != kNoSlice)
            m_pairs[r].forward.kernelTime = subtreeKernelTime(graph, rows[r].forward);
        m_pairs[r].backward.kernelTime = backwardKernelTime(graph, rows[r]);
    }
    for (const OpInstance &in : m_instances) {
        if (!in.outermost || in.row < 0
            || (in.side != OpSide::Forward && in.side != OpSide::Backward))
            continue;
        PairEfficiency &p = m_pairs[size_t(in.row)];
        SideEfficiency &side = in.side == OpSide::Forward ? p.forward : p.backward;
        const bool first = !side.modelled;
        side.modelled = true;
        side.flops += in.work.flops;
        side.bytes = in.work.bytes && (first || side.bytes)
            ? std::optional<double>(side.bytes.value_or(0) + *in.work.bytes)
            : std::nullopt;
        const DevicePeaks *peaks = in.device >= 0 ? m_devices[size_t(in.device)].peaks : nullptr;
        const std::optional<Roofline> roofline = rooflineOf(in.work, 0, peaks);
        side.rooflineUs = roofline && (first || side.rooflineUs)
            ? std::optional<double>(side.rooflineUs.value_or(0) + roofline->us)
            : std::nullopt;
        if (roofline)
            (roofline->computeBound ? side.computeUs : side.memoryUs) += roofline->us;
    }
}

} // namespace ks
