// SPDX-License-Identifier: MIT
#include "eventwriter.h"

#include "jsontext.h"
#include "outputsink.h"

namespace ks::gentrace {

std::string_view categoryName(Category category, Device device)
{
    const bool mtia = device == Device::Mtia;
    switch (category) {
    case Category::CpuOp:
        return "cpu_op";
    case Category::UserAnnotation:
        return "user_annotation";
    case Category::PythonFunction:
        return "python_function";
    case Category::CudaRuntime:
        return mtia ? "mtia_runtime" : "cuda_runtime";
    case Category::Kernel:
        return mtia ? "mtia_ccp_events" : "kernel";
    case Category::GpuMemcpy:
        return mtia ? "mtia_ccp_events" : "gpu_memcpy";
    case Category::GpuMemset:
        return mtia ? "mtia_ccp_events" : "gpu_memset";
    case Category::CpuInstant:
        return "cpu_instant_event";
    case Category::FwdBwd:
        return "fwdbwd";
    case Category::Ac2g:
        return "ac2g";
    case Category::CudaSync:
        return "cuda_sync";
    case Category::HardwareCounters:
        return "hardware_counters";
    }
    return "";
}

EventWriter::EventWriter(OutputSink &sink)
    : m_sink(sink)
{
    m_text.reserve(4096);
}

int64_t EventWriter::bytesWritten() const
{
    return int64_t(m_sink.bytesWritten());
}

void EventWriter::beginEvent()
{
    m_text.clear();
    m_text += m_events == 0 ? "\n  {\n" : ",\n  {\n";
    ++m_events;
}

void EventWriter::writeText(std::string_view text)
{
    m_sink.write(text);
}

void EventWriter::writeRaw(std::string_view body)
{
    beginEvent();
    m_text += body;
    m_text += "\n  }";
    m_sink.write(m_text);
}

void EventWriter::write(const TraceEvent &event)
{
    if ((event.phase == Phase::FlowStart || event.phase == Phase::FlowEnd) && event.flowId == 0)
        return;
    beginEvent();
    const std::string_view category = categoryName(event.category, m_device);
    switch (event.phase) {
    case Phase::Complete:
        m_text += "    \"ph\": \"X\", \"cat\": ";
        appendQuoted(m_text, category);
        m_text += ", \"name\": ";
        appendQuoted(m_text, event.name);
        m_text += ", \"pid\": ";
        appendInt(m_text, event.pid);
        m_text += ", \"tid\": ";
        appendInt(m_text, event.tid);
        m_text += ",\n    \"ts\": ";
        appendMicros(m_text, event.ts);
        m_text += ", \"dur\": ";
        appendMicros(m_text, event.dur);
        if (event.category == Category::CpuOp)
            ++m_cpuOps;
        else if (event.category == Category::Kernel || event.category == Category::GpuMemcpy
            || event.category == Category::GpuMemset)
            ++m_gpuEvents;
        break;
    case Phase::FlowStart:
    case Phase::FlowEnd:
        m_text += event.phase == Phase::FlowStart ? "    \"ph\": \"s\", \"id\": "
                                                  : "    \"ph\": \"f\", \"id\": ";
        appendInt(m_text, event.flowId);
        m_text += ", \"pid\": ";
        appendInt(m_text, event.pid);
        m_text += ", \"tid\": ";
        appendInt(m_text, event.tid);
        m_text += ", \"ts\": ";
        appendMicros(m_text, event.ts);
        m_text += ",\n    \"cat\": ";
        appendQuoted(m_text, category);
        m_text += ", \"name\": ";
        appendQuoted(m_text, category);
        if (event.phase == Phase::FlowEnd)
            m_text += ", \"bp\": \"e\"";
        m_text += "\n  }";
        m_sink.write(m_text);
        return;
    case Phase::Instant:
        m_text += "    \"ph\": \"i\", \"cat\": ";
        appendQuoted(m_text, category);
        m_text += ", \"s\": \"t\", \"name\": ";
        appendQuoted(m_text, event.name);
        m_text += ",\n    \"pid\": ";
        appendInt(m_text, event.pid);
        m_text += ", \"tid\": ";
        appendInt(m_text, event.tid);
        m_text += ",\n    \"ts\": ";
        appendMicros(m_text, event.ts);
        break;
    case Phase::Counter:
        // As handleCounterEvent writes hardware counters: a string pid, the value under "".
        m_text += "    \"ph\": \"C\", \"cat\": ";
        appendQuoted(m_text, category);
        m_text += ", \"name\": ";
        appendQuoted(m_text, event.name);
        m_text += ",\n    \"pid\": \"GPU ";
        appendInt(m_text, event.pid);
        m_text += " Counters\", \"tid\": ";
        appendInt(m_text, event.tid);
        m_text += ", \"ts\": ";
        appendMicros(m_text, event.ts);
        break;
    }
    if (!event.args.empty() || event.hasEvIdx) {
        m_text += ",\n    \"args\": {\n      ";
        m_text += event.args;
        if (event.hasEvIdx) {
            if (!event.args.empty())
                m_text += ", ";
            m_text += "\"Ev Idx\": ";
            appendInt(m_text, m_evIdx++);
        }
        m_text += "\n    }";
    }
    m_text += "\n  }";
    m_sink.write(m_text);
}

} // namespace ks::gentrace
