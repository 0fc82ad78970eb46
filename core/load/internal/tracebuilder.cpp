// SPDX-License-Identifier: MIT
#include "tracebuilder.h"

#include "base/podvector.h"
#include "bothcoresrethrow.h"
#include "kernelnames.h"
#include "slicenester.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <string>

namespace ks {

namespace {

// Times beyond ±2^62 ns (146 years) cannot be real and would overflow start + dur.
constexpr TimeNs kMaxAbsTime = TimeNs(1) << 62;
// No allocation or device total reaches 2^50 bytes (1 PiB); beyond it sums could overflow.
constexpr int64_t kMaxMemoryBytes = int64_t(1) << 50;

bool usableSize(int64_t bytes, bool signedSize)
{
    return bytes == kNoValue
        || (bytes <= kMaxMemoryBytes && bytes >= (signedSize ? -kMaxMemoryBytes : 0));
}

std::string phaseText(char ph)
{
    if (ph >= 0x20 && ph < 0x7f)
        return std::string(1, ph);
    return "\\x" + std::to_string(uint8_t(ph));
}

uint8_t decimalBits(const MicrosText &ts, const MicrosText &dur)
{
    const int t = std::min<int>(ts.decimals, 3);
    const int d = std::min<int>(dur.decimals, 3);
    return uint8_t((t << 1) | (d << 3));
}

template<typename T>
void appendPermuted(std::vector<T> &dst, PodVector<T> &src, const std::vector<uint32_t> &perm)
{
    for (uint32_t i : perm)
        dst.push_back(src[i]);
    src.release(); // the lane's copy goes right away: peak memory matters
}

} // namespace

struct TraceBuilder::LaneColumns {
    PodVector<TimeNs> start, dur;
    PodVector<StringId> name, cat;
    PodVector<EventKind> kind;
    PodVector<uint8_t> flags;
    PodVector<int64_t> externalId, correlation, sequence, fwdThread;
    PodVector<StringId> inputDims;
    PodVector<uint32_t> extra;
    PodVector<uint64_t> offset;
    std::vector<uint32_t> openBegins; //!< B slices waiting for their E, innermost last

    std::vector<TimeNs> instantTime;
    std::vector<StringId> instantName;
    std::vector<uint64_t> instantOffset;

