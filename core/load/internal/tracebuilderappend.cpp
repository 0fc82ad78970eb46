// SPDX-License-Identifier: MIT
// A segment's builder taken into the builder of the text before it (segmentedparse.h). All the
// later builder holds is named by its own string ids and its own lanes; both are translated
// here, so that the result is what one builder reading both texts in order would hold.
#include "base/parallel.h"
#include "tracebuilder.h"
#include "tracebuilderparts.h"

#include <algorithm>

namespace ks {

struct TraceBuilder::Remap {
    std::vector<StringId> string; //!< the later builder's string id → this builder's
    std::vector<uint32_t> lane; //!< the later builder's lane → this builder's

    StringId str(StringId id) const { return string[id]; }
    //! A lane key made of a text id (keyOf()) names the text by the later pool's id.
    int64_t key(int64_t k) const
    {
        if (k >= kTextKeyBase && uint64_t(k - kTextKeyBase) < string.size())
            return kTextKeyBase + int64_t(string[size_t(k - kTextKeyBase)]);
        return k;
    }
    LaneKey laneKey(const LaneKey &k) const { return {key(k.pid), key(k.tid), k.device}; }
};

namespace {

template<typename T, typename Map> void appendMapped(PodVector<T> &dst, PodVector<T> &src, Map map)
{
    dst.reserve(dst.size() + src.size());
    for (size_t i = 0; i < src.size(); ++i)
        dst.push_back(map(src[i]));
    src.release(); // one column at a time: the segment's events are never held twice
}

template<typename T> void appendAll(PodVector<T> &dst, PodVector<T> &src)
{
    dst.append(src.data(), src.size());
    src.release();
}

} // namespace

bool TraceBuilder::deferEnd(const RawEvent &e, TimeNs ts, const LaneKey &key)
{
    const auto hasOpen = [this](const LaneKey &k) {
        const auto lane = m_laneIndex.find(k);
        if (lane == m_laneIndex.end())
            return false;
        const auto open = m_openBegins.find(lane->second);
        return open != m_openBegins.end() && !open->second.empty();
    };
    const bool laneHere = m_laneIndex.contains(key);
    if (laneHere && hasOpen(key))
        return false; // closes a B of this segment, as in one text
    if (!laneHere && hasOpen({key.pid, key.tid, !key.device})) {
        m_ambiguous = true; // the other side's B, unless an earlier segment has this side's lane
        return true;
    }
    m_pendingEnds.push_back(
        {key, laneHere, ts, e.ts.decimals, e.externalId, e.correlation, e.offset});
    return true;
}

void TraceBuilder::matchPendingEnds(
    const TraceBuilder &later, const Remap &remap, Diagnostics &diag)
{
    // Against this builder's lanes only: the later segment's new lanes did not exist yet when
    // one text reached these E events, and their own B events were all later.
    for (const PendingEnd &p : later.m_pendingEnds) {
        std::vector<uint32_t> *open = openBeginsOn(remap.laneKey(p.key), !p.laneHere);
        if (!open || open->empty()) {
            diag.add(Diag::UnmatchedEnd, p.offset, kUnmatchedEndMessage);
            continue;
        }
        const uint32_t i = open->back();
        open->pop_back();
        closeOn(i, p.ts, p.decimals, p.externalId, p.correlation, p.offset, diag);
    }
}

void TraceBuilder::appendLanes(TraceBuilder &later, Remap &remap)
{
    // New lanes in the later segment's creation order: the order one text creates them in.
    remap.lane.resize(later.m_lanes.size());
    m_laneIndex.reserve(m_lanes.size() + later.m_lanes.size());
    const std::string_view written(later.m_writtenIds);
    for (size_t l = 0; l < later.m_lanes.size(); ++l) {
        const LaneState &src = later.m_lanes[l];
        const LaneKey key = remap.laneKey(src.key);
        const auto [it, inserted] = m_laneIndex.try_emplace(key, uint32_t(m_lanes.size()));
        if (inserted) {
            LaneState &lane = m_lanes.emplace_back();
            lane.key = key;
            lane.writtenAt = m_writtenIds.size();
            lane.pidLength = src.pidLength;
            lane.tidLength = src.tidLength;
            m_writtenIds += written.substr(src.writtenAt, src.pidLength + src.tidLength);
        }
        remap.lane[l] = it->second;
    }
}

void TraceBuilder::appendColumns(TraceBuilder &later, const Remap &remap)
{
    Columns &c = *m_columns;
    Columns &from = *later.m_columns;
    const uint32_t base = uint32_t(c.start.size());
    for (const auto &[lane, open] : later.m_openBegins) {
        std::vector<uint32_t> &to = m_openBegins[remap.lane[lane]];
        for (uint32_t i : open)
            to.push_back(base + i);
    }
    const uint32_t gpuBase = uint32_t(m_model->gpuInfo.size());
    const uint32_t cpuBase = uint32_t(m_model->cpuInfo.size());
    const auto str = [&remap](StringId id) { return remap.str(id); };
    const auto lane = [&remap](uint32_t l) { return remap.lane[l]; };
    // Half the columns on each core: copying is most of the join's time.
    parallelInvoke(
        from.start.size(),
        [&] {
            for (size_t i = 0; i < from.extra.size(); ++i) { // before the kinds are released
                const uint32_t x = from.extra[i];
                c.extra.push_back(
                    x == ~0u ? x : x + (hasGpuInfo(from.kind[i]) ? gpuBase : cpuBase));
            }
            from.extra.release();
            appendMapped(c.lane, from.lane, lane);
            appendAll(c.start, from.start);
            appendAll(c.dur, from.dur);
            appendMapped(c.name, from.name, str);
            appendMapped(c.cat, from.cat, str);
            appendAll(c.kind, from.kind);
            appendAll(c.flags, from.flags);
        },
        [&] {
            appendAll(c.externalId, from.externalId);
            appendAll(c.correlation, from.correlation);
            appendAll(c.sequence, from.sequence);
            appendAll(c.fwdThread, from.fwdThread);
            appendMapped(c.inputDims, from.inputDims, str);
            appendAll(c.offset, from.offset);
            appendAll(c.instantTime, from.instantTime);
            appendMapped(c.instantName, from.instantName, str);
            appendAll(c.instantOffset, from.instantOffset);
            appendMapped(c.instantLane, from.instantLane, lane);
        });
}

void TraceBuilder::appendTables(TraceBuilder &later, const Remap &remap)
{
    TraceModel &m = *m_model;
    TraceModel &from = *later.m_model;
    for (GpuInfo g : from.gpuInfo) {
        g.collective = remap.str(g.collective);
        g.processGroup = remap.str(g.processGroup);
        g.commsId = remap.str(g.commsId);
        m.gpuInfo.push_back(g);
    }
    for (CpuInfo info : from.cpuInfo) {
        info.inputTypes = remap.str(info.inputTypes);
        info.concreteInputs = remap.str(info.concreteInputs);
        m.cpuInfo.push_back(info);
    }
    for (MemoryEvent e : later.m_memory) {
        e.lane = remap.lane[e.lane];
        m_memory.push_back(e);
    }
    for (GlobalInstant g : later.m_globalInstants) {
        g.name = remap.str(g.name);
        m_globalInstants.push_back(g);
    }
    for (MetadataEntry md : later.m_metadata) {
        md.what = remap.str(md.what);
        md.value = remap.str(md.value);
        md.labels = remap.str(md.labels);
        md.pid = remap.key(md.pid);
        md.tid = remap.key(md.tid);
        m_metadata.push_back(md);
    }
    for (FlowEndpoint f : later.m_flows.takeEndpoints()) {
        f.cat = remap.str(f.cat);
        f.name = remap.str(f.name);
        if (f.idIsText)
            f.id = int64_t(remap.str(StringId(f.id)));
        f.pid = remap.key(f.pid);
        f.tid = remap.key(f.tid);
        m_flows.add(f);
    }
    for (CounterSeries &series : from.counters) { // in the order the segment created them
        const CounterKey key {remap.key(series.pid), remap.str(series.name)};
        const auto [it, inserted] = m_counterIndex.try_emplace(key, uint32_t(m.counters.size()));
        if (inserted) {
            CounterSeries &added = m.counters.emplace_back();
            added.pid = key.pid;
            added.name = key.name;
        }
        CounterSeries &to = m.counters[it->second];
        to.time.insert(to.time.end(), series.time.begin(), series.time.end());
        to.value.insert(to.value.end(), series.value.begin(), series.value.end());
    }
}

void TraceBuilder::append(TraceBuilder &later)
{
    Remap remap;
    // In the later pool's id order, which is its first-use order: the ids one pool would give.
    const StringPool &laterStrings = later.strings();
    remap.string.resize(laterStrings.size());
    for (StringId id = 0; id < laterStrings.size(); ++id)
        remap.string[id] = strings().intern(laterStrings.view(id));

    // The kept E events were counted where they stood in the later text: in offset order.
    Diagnostics ends;
    matchPendingEnds(later, remap, ends);
    Diagnostics laterDiagnostics = later.diagnostics();
    laterDiagnostics.interleave(ends);
    diagnostics().merge(laterDiagnostics);

    appendLanes(later, remap);
    appendColumns(later, remap);
    appendTables(later, remap);
}

} // namespace ks
