// SPDX-License-Identifier: MIT
#include "truthfile.h"

#include "jsontext.h"
#include "simulator.h"

#include <string_view>

namespace ks::gentrace {

namespace {

//! A GPU time as an integer number of ns and as the µs text of the pair table.
void appendGpuTime(std::string &out, std::string_view key, int64_t ns)
{
    out += ", \"";
    out += key;
    out += "_ns\": ";
    appendInt(out, ns);
    out += ", \"";
    out += key;
    out += "_us\": \"";
    appendMicros(out, ns);
    out += '"';
}

} // namespace

bool TruthFile::open(const std::string &path, bool withRecompute, bool withMemory)
{
    m_withRecompute = withRecompute;
    m_withMemory = withMemory;
    if (!m_sink.open(path))
        return false;
    m_sink.write("{\n  \"pairs\": [");
    return true;
}

void TruthFile::addRows(const std::vector<PairRow> &rows)
{
    for (const PairRow &row : rows) {
        m_text = m_firstRow ? "\n    " : ",\n    ";
        m_firstRow = false;
        m_text += "{\"fwd_name\": ";
        appendQuoted(m_text, row.name);
        m_text += ", \"fwd_ts\": \"";
        appendMicros(m_text, row.ts);
        m_text += "\", \"bwd_names\": [";
        for (size_t i = 0; i < row.bwdNames.size(); ++i) {
            if (i)
                m_text += ", ";
            appendQuoted(m_text, row.bwdNames[i]);
        }
        m_text += "], \"sequence_numbers\": [";
        for (size_t i = 0; i < row.sequenceNumbers.size(); ++i) {
            if (i)
                m_text += ", ";
            appendInt(m_text, row.sequenceNumbers[i]);
        }
        m_text += "], \"fwd_gpu_events\": ";
        appendInt(m_text, row.fwdGpuEvents);
        m_text += ", \"fwd_gpu_us\": \"";
        appendMicros(m_text, row.fwdGpuNs);
        m_text += "\", \"bwd_gpu_events\": ";
        appendInt(m_text, row.bwdGpuEvents);
        m_text += ", \"bwd_gpu_us\": \"";
        appendMicros(m_text, row.bwdGpuNs);
        m_text += '"';
        if (m_withRecompute) {
            m_text += ", \"recompute_gpu_events\": ";
            appendInt(m_text, row.recomputeGpuEvents);
            appendGpuTime(m_text, "recompute_gpu", row.recomputeGpuNs);
            appendGpuTime(m_text, "recomputed_gpu", row.recomputedGpuNs);
            m_text += row.recomputed ? ", \"recomputed\": true" : ", \"recomputed\": false";
        }
        if (m_withMemory) {
            m_text += ", \"fwd_alloc_bytes\": ";
            appendInt(m_text, row.fwdAllocBytes);
            m_text += ", \"held_bytes\": ";
            appendInt(m_text, row.heldBytes);
            m_text += ", \"bwd_alloc_bytes\": ";
            appendInt(m_text, row.bwdAllocBytes);
        }
        m_text += ", \"step\": ";
        appendInt(m_text, row.step);
        m_text += ", \"module\": ";
        if (row.module.empty())
            m_text += "null";
        else
            appendQuoted(m_text, row.module);
        m_text += '}';
        m_sink.write(m_text);
    }
}

bool TruthFile::finish(const TruthCounts &counts)
{
    m_text = "\n  ],\n  \"events\": ";
    appendInt(m_text, counts.events);
    m_text += ",\n  \"cpu_ops\": ";
    appendInt(m_text, counts.cpuOps);
    m_text += ",\n  \"gpu_events\": ";
    appendInt(m_text, counts.gpuEvents);
    if (m_withRecompute) {
        m_text += ",\n  \"recompute_gpu_ns\": ";
        appendInt(m_text, counts.recomputeGpuNs);
        m_text += ",\n  \"recompute_gpu_us\": \"";
        appendMicros(m_text, counts.recomputeGpuNs);
        m_text += '"';
    }
    m_text += ",\n  \"flows\": ";
    appendInt(m_text, counts.flows);
    m_text += ",\n  \"steps\": ";
    appendInt(m_text, counts.steps);
    m_text += "\n}\n";
    m_sink.write(m_text);
    return m_sink.close();
}

} // namespace ks::gentrace
