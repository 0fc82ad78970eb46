// SPDX-License-Identifier: MIT
// Section marks (§4.1, …) refer to docs/linking.md.
#include "simulator.h"

#include <algorithm>
#include <cassert>

namespace ks::gentrace {

namespace {

// Relative time of the first event: kineto's ts is relative to a base floored to a 3-month
// boundary, so real values are days to weeks of microseconds.
constexpr int64_t kTraceStartNs = 1'296'000'123'456'789;
// 2024-04-01T00:00:00Z, a 3-month boundary as ChromeTraceBaseTime produces.
constexpr int64_t kBaseTimeNs = 1'711'929'600'000'000'000;
constexpr int kNumSms = 108;
constexpr int64_t kFirstSequenceNumber = 57;

constexpr std::string_view kCallImplFrame = "torch/nn/modules/module.py(1762): _call_impl";

void appendMember(std::string &out, std::string_view key, int64_t value)
{
    if (!out.empty())
        out += ", ";
    appendQuoted(out, key);
    out += ": ";
    appendInt(out, value);
}

void appendTriple(std::string &out, std::string_view key, const std::array<int, 3> &value)
{
    out += ", ";
    appendQuoted(out, key);
    out += ": [";
    appendInt(out, value[0]);
    out += ", ";
    appendInt(out, value[1]);
    out += ", ";
    appendInt(out, value[2]);
    out += ']';
}

std::string pythonArgs(int64_t parentId, int64_t id)
{
    std::string args = "\"Python parent id\": ";
    if (parentId > 0)
        appendInt(args, parentId);
    else
        args += "null";
    args += ", \"Python id\": ";
    appendInt(args, id);
    return args;
}

//! Members every GPU record starts with (External id is absent when no op was active).
std::string gpuArgsPrefix(int64_t externalId, bool withQueued, int stream, int64_t correlation)
{
    std::string args;
    if (externalId > 0)
        appendMember(args, "External id", externalId);
    if (withQueued)
        appendMember(args, "queued", 0);
    appendMember(args, "device", 0);
    appendMember(args, "context", 1);
    appendMember(args, "stream", stream);
    appendMember(args, "correlation", correlation);
    return args;
}

} // namespace

uint64_t Rng::next()
{
    uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t Rng::range(int64_t lo, int64_t hi)
{
    return lo + int64_t(next() % uint64_t(hi - lo + 1));
}

int64_t Rng::jitter(int64_t base, int percent)
{
    const int64_t spread = base * percent / 100;
    return base - spread + range(0, 2 * spread);
}

void Simulator::Scope::close()
{
    if (!m_sim)
        return;
    for (int i = 0; i < m_depth; ++i)
        m_sim->closeSlice();
    m_sim = nullptr;
}

Simulator::Simulator(EventWriter &writer, uint64_t seed)
    : m_writer(writer)
    , m_rng(seed)
    , m_traceStart(kTraceStartNs)
{
    m_main.tid = kMainTid;
    m_autograd.tid = kAutogradTid;
    // The main thread is mid-process with grad mode on; the engine thread runs nodes with grad
    // mode off and has created no node of its own (its counter is at 0).
    m_main.sequenceNumber = kFirstSequenceNumber;
    m_main.gradMode = true;
    m_main.now = m_autograd.now = m_traceStart + m_rng.range(1'500'000, 2'500'000);
    m_streamFree.fill(m_main.now);
}

std::string_view Simulator::intern(std::string text)
{
    return *m_strings.insert(std::move(text)).first;
}

int64_t &Simulator::streamFree(int stream)
{
    return m_streamFree[stream == kComputeStream ? 0 : 1];
}

// ---------------------------------------------------------------------------------------------
// Host slices

Simulator::OpenSlice &Simulator::openSlice(
    Category category, std::string_view name, std::vector<TraceEvent> &buffer, std::string args)
{
    HostThread &thread = *m_current;
    thread.now += m_rng.range(300, 1500);
    TraceEvent event;
    event.category = category;
    event.name = name;
    event.pid = kHostPid;
    event.tid = thread.tid;
    event.ts = thread.now;
    event.hasEvIdx = true;
    event.args = std::move(args);
    buffer.push_back(std::move(event));

    OpenSlice slice;
    slice.buffer = &buffer;
    slice.index = buffer.size() - 1;
    slice.category = category;
    if (!thread.stack.empty()) {
        const OpenSlice &parent = thread.stack.back();
        slice.fwdOwner = parent.fwdOwner;
        slice.bwdOwner = parent.bwdOwner;
        slice.recomputeOwner = parent.recomputeOwner;
        slice.recomputedOwner = parent.recomputedOwner;
    }
    thread.stack.push_back(slice);
    return thread.stack.back();
}

void Simulator::closeSlice()
{
    HostThread &thread = *m_current;
    assert(!thread.stack.empty());
    thread.now += m_rng.range(200, 1200);
    const OpenSlice slice = thread.stack.back();
    thread.stack.pop_back();
    TraceEvent &event = (*slice.buffer)[slice.index];
    event.dur = thread.now - event.ts;
    if (slice.category == Category::CpuOp)
        --thread.openCpuOps;
}

Simulator::OpenSlice &Simulator::openCpuOp(std::string_view name, std::string args)
{
    OpenSlice &slice = openSlice(Category::CpuOp, name, m_current->events, std::move(args));
    ++m_current->openCpuOps;
    return slice;
}

std::string Simulator::cpuOpArgs(int64_t externalId,
    int64_t sequenceNumber,
    int fwdThreadId,
    const std::string &dims,
    const std::string &types,
    const std::string &concrete)
{
    // Member order and the missing space after External id follow libkineto's output.
    std::string args = "\"External id\": ";
    appendInt(args, externalId);
    args += ',';
    if (sequenceNumber >= 0) {
        args += "\"Sequence number\": ";
        appendInt(args, sequenceNumber);
        args += ", \"Fwd thread id\": ";
        appendInt(args, fwdThreadId);
        args += ", ";
    }
    args += "\"Record function id\": ";
    appendInt(args, ++m_recordFunctionId);
    if (!concrete.empty()) {
        args += ", \"Concrete Inputs\": ";
        args += concrete;
    }
    if (!types.empty()) {
        args += ", \"Input type\": ";
        args += types;
    }
    if (!dims.empty()) {
        args += ", \"Input Dims\": ";
        args += dims;
    }
    return args;
}

int64_t Simulator::innermostExternalId() const
{
    const auto &stack = m_current->stack;
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
        if (it->category == Category::CpuOp)
            return it->externalId;
    }
    return 0;
}

int64_t Simulator::innermostPythonId() const
{
    const auto &stack = m_current->stack;
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
        if (it->category == Category::PythonFunction)
            return it->pythonId;
    }
    return 0;
}