    std::string pidWritten, tidWritten; //!< interned at finish(): strings belong to the parser
    LaneId finalId = kNoLane;
};

struct TraceBuilder::MetadataEntry {
    StringId what; //!< process_name, thread_name, …
    int64_t pid, tid;
    StringId value;
    bool hasValue;
    StringId labels;
    int64_t sortIndex;
    uint64_t offset;
};

size_t TraceBuilder::LaneKeyHash::operator()(const LaneKey &k) const noexcept
{
    uint64_t h = uint64_t(k.pid) * 0x9E3779B97F4A7C15ull;
    h ^= uint64_t(k.tid) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
    return size_t(h ^ (k.device ? 0x5bd1e995u : 0u));
}

size_t TraceBuilder::CounterKeyHash::operator()(const CounterKey &k) const noexcept
{
    return size_t(uint64_t(k.pid) * 0x9E3779B97F4A7C15ull ^ k.name);
}

TraceBuilder::TraceBuilder()
    : m_model(std::make_unique<TraceModel>())
{
}

TraceBuilder::~TraceBuilder() = default;

int64_t TraceBuilder::keyOf(const RawId &id)
{
    if (!id.present)
        return 0;
    if (id.numeric)
        return id.num;
    // Non-numeric ids ("Spans", "stream 7") get keys far from any real pid or tid.
    return std::numeric_limits<int64_t>::min() / 2 + int64_t(id.text);
}

uint32_t TraceBuilder::laneIndex(const RawEvent &e, bool device)
{
    const LaneKey key {keyOf(e.pid), keyOf(e.tid), device};
    if (m_lastLane != ~0u && key == m_lastKey)
        return m_lastLane;
    auto [it, inserted] = m_laneIndex.try_emplace(key, uint32_t(m_lanes.size()));
    if (inserted) {
        auto lane = std::make_unique<LaneColumns>();
        lane->pidWritten = e.pid.written;
        lane->tidWritten = e.tid.written;
        m_lanes.push_back(std::move(lane));
        m_laneKeys.push_back(key);
    }
    m_lastKey = key;
    m_lastLane = it->second;
    return it->second;
}

bool TraceBuilder::readTime(const RawEvent &e, TimeNs &ts)
{
    Diagnostics &diag = m_model->diagnostics;
    if (!e.hasTs) {
        diag.add(Diag::MissingTs, e.offset, "event '" + phaseText(e.ph) + "' without ts: skipped");
        return false;
    }
    if (!e.tsValid || e.ts.ns > kMaxAbsTime || e.ts.ns < -kMaxAbsTime) {
        diag.add(Diag::InvalidTs, e.offset, "ts is not a usable number: event skipped");
        return false;
    }
    ts = e.ts.ns;
    if (ts < 0)
        diag.add(Diag::NegativeTs, e.offset, "negative ts kept as is");
    return true;
}

void TraceBuilder::add(const RawEvent &e)
{
    switch (e.ph) {
    case 'X': {
        TimeNs ts;
        if (!readTime(e, ts))
            return;
        TimeNs dur = 0;
        Diagnostics &diag = m_model->diagnostics;
        if (!e.hasDur) {
            diag.add(Diag::MissingDur, e.offset, "X event without dur: duration 0");
        } else if (!e.durValid || e.dur.ns > kMaxAbsTime) {
            diag.add(Diag::InvalidDur, e.offset, "dur is not a usable number: duration 0");
        } else if (e.dur.ns < 0) {
            diag.add(Diag::NegativeDur, e.offset, "negative dur: duration 0");
        } else {
            dur = e.dur.ns;
        }
        addSlice(e, ts, dur, decimalBits(e.ts, e.dur));
        return;
    }
    case 'B':
        beginSlice(e);
        return;
    case 'E':
        endSlice(e);
        return;
    case 'i':
    case 'I':
    case 'R':
        addInstant(e);
        return;
    case 'C':
        addCounter(e);
        return;
    case 'M':
        addMetadata(e);
        return;
    case 's':
    case 't':
    case 'f':
        addFlow(e);
        return;
    case 0:
        m_model->diagnostics.add(Diag::MissingPh, e.offset, "event without ph: skipped");
        return;
    case 'b':
    case 'e':
    case 'n':
    case 'S':
    case 'T':
    case 'p':
    case 'F':
    case 'N':
    case 'O':
    case 'D':
    case 'P':
        m_model->diagnostics.add(Diag::UnsupportedPhase, e.offset,
            "phase '" + phaseText(e.ph) + "' is not shown: skipped");
        return;
    default:
        m_model->diagnostics.add(
            Diag::UnknownPhase, e.offset, "unknown phase '" + phaseText(e.ph) + "': skipped");
        return;
    }
}

void TraceBuilder::addSlice(const RawEvent &e, TimeNs start, TimeNs dur, uint8_t flags)
{
    const EventKind kind = e.kind;
    if (!e.hasName)
        m_model->diagnostics.add(Diag::MissingName, e.offset, "slice without name");
    LaneColumns &lane = *m_lanes[laneIndex(e, isDeviceKind(kind))];
    lane.start.push_back(start);
    lane.dur.push_back(dur);
    lane.name.push_back(e.name);
    lane.cat.push_back(e.cat);
    lane.kind.push_back(kind);
    lane.flags.push_back(flags);
    lane.externalId.push_back(e.externalId);
    lane.correlation.push_back(e.correlation);
    lane.sequence.push_back(e.sequence);
    lane.fwdThread.push_back(e.fwdThread);
    lane.inputDims.push_back(e.inputDims);
    lane.offset.push_back(e.offset);

    uint32_t extra = ~0u;
    if (isGpuWork(kind)) {
        GpuInfo g;
        g.device = e.device == kNoValue ? -1 : int32_t(e.device);
        g.stream = e.stream == kNoValue ? -1 : int32_t(e.stream);
        std::copy(std::begin(e.grid), std::end(e.grid), g.grid);
        std::copy(std::begin(e.block), std::end(e.block), g.block);
        g.collective = e.collective;
        g.processGroup = e.processGroup;
        extra = uint32_t(m_model->gpuInfo.size());
        m_model->gpuInfo.push_back(g);
    } else if (e.evIdx != kNoValue || e.recordFunctionId != kNoValue || e.inputTypes != 0) {
        extra = uint32_t(m_model->cpuInfo.size());
        m_model->cpuInfo.push_back({e.evIdx, e.recordFunctionId, e.inputTypes});
    }
    lane.extra.push_back(extra);
}

void TraceBuilder::beginSlice(const RawEvent &e)
{
    TimeNs ts;
    if (!readTime(e, ts))
        return;
    addSlice(e, ts, 0, decimalBits(e.ts, {}));
    LaneColumns &lane = *m_lanes[m_lastLane];
    lane.flags.back() |= SliceTable::Unfinished;
    lane.openBegins.push_back(uint32_t(lane.start.size() - 1));
}

void TraceBuilder::endSlice(const RawEvent &e)
{
    TimeNs ts;
    if (!readTime(e, ts))
        return;
    // An E closes the innermost open B of its thread, whatever its name (as Chrome does).
    LaneKey key {keyOf(e.pid), keyOf(e.tid), isDeviceKind(e.kind)};
    auto it = m_laneIndex.find(key);
    if (it == m_laneIndex.end()) {
        key.device = !key.device; // an E without category may close a device-side B
        it = m_laneIndex.find(key);
    }
    LaneColumns *lane = it == m_laneIndex.end() ? nullptr : m_lanes[it->second].get();
    if (!lane || lane->openBegins.empty()) {
        m_model->diagnostics.add(
            Diag::UnmatchedEnd, e.offset, "E event without a matching B: skipped");
        return;
    }
    const uint32_t i = lane->openBegins.back();
    lane->openBegins.pop_back();
    if (ts < lane->start[i]) {
        m_model->diagnostics.add(Diag::NegativeDur, e.offset, "E before its B: duration 0");
        ts = lane->start[i];
    }
    lane->dur[i] = ts - lane->start[i];
    lane->flags[i]
        = uint8_t((lane->flags[i] & ~SliceTable::Unfinished & ~SliceTable::DurDecimalsMask)
            | (std::min<int>(e.ts.decimals, 3) << 3));
    // Args of the E event complete those of the B event, as in Chrome.
    if (lane->externalId[i] == kNoValue)
        lane->externalId[i] = e.externalId;
    if (lane->correlation[i] == kNoValue)
        lane->correlation[i] = e.correlation;
}

void TraceBuilder::addInstant(const RawEvent &e)
{
    TimeNs ts;
    if (!readTime(e, ts))
        return;
    if (e.scope == 'g') {
        m_globalInstants.push_back({ts, e.name, e.offset});
        return;
    }
    const uint32_t laneId = laneIndex(e, false);
    LaneColumns &lane = *m_lanes[laneId];
    lane.instantTime.push_back(ts);
    lane.instantName.push_back(e.name);
    lane.instantOffset.push_back(e.offset);
    if (e.memBytes != kNoValue || e.memTotalAllocated != kNoValue) {
        const std::string_view name = m_model->strings.view(e.name);
        const bool oom = name == "[OutOfMemory]";
        if (!oom && name != "[memory]")
            return;
        // A failed request may be any size: it is shown, never summed.
        if ((!oom && !usableSize(e.memBytes, true)) || !usableSize(e.memTotalAllocated, false)
            || !usableSize(e.memTotalReserved, false)) {
            m_model->diagnostics.add(Diag::InvalidMemorySize, e.offset,
                "Bytes, Total Allocated or Total Reserved is not a usable size: "
                "the event is left out of memory");
            return;
        }
        m_memory.push_back({ts, laneId, e.memDeviceType, e.memDeviceId, e.memAddr, e.memBytes,
            e.memTotalAllocated, e.memTotalReserved, uint8_t(oom), e.offset});
    }
}

void TraceBuilder::buildMemory()
{
    MemoryTable &t = m_model->memory;
    std::stable_sort(m_memory.begin(), m_memory.end(),
        [](const MemoryEvent &a, const MemoryEvent &b) { return a.time < b.time; });
    for (const MemoryEvent &e : m_memory) {
        t.time.push_back(e.time);
        t.lane.push_back(m_lanes[e.lane]->finalId);
        t.deviceType.push_back(e.deviceType);
        t.deviceId.push_back(e.deviceId);
        t.addr.push_back(e.addr);
        t.bytes.push_back(e.bytes);
        t.totalAllocated.push_back(e.totalAllocated);
        t.totalReserved.push_back(e.totalReserved);
        t.outOfMemory.push_back(e.outOfMemory);
        t.offset.push_back(e.offset);
    }
    std::vector<MemoryEvent>().swap(m_memory);
}

void TraceBuilder::addCounter(const RawEvent &e)
{
    TimeNs ts;
    if (!readTime(e, ts))
        return;
    if (e.numericArgs.empty()) {
        m_model->diagnostics.add(Diag::EmptyCounter, e.offset, "C event without numeric args");
        return;
    }
    const int64_t pid = keyOf(e.pid);
    for (const auto &[name, value] : e.numericArgs) { // one series per arg, named by the reader
        const CounterKey key {pid, name};
        auto [it, inserted] = m_counterIndex.try_emplace(key, uint32_t(m_model->counters.size()));
        if (inserted) {
            CounterSeries series;
            series.pid = pid;
            series.name = key.name;
            m_model->counters.push_back(std::move(series));
        }
        CounterSeries &series = m_model->counters[it->second];
        series.time.push_back(ts);
        series.value.push_back(value);
    }
}

void TraceBuilder::addMetadata(const RawEvent &e)
{
    m_metadata.push_back({e.name, keyOf(e.pid), keyOf(e.tid), e.argName, e.hasArgName, e.argLabels,
        e.sortIndex, e.offset});
}

void TraceBuilder::addFlow(const RawEvent &e)
{
    if (!e.id.present) {
        m_model->diagnostics.add(Diag::FlowWithoutId, e.offset, "flow event without id: skipped");
        return;
    }
    TimeNs ts;
    if (!readTime(e, ts))
        return;
    m_flows.add({e.cat, e.name, e.id.numeric ? e.id.num : int64_t(e.id.text), !e.id.numeric, e.ph,
        e.bp == 'e', keyOf(e.pid), keyOf(e.tid), ts, e.offset});
}

void TraceBuilder::closeOpenBegins()
{
    TimeNs last = std::numeric_limits<TimeNs>::min();
    for (const auto &lane : m_lanes) {
        for (size_t i = 0; i < lane->start.size(); ++i)
            last = std::max(last, lane->start[i] + lane->dur[i]);
    }
    for (const auto &lane : m_lanes) {
        for (uint32_t i : lane->openBegins) {
            m_model->diagnostics.add(Diag::UnmatchedBegin, lane->offset[i],
                "B event without a matching E: closed at the end of the trace");
            lane->dur[i] = std::max<TimeNs>(0, last - lane->start[i]);
        }
        lane->openBegins.clear();
    }
}

void TraceBuilder::buildLanes()
{
    std::vector<uint32_t> order(m_lanes.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const LaneKey &x = m_laneKeys[a], &y = m_laneKeys[b];
        return std::tie(x.device, x.pid, x.tid) < std::tie(y.device, y.pid, y.tid);
    });

