// SPDX-License-Identifier: MIT
#include "analysis/timeline/curvetracks.h"

#include "analysis/memory/memoryindex.h"
#include "base/saturating.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <set>

namespace ks {

namespace {

//! One device's events, in time order.
CurveTrack memoryTrack(
    const MemoryTable &t, int64_t type, int64_t id, const std::vector<uint32_t> &events)
{
    CurveTrack track;
    track.kind = CurveTrack::Kind::Memory;
    track.label = memoryDeviceName(type, id);
    const bool totals = std::any_of(
        events.begin(), events.end(), [&](uint32_t e) { return t.totalAllocated[e] != kNoValue; });
    std::vector<TimeNs> time, reservedTime;
    std::vector<double> allocated, reserved;
    int64_t sum = 0;
    for (uint32_t e : events) {
        if (totals && t.totalAllocated[e] == kNoValue)
            continue;
        if (!totals && !t.outOfMemory[e] && t.bytes[e] != kNoValue)
            addSaturating(sum, t.bytes[e]); // a failed allocation changes nothing
        time.push_back(t.time[e]);
        allocated.push_back(double(totals ? t.totalAllocated[e] : sum));
        track.events.push_back(e);
        if (t.totalReserved[e] != kNoValue) {
            reservedTime.push_back(t.time[e]);
            reserved.push_back(double(t.totalReserved[e]));
        }
    }
    track.relative = !totals;
    track.curves.emplace_back(std::move(time), std::move(allocated));
    track.curveNames.emplace_back("allocated");
    if (!reservedTime.empty()) {
        track.curves.emplace_back(std::move(reservedTime), std::move(reserved));
        track.curveNames.emplace_back("reserved");
    }
    return track;
}

std::vector<StepPhases> phasesOf(const OpGraph &g)
{
    const SliceTable &s = g.model().slices;
    const std::vector<ProfilerStep> &steps = g.steps();
    std::vector<StepPhases> phases(steps.size());
    std::vector<uint8_t> used(steps.size(), 0); // bit 0: forward, bit 1: backward
    auto widen = [&](TimeNs a, TimeNs b, TimeNs &begin, TimeNs &end, uint8_t bit, int step) {
        const size_t i = size_t(step);
        if (!(used[i] & bit)) {
            begin = a;
            end = b;
        }
        begin = std::min(begin, a);
        end = std::max(end, b);
        used[i] |= bit;
    };
    for (const PairRow &row : g.rows()) {
        if (row.forward == kNoSlice || row.nodeCount == 0 || row.recompute)
            continue;
        const int step = g.stepIndexAt(s.start[row.forward]);
        if (step >= 0)
            widen(s.start[row.forward], s.end(row.forward), phases[size_t(step)].forwardBegin,
                phases[size_t(step)].forwardEnd, 1, step);
    }
    for (const BackwardNode &node : g.nodes()) {
        const int step = g.stepIndexAt(s.start[node.outer]);
        if (step >= 0)
            widen(s.start[node.outer], s.end(node.outer), phases[size_t(step)].backwardBegin,
                phases[size_t(step)].backwardEnd, 2, step);
    }
    std::vector<StepPhases> out;
    for (size_t i = 0; i < steps.size(); ++i) {
        if (!used[i])
            continue;
        phases[i].step = i;
        out.push_back(phases[i]);
    }
    return out;
}

} // namespace

/*!
 * Kineto writes a GPU's hardware counters under the pid "GPU N Counters" (pytorch/kineto
 * 114171df, libkineto/src/output_json.cpp, ChromeTraceLogger::handleCounterEvent).
 */
int deviceOfCounters(std::string_view pid)
{
    constexpr std::string_view prefix = "GPU ";
    if (!pid.starts_with(prefix))
        return -1;
    int device = -1;
    const char *end = pid.data() + pid.size();
    const auto [next, ec] = std::from_chars(pid.data() + prefix.size(), end, device);
    return ec == std::errc() && (next == end || *next == ' ') ? device : -1;
}

TraceCurves traceCurves(const OpGraph &graph)
{
    const TraceModel &m = graph.model();
    TraceCurves out;
    std::map<std::pair<int64_t, int64_t>, std::vector<uint32_t>> byDevice;
    for (uint32_t e = 0; e < m.memory.size(); ++e)
        byDevice[{m.memory.deviceType[e], m.memory.deviceId[e]}].push_back(e);
    for (const auto &[device, events] : byDevice)
        out.tracks.push_back(memoryTrack(m.memory, device.first, device.second, events));
    // Other counters (MTIA's: mtia_counters, pid = the device) belong to a pid that only device
    // lanes have (pytorch/kineto 114171df, output_json.cpp, handleCounterEvent).
    std::set<int64_t> hostPids, devicePids;
    for (const Lane &lane : m.lanes)
        (lane.device ? devicePids : hostPids).insert(lane.pid);
    auto deviceOf = [&](const CounterSeries &series) {
        const int named = deviceOfCounters(m.str(series.pidText));
        if (named >= 0)
            return named;
        const bool deviceOnly = devicePids.contains(series.pid) && !hostPids.contains(series.pid);
        return deviceOnly && series.pid <= std::numeric_limits<int>::max() ? int(series.pid) : -1;
    };
    std::map<std::string_view, int> seriesOfName; // counters named alike in several processes
    for (const CounterSeries &series : m.counters)
        ++seriesOfName[m.str(series.name)];
    for (const CounterSeries &series : m.counters) {
        CurveTrack track;
        track.label = m.str(series.name);
        if (seriesOfName[m.str(series.name)] > 1)
            track.label += deviceOfCounters(m.str(series.pidText)) >= 0
                ? " (" + std::string(m.str(series.pidText)) + ")"
                : " (pid " + std::to_string(series.pid) + ")";
        track.pid = series.pid;
        track.device = deviceOf(series);
        track.curves.emplace_back(series.time, series.value);
        track.curveNames.push_back(track.label);
        out.tracks.push_back(std::move(track));
    }
    out.phases = phasesOf(graph);
    return out;
}

} // namespace ks