std::string_view Simulator::innermostModule() const
{
    const auto &stack = m_current->stack;
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
        if (!it->moduleName.empty())
            return it->moduleName;
    }
    return {};
}

Simulator::Scope Simulator::op(std::string_view name,
    std::string dims,
    std::string types,
    Seq seq,
    const std::string &concrete)
{
    HostThread &thread = *m_current;
    // §4.1: only ops dispatched through autograd with grad mode on record the thread's current
    // number; the engine thread has grad mode off except while it recomputes a checkpoint.
    const int64_t sequenceNumber
        = seq == Seq::Record && thread.gradMode ? thread.sequenceNumber : -1;
    const bool displayLevel = &thread == &m_main && thread.openCpuOps == 0;
    const bool recomputed = m_recompute.active && thread.openCpuOps == m_recompute.baseOps;
    const std::string_view module = displayLevel ? innermostModule() : std::string_view();
    const int64_t externalId = ++m_externalId;
    OpenSlice &slice
        = openCpuOp(name, cpuOpArgs(externalId, sequenceNumber, 0, dims, types, concrete));
    slice.externalId = externalId;
    slice.sequenceNumber = sequenceNumber;
    if (displayLevel) {
        PairRow row;
        row.name = name;
        row.module = module;
        row.ts = thread.events[slice.index].ts;
        row.step = m_stepNumber;
        m_rows.push_back(std::move(row));
        slice.fwdOwner = int(m_rows.size() - 1);
    }
    if (recomputed) {
        // The region runs the same code again, so the k-th outermost op repeats its k-th row.
        assert(
            m_recompute.nextRow < m_recompute.endRow && m_rows[m_recompute.nextRow].name == name);
        m_rows[m_recompute.nextRow].recomputed = true;
        slice.recomputedOwner = int(m_recompute.nextRow++);
    }
    return Scope(this, 1);
}