    TraceModel &m = *m_model;
    SliceTable &t = m.slices;
    size_t total = 0;
    for (const auto &lane : m_lanes)
        total += lane->start.size();
    if (total >= kNoSlice) {
        m.diagnostics.add(Diag::TooManySlices, 0, "more than 4 billion slices: the trace is cut");
    }
    // Exact capacity up front: growing a column lane by lane would briefly hold it twice.
    auto reserve = [total](auto &...columns) { (columns.reserve(total), ...); };
    reserve(t.start, t.dur, t.name, t.category, t.kind, t.flags, t.externalId, t.correlation,
        t.sequence, t.fwdThread, t.inputDims, t.extra, t.offset, t.depth, t.parent, t.subtreeEnd,
        t.lane);

    std::vector<LaneTimes> times;
    times.reserve(m_lanes.size());
    for (const auto &lane : m_lanes)
        times.push_back(lane->start.empty()
                ? LaneTimes {}
                : LaneTimes {&lane->start[0], &lane->dur[0], lane->start.size()});
    std::vector<std::vector<uint32_t>> perms = preorders(times);

    std::vector<SliceId> stack;
    for (uint32_t builderIndex : order) {
        LaneColumns &src = *m_lanes[builderIndex];
        const LaneKey &key = m_laneKeys[builderIndex];
        const auto laneId = LaneId(m.lanes.size());
        src.finalId = laneId;

        Lane lane;
        lane.pid = key.pid;
        lane.tid = key.tid;
        lane.pidText = m.strings.intern(src.pidWritten);
        lane.tidText = m.strings.intern(src.tidWritten);
        lane.device = key.device;

        const std::vector<uint32_t> &perm = perms[builderIndex];
        const auto base = SliceId(t.start.size());
        lane.sliceBegin = base;
        appendPermuted(t.start, src.start, perm);
        appendPermuted(t.dur, src.dur, perm);
        appendPermuted(t.name, src.name, perm);
        appendPermuted(t.category, src.cat, perm);
        appendPermuted(t.kind, src.kind, perm);
        appendPermuted(t.flags, src.flags, perm);
        appendPermuted(t.externalId, src.externalId, perm);
        appendPermuted(t.correlation, src.correlation, perm);
        appendPermuted(t.sequence, src.sequence, perm);
        appendPermuted(t.fwdThread, src.fwdThread, perm);
        appendPermuted(t.inputDims, src.inputDims, perm);
        appendPermuted(t.extra, src.extra, perm);
        appendPermuted(t.offset, src.offset, perm);
        std::vector<uint32_t>().swap(perms[builderIndex]);
        const auto end = SliceId(t.start.size());
        lane.sliceEnd = end;

        nestLane(m, laneId, lane, stack);
        m.lanes.push_back(lane);
    }
}

