// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ks::gentrace {

class OutputSink;

enum class Phase : uint8_t { Complete, FlowStart, FlowEnd, Instant, Counter };

enum class Category : uint8_t {
    CpuOp,
    UserAnnotation,
    PythonFunction,
    CudaRuntime,
    Kernel,
    GpuMemcpy,
    GpuMemset,
    CpuInstant,
    FwdBwd,
    Ac2g,
    CudaSync, //!< Stream Sync, Stream Wait Event (Kineto's cuda_sync)
    HardwareCounters, //!< CUPTI PM sampling, written under the pid "GPU 0 Counters"
};

//! The accelerator the trace's device events come from.
enum class Device : uint8_t { Cuda, Mtia };

//! The category as Kineto names it for \a device (pytorch/kineto 114171df, ActivityType.h).
std::string_view categoryName(Category category, Device device = Device::Cuda);

/*!
 * One buffered trace event. Names point to storage that outlives the step (literals or
 * interned strings); args is the rendered body of the "args" object without braces.
 */
struct TraceEvent {
    Phase phase = Phase::Complete;
    Category category = Category::CpuOp;
    std::string_view name;
    int pid = 0;
    int tid = 0;
    int64_t ts = 0; //!< ns, relative to baseTimeNanoseconds
    int64_t dur = 0; //!< ns
    int64_t flowId = 0; //!< flows only; 0 means "never linked", the event is dropped
    bool hasEvIdx = false; //!< host events get "Ev Idx" appended, numbered in file order
    std::string args;
};

/*!
 * Formats events the way libkineto's output_json.cpp lays them out (one member group per
 * line, three-decimal microseconds) and counts what it wrote for the truth file.
 */
class EventWriter {
public:
    explicit EventWriter(OutputSink &sink);

    //! MTIA: runtime calls are mtia_runtime, device work mtia_ccp_events.
    void setDevice(Device device) { m_device = device; }
    Device device() const { return m_device; }

    void write(const TraceEvent &event);
    //! Writes one event object given its inner text (metadata, spans, global instants).
    void writeRaw(std::string_view body);
    //! Writes text between events (document header and trailer).
    void writeText(std::string_view text);

    int64_t events() const { return m_events; }
    int64_t cpuOps() const { return m_cpuOps; }
    int64_t gpuEvents() const { return m_gpuEvents; }
    int64_t bytesWritten() const;

private:
    void beginEvent();

    OutputSink &m_sink;
    std::string m_text;
    int64_t m_events = 0;
    int64_t m_cpuOps = 0;
    int64_t m_gpuEvents = 0;
    int64_t m_evIdx = 0;
    Device m_device = Device::Cuda;
};

} // namespace ks::gentrace