void Simulator::leaf(
    std::string_view name, std::string dims, std::string types, Seq seq, int64_t workNs)
{
    Scope scope = op(name, std::move(dims), std::move(types), seq);
    const int64_t workspace = m_recordMemory ? allocate(m_rng.range(1, 64) * 4096) : 0;
    m_current->now += workNs > 0 ? m_rng.jitter(workNs, 20) : m_rng.range(200, 900);
    if (m_recordMemory)
        release(workspace);
}

Simulator::Scope Simulator::annotation(std::string_view name)
{
    std::string args = "\"External id\": ";
    appendInt(args, ++m_externalId);
    args += ", \"Record function id\": ";
    appendInt(args, ++m_recordFunctionId);
    openSlice(Category::UserAnnotation, name, m_current->events, std::move(args));
    return Scope(this, 1);
}

Simulator::Scope Simulator::pythonFrame(std::string_view name)
{
    const int64_t id = ++m_pythonId;
    openSlice(
        Category::PythonFunction, name, m_current->python, pythonArgs(innermostPythonId(), id))
        .pythonId
        = id;
    return Scope(this, 1);
}

Simulator::Scope Simulator::module(
    std::string_view moduleName, int moduleId, std::string_view forwardFrame)
{
    const int64_t moduleId64 = ++m_pythonId;
    std::string args = pythonArgs(innermostPythonId(), moduleId64);
    args += ", \"Python module id\": ";
    appendInt(args, moduleId);
    OpenSlice &moduleSlice
        = openSlice(Category::PythonFunction, moduleName, m_current->python, std::move(args));
    moduleSlice.pythonId = moduleId64;
    moduleSlice.moduleName = moduleName;

    pythonFrame(kCallImplFrame).release();
    pythonFrame(forwardFrame).release();
    return Scope(this, 3);
}

void Simulator::work(int64_t minNs, int64_t maxNs)
{
    m_current->now += m_rng.range(minNs, maxNs);
}

void Simulator::memoryEvent(int64_t bytes, bool onDevice)
{
    HostThread &thread = *m_current;
    const size_t slot = onDevice ? 1 : 0;
    constexpr int64_t kSegment = int64_t(2) << 20;
    m_allocated[slot] = std::max<int64_t>(0, m_allocated[slot] + bytes);
    m_reserved[slot]
        = std::max(m_reserved[slot], (m_allocated[slot] + kSegment - 1) / kSegment * kSegment);
    thread.now += m_rng.range(100, 400);

    TraceEvent event;
    event.phase = Phase::Instant;
    event.category = Category::CpuInstant;
    event.name = "[memory]";
    event.pid = kHostPid;
    event.tid = thread.tid;
    event.ts = thread.now;
    event.hasEvIdx = true;
    // Blocks of one size come back from the caching allocator, so alloc and free share an address.
    const int64_t size = bytes < 0 ? -bytes : bytes;
    const int64_t address = m_memoryAddress != 0
        ? m_memoryAddress
        : (onDevice ? 139'872'646'643'712 : 94'363'217'920'000) + (size + 511) / 512 * 4096;
    appendMember(event.args, "Total Reserved", m_reserved[slot]);
    appendMember(event.args, "Total Allocated", m_allocated[slot]);
    appendMember(event.args, "Bytes", bytes);
    appendMember(event.args, "Device Id", onDevice ? 0 : -1);
    appendMember(event.args, "Device Type", onDevice ? 1 : 0);
    appendMember(event.args, "Addr", address);
    thread.events.push_back(std::move(event));
}