void TraceBuilder::buildInstants()
{
    TraceModel &m = *m_model;
    InstantTable &table = m.instants;
    std::vector<LaneColumns *> byFinal(m.lanes.size(), nullptr);
    for (const auto &lane : m_lanes)
        byFinal[lane->finalId] = lane.get();
    for (LaneId laneId = 0; laneId < m.lanes.size(); ++laneId) {
        LaneColumns &src = *byFinal[laneId];
        std::vector<uint32_t> perm(src.instantTime.size());
        std::iota(perm.begin(), perm.end(), 0);
        std::stable_sort(perm.begin(), perm.end(),
            [&](uint32_t a, uint32_t b) { return src.instantTime[a] < src.instantTime[b]; });
        m.lanes[laneId].instantBegin = uint32_t(table.size());
        for (uint32_t i : perm) {
            table.time.push_back(src.instantTime[i]);
            table.name.push_back(src.instantName[i]);
            table.lane.push_back(laneId);
            table.offset.push_back(src.instantOffset[i]);
        }
        m.lanes[laneId].instantEnd = uint32_t(table.size());
        std::vector<TimeNs>().swap(src.instantTime);
        std::vector<StringId>().swap(src.instantName);
        std::vector<uint64_t>().swap(src.instantOffset);
    }
    // Global-scope instants ("Iteration Start", "Record Window End") belong to no lane.
    std::stable_sort(m_globalInstants.begin(), m_globalInstants.end(),
        [](const GlobalInstant &a, const GlobalInstant &b) { return a.time < b.time; });
    for (const GlobalInstant &g : m_globalInstants) {
        table.time.push_back(g.time);
        table.name.push_back(g.name);
        table.lane.push_back(kNoLane);
        table.offset.push_back(g.offset);
    }
    m_globalInstants.clear();
}

