// SPDX-License-Identifier: MIT
#include "tracebuilder.h"

#include "tracebuilderparts.h"

#include <algorithm>
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

} // namespace

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
    , m_columns(std::make_unique<Columns>())
{
}

TraceBuilder::~TraceBuilder() = default;

int64_t TraceBuilder::keyOf(const RawId &id)
{
    if (!id.present)
        return 0;
    if (id.numeric) {
        // A number among the text keys cannot be told from one after a join: such a segment
        // is read again after the earlier ones.
        if (m_continues && id.num >= kTextKeyBase
            && uint64_t(id.num - kTextKeyBase) <= std::numeric_limits<StringId>::max())
            m_ambiguous = true;
        return id.num;
    }
    // Non-numeric ids ("Spans", "stream 7") get keys far from any real pid or tid.
    return kTextKeyBase + int64_t(id.text);
}

uint32_t TraceBuilder::laneIndex(const RawEvent &e, bool device)
{
    const LaneKey key {keyOf(e.pid), keyOf(e.tid), device};
    if (m_lastLane != ~0u && key == m_lastKey)
        return m_lastLane;
    auto [it, inserted] = m_laneIndex.try_emplace(key, uint32_t(m_lanes.size()));
    if (inserted) {
        LaneState &lane = m_lanes.emplace_back();
        lane.key = key;
        lane.writtenAt = m_writtenIds.size();
        lane.pidLength = uint32_t(e.pid.written.size());
        lane.tidLength = uint32_t(e.tid.written.size());
        m_writtenIds += e.pid.written;
        m_writtenIds += e.tid.written;
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
        uint8_t repaired = SliceTable::DurRepaired;
        Diagnostics &diag = m_model->diagnostics;
        if (!e.hasDur) {
            diag.add(Diag::MissingDur, e.offset, "X event without dur: duration 0");
        } else if (!e.durValid || e.dur.ns > kMaxAbsTime) {
            diag.add(Diag::InvalidDur, e.offset, "dur is not a usable number: duration 0");
        } else if (e.dur.ns < 0) {
            diag.add(Diag::NegativeDur, e.offset, "negative dur: duration 0");
        } else {
            dur = e.dur.ns;
            repaired = 0;
        }
        addSlice(e, ts, dur, decimalBits(e.ts, e.dur) | repaired);
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
    Columns &c = *m_columns;
    c.lane.push_back(laneIndex(e, isDeviceKind(kind)));
    c.start.push_back(start);
    c.dur.push_back(dur);
    c.name.push_back(e.name);
    c.cat.push_back(e.cat);
    c.kind.push_back(kind);
    c.flags.push_back(flags);
    c.externalId.push_back(e.externalId);
    c.correlation.push_back(e.correlation);
    c.sequence.push_back(e.sequence);
    c.fwdThread.push_back(e.fwdThread);
    c.inputDims.push_back(e.inputDims);
    c.offset.push_back(e.offset);

    uint32_t extra = ~0u;
    if (hasGpuInfo(kind)) {
        GpuInfo g;
        g.device = e.device == kNoValue ? -1 : int32_t(e.device);
        g.stream = e.stream == kNoValue ? -1 : int32_t(e.stream);
        std::copy(std::begin(e.grid), std::end(e.grid), g.grid);
        std::copy(std::begin(e.block), std::end(e.block), g.block);
        g.collective = e.collective;
        g.processGroup = e.processGroup;
        g.commsId = e.commsId;
        g.seq = e.commsSeq;
        g.graphId = e.graphId;
        g.graphNodeId = e.graphNodeId;
        g.waitOnRecord = e.waitOnRecord;
        g.waitOnStream = e.waitOnStream == kNoValue ? -1 : int32_t(e.waitOnStream);
        g.originalStream = e.originalStream == kNoValue ? -1 : int32_t(e.originalStream);
        g.annotation = e.hasArgName ? e.argName : 0;
        extra = uint32_t(m_model->gpuInfo.size());
        m_model->gpuInfo.push_back(g);
    } else if (e.evIdx != kNoValue || e.recordFunctionId != kNoValue || e.inputTypes != 0
        || e.concreteInputs != 0) {
        extra = uint32_t(m_model->cpuInfo.size());
        m_model->cpuInfo.push_back({e.evIdx, e.recordFunctionId, e.inputTypes, e.concreteInputs});
    }
    c.extra.push_back(extra);
}

void TraceBuilder::beginSlice(const RawEvent &e)
{
    TimeNs ts;
    if (!readTime(e, ts))
        return;
    addSlice(e, ts, 0, decimalBits(e.ts, {}));
    Columns &c = *m_columns;
    c.flags.back() |= SliceTable::Unfinished;
    m_openBegins[m_lastLane].push_back(uint32_t(c.start.size() - 1));
}

void TraceBuilder::endSlice(const RawEvent &e)
{
    TimeNs ts;
    if (!readTime(e, ts))
        return;
    // An E closes the innermost open B of its thread, whatever its name (as Chrome does).
    LaneKey key {keyOf(e.pid), keyOf(e.tid), isDeviceKind(e.kind)};
    if (m_continues && deferEnd(e, ts, key))
        return;
    // An E without category may close a device-side B.
    std::vector<uint32_t> *open = openBeginsOn(key, true);
    if (!open || open->empty()) {
        m_model->diagnostics.add(Diag::UnmatchedEnd, e.offset, kUnmatchedEndMessage);
        return;
    }
    const uint32_t i = open->back();
    open->pop_back();
    closeOn(i, ts, e.ts.decimals, e.externalId, e.correlation, e.offset, m_model->diagnostics);
}

std::vector<uint32_t> *TraceBuilder::openBeginsOn(LaneKey key, bool eitherSide)
{
    auto it = m_laneIndex.find(key);
    if (it == m_laneIndex.end() && eitherSide) {
        key.device = !key.device;
        it = m_laneIndex.find(key);
    }
    if (it == m_laneIndex.end())
        return nullptr;
    const auto open = m_openBegins.find(it->second);
    return open == m_openBegins.end() ? nullptr : &open->second;
}

void TraceBuilder::closeOn(uint32_t i,
    TimeNs ts,
    int decimals,
    int64_t externalId,
    int64_t correlation,
    uint64_t offset,
    Diagnostics &diag)
{
    Columns &c = *m_columns;
    if (ts < c.start[i]) {
        diag.add(Diag::NegativeDur, offset, "E before its B: duration 0");
        ts = c.start[i];
    }
    c.dur[i] = ts - c.start[i];
    c.flags[i] = uint8_t((c.flags[i] & ~SliceTable::Unfinished & ~SliceTable::DurDecimalsMask)
        | (std::min<int>(decimals, 3) << 3));
    // Args of the E event complete those of the B event, as in Chrome.
    if (c.externalId[i] == kNoValue)
        c.externalId[i] = externalId;
    if (c.correlation[i] == kNoValue)
        c.correlation[i] = correlation;
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
    Columns &c = *m_columns;
    c.instantTime.push_back(ts);
    c.instantName.push_back(e.name);
    c.instantOffset.push_back(e.offset);
    c.instantLane.push_back(laneId);
    if (e.memBytes != kNoValue || e.memTotalAllocated != kNoValue) {
        const bool oom = e.memoryName == RawEventFields::MemoryName::OutOfMemory;
        if (!oom && e.memoryName != RawEventFields::MemoryName::Memory)
            return;
        // A failed request may be any size: it is shown, never summed.
        if (!oom && !usableSize(e.memBytes, true)) {
            m_model->diagnostics.add(Diag::InvalidMemorySize, e.offset,
                "Bytes is not a usable size: the event is left out of memory");
            return;
        }
        int64_t allocated = e.memTotalAllocated, reserved = e.memTotalReserved;
        if (!usableSize(allocated, false) || !usableSize(reserved, false)) {
            m_model->diagnostics.add(Diag::InvalidMemorySize, e.offset,
                "Total Allocated or Total Reserved is not a usable size: left out");
            allocated = usableSize(allocated, false) ? allocated : kNoValue;
            reserved = usableSize(reserved, false) ? reserved : kNoValue;
        }
        m_memory.push_back({ts, laneId, e.memDeviceType, e.memDeviceId, e.memAddr, e.memBytes,
            allocated, reserved, uint8_t(oom), e.offset});
    }
}

void TraceBuilder::buildMemory()
{
    MemoryTable &t = m_model->memory;
    std::stable_sort(m_memory.begin(), m_memory.end(),
        [](const MemoryEvent &a, const MemoryEvent &b) { return a.time < b.time; });
    for (const MemoryEvent &e : m_memory) {
        t.time.push_back(e.time);
        t.lane.push_back(m_lanes[e.lane].finalId);
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
    m_flows.add({.cat = e.cat,
        .name = e.name,
        .id = e.id.numeric ? e.id.num : int64_t(e.id.text),
        .pid = keyOf(e.pid),
        .tid = keyOf(e.tid),
        .ts = ts,
        .offset = e.offset,
        .idIsText = !e.id.numeric,
        .ph = e.ph,
        .bindEnclosing = e.bp == 'e'});
}

} // namespace ks