void Simulator::deviceMemoryEvent(int64_t bytes, int64_t address)
{
    m_memoryAddress = address;
    memoryEvent(bytes, true);
    m_memoryAddress = 0;
}

int64_t Simulator::allocate(int64_t bytes)
{
    const int64_t address = m_nextAddress;
    m_nextAddress += (bytes + 511) / 512 * 512;
    deviceMemoryEvent(bytes, address);
    LiveAllocation live {bytes, -1};
    if (!m_current->stack.empty()) {
        const OpenSlice &around = m_current->stack.back();
        if (around.fwdOwner >= 0) {
            m_rows[size_t(around.fwdOwner)].fwdAllocBytes += bytes;
            live.fwdOwner = around.fwdOwner;
            m_liveForward.resize(m_rows.size());
            m_liveForward[size_t(around.fwdOwner)] += bytes;
        } else if (around.bwdOwner >= 0) {
            m_rows[size_t(around.bwdOwner)].bwdAllocBytes += bytes;
        }
    }
    m_live[address] = live;
    return address;
}

void Simulator::release(int64_t address)
{
    const auto it = m_live.find(address);
    assert(it != m_live.end());
    deviceMemoryEvent(-it->second.bytes, address);
    if (it->second.fwdOwner >= 0)
        m_liveForward[size_t(it->second.fwdOwner)] -= it->second.bytes;
    m_live.erase(it);
}

// ---------------------------------------------------------------------------------------------
// CUDA

Simulator::Launch Simulator::runtimeCall(
    std::string_view name, int cbid, int64_t durationNs, RuntimeFlow flow)
{
    HostThread &thread = *m_current;
    Launch launch;
    launch.externalId = innermostExternalId();
    // CUPTI also counts runtime calls the profiler blocklists, so correlations have gaps;
    // never let one equal the External id (that would look like the 2022-2024 kineto bug).
    m_correlation += m_rng.range(1, 4);
    if (m_correlation == launch.externalId)
        ++m_correlation;
    launch.correlation = m_correlation;
    if (!thread.stack.empty()) {
        const OpenSlice &caller = thread.stack.back();
        launch.fwdOwner = caller.fwdOwner;
        launch.bwdOwner = caller.bwdOwner;
        launch.recomputeOwner = caller.recomputeOwner;
        launch.recomputedOwner = caller.recomputedOwner;
    }
    thread.now += m_rng.range(400, 1500);
    launch.ts = thread.now;

    TraceEvent event;
    event.category = Category::CudaRuntime;
    event.name = name;
    event.pid = kHostPid;
    event.tid = thread.tid;
    event.ts = thread.now;
    event.dur = durationNs;
    if (launch.externalId > 0)
        appendMember(event.args, "External id", launch.externalId);
    appendMember(event.args, "cbid", cbid);
    appendMember(event.args, "correlation", launch.correlation);
    m_device.push_back(std::move(event));

    // Launches get an ac2g start; since 2022 other calls carry a lone end, a few a lone start.
    TraceEvent link;
    link.phase = flow == RuntimeFlow::LoneEnd ? Phase::FlowEnd : Phase::FlowStart;
    link.category = Category::Ac2g;
    link.pid = kHostPid;
    link.tid = thread.tid;
    link.ts = thread.now;
    link.flowId = launch.correlation;
    m_device.push_back(std::move(link));

    thread.now += durationNs;
    return launch;
}