void TraceBuilder::buildProcesses()
{
    TraceModel &m = *m_model;
    const StringId processName = m.strings.intern("process_name");
    const StringId processLabels = m.strings.intern("process_labels");
    const StringId processSort = m.strings.intern("process_sort_index");
    const StringId threadName = m.strings.intern("thread_name");
    const StringId threadSort = m.strings.intern("thread_sort_index");

    // Looked up by key, not by scanning: a trace may hold 100 000 threads (or processes), each
    // named by a metadata event, and a scan of every lane per name took 20 s there.
    std::map<std::pair<int64_t, bool>, size_t> processOf; // (pid, device) → index
    std::map<std::pair<int64_t, int64_t>, std::array<Lane *, 2>>
        lanesOf; // (pid, tid) → host, device
    for (Lane &lane : m.lanes) {
        if (processOf.try_emplace({lane.pid, lane.device}, m.processes.size()).second) {
            Process p;
            p.pid = lane.pid;
            p.pidText = lane.pidText;
            p.device = lane.device;
            m.processes.push_back(p);
        }
        lanesOf[{lane.pid, lane.tid}][lane.device ? 1 : 0] = &lane;
    }
    auto processIndex = [&](int64_t pid, bool device) -> Process * {
        const auto it = processOf.find({pid, device});
        return it == processOf.end() ? nullptr : &m.processes[it->second];
    };
    for (const MetadataEntry &md : m_metadata) {
        Process *host = processIndex(md.pid, false);
        Process *dev = processIndex(md.pid, true);
        if (md.what == processName && md.hasValue) {
            for (Process *p : {host, dev})
                if (p)
                    p->name = md.value;
        } else if (md.what == processLabels) {
            // "GPU 0" labels the device side of a pid, anything else ("CPU") the host side.
            const bool gpu = m.strings.view(md.labels).starts_with("GPU");
            if (Process *p = gpu ? dev : host)
                p->labels = md.labels;
        } else if (md.what == processSort) {
            for (Process *p : {host, dev})
                if (p)
                    p->sortIndex = md.sortIndex;
        } else if (md.what == threadName || md.what == threadSort) {
            const auto it = lanesOf.find({md.pid, md.tid});
            Lane *hostLane = it == lanesOf.end() ? nullptr : it->second[0];
            Lane *devLane = it == lanesOf.end() ? nullptr : it->second[1];
            if (md.what == threadName && md.hasValue) {
                const bool stream = m.strings.view(md.value).starts_with("stream");
                Lane *target = hostLane && devLane ? (stream ? devLane : hostLane)
                                                   : (hostLane ? hostLane : devLane);
                if (target)
                    target->threadName = md.value;
            } else if (md.what == threadSort) {
                for (Lane *lane : {hostLane, devLane})
                    if (lane)
                        lane->sortIndex = md.sortIndex;
            }
        } else {
            m.diagnostics.add(Diag::UnknownMetadata, md.offset,
                "metadata event '" + std::string(m.strings.view(md.what)) + "' ignored");
        }
    }
    m_metadata.clear();
}