void Simulator::gpuEvent(Category category,
    std::string_view name,
    const Launch &launch,
    int stream,
    int64_t durationNs,
    const std::string &specificArgs)
{
    // Work queues behind whatever the stream still runs and never starts before its launch.
    int64_t &free = streamFree(stream);
    const int64_t start
        = std::max(launch.ts + m_rng.range(4000, 9000), free + m_rng.range(1000, 2500));
    free = start + durationNs;

    TraceEvent event;
    event.category = category;
    event.name = name;
    event.pid = kGpuPid;
    event.tid = stream;
    event.ts = start;
    event.dur = durationNs;
    event.args = specificArgs;
    m_device.push_back(std::move(event));
    if (m_kineto2026 && category == Category::Kernel) // one PM sample a kernel, at its start
        counterSample(start, std::min<int64_t>(100, 20 + durationNs / 2000));

    TraceEvent link;
    link.phase = Phase::FlowEnd;
    link.category = Category::Ac2g;
    link.pid = kGpuPid;
    link.tid = stream;
    link.ts = start;
    link.flowId = launch.correlation;
    m_device.push_back(std::move(link));
    ++m_flowPairs;

    if (launch.fwdOwner >= 0) {
        ++m_rows[launch.fwdOwner].fwdGpuEvents;
        m_rows[launch.fwdOwner].fwdGpuNs += durationNs;
    }
    if (launch.bwdOwner >= 0) {
        ++m_rows[launch.bwdOwner].bwdGpuEvents;
        m_rows[launch.bwdOwner].bwdGpuNs += durationNs;
    }
    if (launch.recomputeOwner >= 0) {
        ++m_rows[launch.recomputeOwner].recomputeGpuEvents;
        m_rows[launch.recomputeOwner].recomputeGpuNs += durationNs;
        m_recomputeGpuNs += durationNs;
    }
    if (launch.recomputedOwner >= 0)
        m_rows[launch.recomputedOwner].recomputedGpuNs += durationNs;
}

void Simulator::launchKernel(const KernelSpec &kernel, int stream, int64_t durationNs)
{
    const Launch launch
        = runtimeCall("cudaLaunchKernel", 211, m_rng.range(2800, 6500), RuntimeFlow::Launch);
    const int64_t duration = m_rng.jitter(durationNs > 0 ? durationNs : kernel.durationNs, 8);

    std::string args = gpuArgsPrefix(launch.externalId, true, stream, launch.correlation);
    appendMember(args, "registers per thread", kernel.registersPerThread);
    appendMember(args, "shared memory", kernel.sharedMemory);
    const double blocks = double(kernel.grid[0]) * kernel.grid[1] * kernel.grid[2];
    const double threads = double(kernel.block[0]) * kernel.block[1] * kernel.block[2];
    args += ", \"blocks per SM\": ";
    appendFixed(args, blocks / kNumSms, 6);
    args += ", \"warps per SM\": ";
    appendFixed(args, blocks / kNumSms * threads / 32, 6);
    appendTriple(args, "grid", kernel.grid);
    appendTriple(args, "block", kernel.block);
    appendMember(args, "est. achieved occupancy %", kernel.occupancy);
    gpuEvent(Category::Kernel, kernel.name, launch, stream, duration, args);
}

void Simulator::memcpy(std::string_view name, int64_t bytes, int64_t bytesPerUs, int stream)
{
    const int64_t copyNs = 1200 + bytes * 1000 / bytesPerUs;
    // Pageable copies stage through a pinned buffer, so the call lasts about as long as the copy.
    const Launch launch
        = runtimeCall("cudaMemcpyAsync", 41, m_rng.range(4000, 8000) + copyNs, RuntimeFlow::Launch);
    const int64_t duration = m_rng.jitter(copyNs, 5);
    std::string args = gpuArgsPrefix(launch.externalId, false, stream, launch.correlation);
    appendMember(args, "bytes", bytes);
    args += ", \"memory bandwidth (GB/s)\": ";
    appendFixed(args, double(bytes) / double(duration), 6);
    gpuEvent(Category::GpuMemcpy, name, launch, stream, duration, args);
}

void Simulator::memcpyHostToDevice(int64_t bytes, int stream)
{
    memcpy("Memcpy HtoD (Pageable -> Device)", bytes, 9'000, stream);
}

void Simulator::memcpyDeviceToHost(int64_t bytes, int stream)
{
    memcpy("Memcpy DtoH (Device -> Pageable)", bytes, 8'000, stream);
}

void Simulator::memsetAsync(int64_t bytes, int stream)
{
    const Launch launch
        = runtimeCall("cudaMemsetAsync", 51, m_rng.range(2500, 5000), RuntimeFlow::Launch);
    const int64_t duration = m_rng.jitter(1400 + bytes / 1'200, 5);
    std::string args = gpuArgsPrefix(launch.externalId, false, stream, launch.correlation);
    appendMember(args, "bytes", bytes);
    args += ", \"memory bandwidth (GB/s)\": ";
    appendFixed(args, double(bytes) / double(duration), 6);
    gpuEvent(Category::GpuMemset, "Memset (Device)", launch, stream, duration, args);
}

void Simulator::streamSynchronize(int stream)
{
    // Blocks the host until the stream drains; estimate the call start to size the wait.
    const int64_t expectedStart = m_current->now + 1000;
    const int64_t wait = std::max<int64_t>(0, streamFree(stream) - expectedStart);
    const Launch call = runtimeCall(
        "cudaStreamSynchronize", 131, wait + m_rng.range(1500, 3500), RuntimeFlow::LoneEnd);
    if (!m_kineto2026)
        return;
    // Kineto moves Stream Sync to its own row under the stream (kSyncStreamTidOffset).
    m_syncRows.insert(stream);
    std::string args;
    appendMember(args, "stream", int64_t(stream));
    syncEvent("Stream Sync", call, stream + 1'000'000,
        std::max<int64_t>(1000, streamFree(stream) - call.ts), args);
}

void Simulator::syncEvent(std::string_view kind,
    const Launch &launch,
    int tid,
    int64_t durationNs,
    const std::string &args)
{
    // CudaSyncActivity::visitTypedMetadata's fields, in its order (CuptiActivity.h).
    std::string all = "\"cuda_sync_kind\": ";
    appendQuoted(all, kind);
    all += ", " + args;
    appendMember(all, "correlation", launch.correlation);
    appendMember(all, "device", int64_t(0));
    appendMember(all, "context", int64_t(1));
    TraceEvent event;
    event.category = Category::CudaSync;
    event.name = kind;
    event.pid = kGpuPid;
    event.tid = tid;
    event.ts = launch.ts;
    event.dur = durationNs;
    event.args = std::move(all);
    m_device.push_back(std::move(event));
}

void Simulator::counterSample(int64_t ts, int64_t value)
{
    TraceEvent sample;
    sample.phase = Phase::Counter;
    sample.category = Category::HardwareCounters;
    sample.name = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
    sample.pid = 0; // GPU 0
    sample.ts = ts;
    sample.args = "\"\": " + std::to_string(value);
    m_device.push_back(std::move(sample));
}

void Simulator::graphReplay(int graphId, const std::vector<KernelSpec> &kernels)
{
    const Launch launch
        = runtimeCall("cudaGraphLaunch", 311, m_rng.range(6000, 12000), RuntimeFlow::Launch);
    int64_t node = 0;
    for (const KernelSpec &kernel : kernels) {
        // The graph's streams hold nothing else, as a replay's do: a viewer may compact them.
        const int stream = kGraphStreams[node % 2];
        std::string args = gpuArgsPrefix(launch.externalId, true, stream, launch.correlation);
        appendMember(args, "graph id", int64_t(graphId));
        appendMember(args, "graph node id", ++node);
        appendTriple(args, "grid", kernel.grid);
        appendTriple(args, "block", kernel.block);
        gpuEvent(Category::Kernel, kernel.name, launch, stream, m_rng.jitter(kernel.durationNs, 8),
            args);
    }
    // Every kernel ends the launch's one ac2g flow: one flow with both ends, not one a kernel.
    m_flowPairs -= int64_t(kernels.size()) - 1;
}

void Simulator::deviceSynchronize()
{
    const int64_t expectedStart = m_current->now + 1000;
    const int64_t busyUntil = std::max(m_streamFree[0], m_streamFree[1]);
    const int64_t wait = std::max<int64_t>(0, busyUntil - expectedStart);
    runtimeCall(
        "cudaDeviceSynchronize", 165, wait + m_rng.range(2000, 4000), RuntimeFlow::LoneStart);
}

void Simulator::streamWaitStream(int waiter, int producer)
{
    const Launch record
        = runtimeCall("cudaEventRecord", 135, m_rng.range(1500, 3000), RuntimeFlow::LoneEnd);
    const Launch wait
        = runtimeCall("cudaStreamWaitEvent", 147, m_rng.range(1500, 3500), RuntimeFlow::LoneStart);
    if (m_kineto2026) {
        std::string args;
        appendMember(args, "wait_on_stream", int64_t(producer));
        appendMember(args, "wait_on_cuda_event_record_corr_id", record.correlation);
        appendMember(args, "wait_on_cuda_event_id", int64_t(1));
        appendMember(args, "stream", int64_t(waiter));
        syncEvent("Stream Wait Event", wait, waiter, 1000, args);
    }
    streamFree(waiter) = std::max(streamFree(waiter), streamFree(producer));
}

// ---------------------------------------------------------------------------------------------
// Steps and output

void Simulator::beginStep(int number)
{
    assert(m_main.stack.empty());
    m_stepNumber = number;
    m_main.now += m_rng.range(20'000, 60'000);
    m_stepName = "ProfilerStep#" + std::to_string(number);
    Scope step = annotation(m_stepName);
    step.release();
}

void Simulator::endStep()
{
    closeSlice();
    assert(
        m_main.stack.empty() && m_autograd.stack.empty() && m_nodes.empty() && m_regions.empty());
    flushStep();
    m_finishedRows.clear();
    // What is still allocated belongs to rows that are done: no later free changes them.
    for (auto &[address, live] : m_live)
        live.fwdOwner = -1;
    m_liveForward.clear();
    for (PairRow &row : m_rows) {
        if (!row.bwdNames.empty())
            m_finishedRows.push_back(std::move(row));
    }
    m_rows.clear();
    ++m_steps;
}

void Simulator::flushStep()
{
    // Kineto writes host ops thread by thread, Python tracer frames after them, then the
    // CUPTI records (runtime calls interleaved with the GPU work they launched).
    for (std::vector<TraceEvent> *buffer :
        {&m_main.events, &m_main.python, &m_autograd.events, &m_autograd.python, &m_device}) {
        for (const TraceEvent &event : *buffer)
            m_writer.write(event);
        buffer->clear();
    }
}

void Simulator::writeHeader()
{
    m_writer.writeText(
        "{\n"
        "  \"schemaVersion\": 1,\n"
        "  \"deviceProperties\": [\n"
        "    {\n"
        "      \"id\": 0, \"name\": \"NVIDIA A100-SXM4-40GB\", \"totalGlobalMem\": 42505273344,\n"
        "      \"computeMajor\": 8, \"computeMinor\": 0,\n"
        "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
        "      \"regsPerBlock\": 65536, \"warpSize\": 32,\n"
        "      \"sharedMemPerBlock\": 49152, \"numSms\": 108\n"
        "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 166912, "
        "\"sharedMemPerMultiprocessor\": 167936\n"
        "    }\n"
        "  ],\n"
        "  \"record_shapes\": 1,\n"
        "  \"with_stack\": 1,\n"
        "  \"profile_memory\": 1,\n"
        "  \"cupti_version\": 22,\n"
        "  \"cuda_runtime_version\": 12040,\n"
        "  \"cuda_driver_version\": 12040,\n"
        "  \"trace_id\": \"5C0F4A4E9B8D4E3FA1D2C3B4A5968778\",\n"
        "  \"traceEvents\": [");
}

void Simulator::writeMetadata(std::string_view name, int pid, int tid, std::string_view args)
{
    std::string body = "    \"name\": ";
    appendQuoted(body, name);
    body += ", \"ph\": \"M\", \"ts\": ";
    appendMicros(body, m_traceStart);
    body += ", \"pid\": ";
    appendInt(body, pid);
    body += ", \"tid\": ";
    appendInt(body, tid);
    body += ",\n    \"args\": {\n      ";
    body += args;
    body += "\n    }";
    m_writer.writeRaw(body);
}

void Simulator::writeTrailer()
{
    writeMetadata("process_name", kHostPid, 0, "\"name\": \"python3\"");
    writeMetadata("process_labels", kHostPid, 0, "\"labels\": \"CPU\"");
    writeMetadata("process_sort_index", kHostPid, 0, "\"sort_index\": 4100");
    writeMetadata("process_name", kGpuPid, 0, "\"name\": \"python3\"");
    writeMetadata("process_labels", kGpuPid, 0,
        m_writer.device() == Device::Mtia ? "\"labels\": \"MTIA 0\"" : "\"labels\": \"GPU 0\"");
    writeMetadata("process_sort_index", kGpuPid, 0, "\"sort_index\": 16777216");
    for (int stream : {kComputeStream, kSideStream}) {
        writeMetadata(
            "thread_name", kGpuPid, stream, "\"name\": \"stream " + std::to_string(stream) + " \"");
        writeMetadata(
            "thread_sort_index", kGpuPid, stream, "\"sort_index\": " + std::to_string(stream));
        if (m_syncRows.contains(stream)) {
            writeMetadata("thread_name", kGpuPid, stream + 1'000'000,
                "\"name\": \"stream " + std::to_string(stream) + " (sync)\"");
            writeMetadata("thread_sort_index", kGpuPid, stream + 1'000'000,
                "\"sort_index\": " + std::to_string(stream));
        }
    }
    if (m_kineto2026) {
        // CUPTI's own overhead on pid -1 (handleOverheadInfo, OverheadActivity).
        writeMetadata("process_name", -1, 0, "\"name\": \"CUPTI Overhead\"");
        writeMetadata("process_sort_index", -1, 0, "\"sort_index\": 16777226"); // 0x100000A
        std::string overhead = "    \"ph\": \"X\", \"cat\": \"overhead\", \"name\": \"Buffer "
                               "Flush\", \"pid\": -1, \"tid\": 0,\n    \"ts\": ";
        appendMicros(overhead, m_main.now + 200'000);
        overhead += ", \"dur\": 85.000";
        m_writer.writeRaw(overhead);
    }
    for (const auto &[tid, label] :
        {std::pair {kMainTid, "python3"}, {kAutogradTid, "pt_autograd_0"}}) {
        writeMetadata("thread_name", kHostPid, tid,
            "\"name\": \"thread " + std::to_string(tid) + " (" + label + ")\"");
        writeMetadata("thread_sort_index", kHostPid, tid, "\"sort_index\": " + std::to_string(tid));
    }

    const int64_t end
        = std::max({m_main.now, m_autograd.now, m_streamFree[0], m_streamFree[1]}) + 1'000'000;
    std::string span = "    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ";
    appendMicros(span, m_traceStart);
    span += ", \"dur\": ";
    appendMicros(span, end - m_traceStart);
    span
        += ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
           "    \"name\": \"PyTorch Profiler (0)\",\n    \"args\": {\n      \"Op count\": 0\n    }";
    m_writer.writeRaw(span);

    std::string spansSort = "    \"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ";
    appendMicros(spansSort, m_traceStart);
    spansSort += ",\n    \"pid\": \"Spans\", \"tid\": 0,\n    \"args\": {\n      \"sort_index\": "
                 "536870912\n    }";
    m_writer.writeRaw(spansSort);

    std::string iteration = "    \"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", "
                            "\"s\": \"g\",\n    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch "
                            "Profiler\", \"ts\": ";
    appendMicros(iteration, m_traceStart);
    m_writer.writeRaw(iteration);

    std::string windowEnd = "    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
                            "    \"pid\": \"\", \"tid\": \"\", \"ts\": ";
    appendMicros(windowEnd, end + 2'345'678);
    m_writer.writeRaw(windowEnd);

    std::string tail
        = "\n  ],\n  \"traceName\": \"/tmp/kinetoscope_gentrace/worker0.pt.trace.json\",\n"
          "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ";
    appendInt(tail, kBaseTimeNs);
    tail += "\n}\n";
    m_writer.writeText(tail);
}

} // namespace ks::gentrace