void TraceBuilder::computeTimeRange()
{
    TraceModel &m = *m_model;
    TimeNs lo = std::numeric_limits<TimeNs>::max();
    TimeNs hi = std::numeric_limits<TimeNs>::min();
    for (SliceId s = 0; s < m.slices.size(); ++s) {
        lo = std::min(lo, m.slices.start[s]);
        hi = std::max(hi, m.slices.end(s));
    }
    for (size_t i = 0; i < m.instants.size(); ++i) {
        lo = std::min(lo, m.instants.time[i]);
        hi = std::max(hi, m.instants.time[i]);
    }
    for (const CounterSeries &series : m.counters) { // in time order (buildCounters)
        if (!series.time.empty()) {
            lo = std::min(lo, series.time.front());
            hi = std::max(hi, series.time.back());
        }
    }
    if (lo > hi)
        lo = hi = 0;
    m.minTime = lo;
    m.maxTime = hi;
}

void TraceBuilder::buildCounters()
{
    for (CounterSeries &series : m_model->counters) {
        std::vector<uint32_t> perm(series.time.size());
        std::iota(perm.begin(), perm.end(), 0);
        std::stable_sort(perm.begin(), perm.end(),
            [&](uint32_t a, uint32_t b) { return series.time[a] < series.time[b]; });
        std::vector<TimeNs> time;
        std::vector<double> value;
        for (uint32_t i : perm) {
            time.push_back(series.time[i]);
            value.push_back(series.value[i]);
        }
        series.time = std::move(time);
        series.value = std::move(value);
    }
}

std::unique_ptr<TraceModel> TraceBuilder::finish()
{
    closeOpenBegins();
    // Flow endpoints and counters sort on a second thread while the lanes are built.
    size_t events = m_flows.size();
    for (const auto &lane : m_lanes)
        events += lane->start.size();
    runOnBothCoresRethrowing(
        events,
        [this] {
            m_flows.sort();
            buildCounters();
        },
        [this] { buildLanes(); });
    buildInstants();
    buildMemory();
    buildProcesses();
    m_flows.bind(*m_model, [this](int64_t pid, int64_t tid, bool device) {
        auto it = m_laneIndex.find(LaneKey {pid, tid, device});
        return it == m_laneIndex.end() ? kNoLane : m_lanes[it->second]->finalId;
    });
    computeTimeRange();
    demangleKernelNames(*m_model);
    m_lanes.clear();
    m_laneKeys.clear();
    m_laneIndex.clear();
    auto model = std::move(m_model);
    m_model = std::make_unique<TraceModel>();
    return model;
}

} // namespace ks
