// SPDX-License-Identifier: MIT
#include "session/ranktables.h"

#include "analysis/time/kernelsummary.h"
#include "analysis/time/stepbreakdown.h"
#include "export/allocationtable.h"
#include "export/celltable.h"
#include "export/efficiencytable.h"
#include "export/kernelsummarytable.h"
#include "export/livetable.h"
#include "export/moduletable.h"
#include "export/runtables.h"
#include "export/steptable.h"
#include "export/summary.h"

#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <filesystem>
#include <sys/stat.h>

namespace ks {

namespace {

/*!
 * A JSON object's top-level members as written: each value's JSON text, numbers with every digit
 * (read as doubles, µs since the epoch came back ~0.2 µs off), and a scalar's text (a number as
 * written, a string unquoted, a bool 1 or 0; empty for null, objects and arrays).
 */
class MemberSplitter : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, MemberSplitter> {
public:
    struct Member {
        std::string name, json, scalar;
    };
    std::vector<Member> members;

    bool Null() { return done(m_writer.Null(), {}); }
    bool Bool(bool b) { return done(m_writer.Bool(b), b ? "1" : "0"); }
    bool RawNumber(const char *s, rapidjson::SizeType n, bool)
    {
        return done(m_writer.RawValue(s, n, rapidjson::kNumberType), std::string(s, n));
    }
    bool String(const char *s, rapidjson::SizeType n, bool)
    {
        return done(m_writer.String(s, n), std::string(s, n));
    }
    bool StartObject() { return ++m_depth == 1 || m_writer.StartObject(); }
    bool Key(const char *s, rapidjson::SizeType n, bool)
    {
        if (m_depth > 1)
            return m_writer.Key(s, n);
        members.push_back({std::string(s, n), {}, {}});
        m_buffer.Clear();
        m_writer.Reset(m_buffer);
        return true;
    }
    bool EndObject(rapidjson::SizeType) { return --m_depth == 0 || done(m_writer.EndObject(), {}); }
    bool StartArray() { return ++m_depth && m_writer.StartArray(); }
    bool EndArray(rapidjson::SizeType)
    {
        --m_depth;
        return done(m_writer.EndArray(), {});
    }

private:
    //! After a value: at the top level, its member is complete.
    bool done(bool written, std::string scalar)
    {
        if (written && m_depth == 1 && !members.empty()) {
            members.back().json = m_buffer.GetString();
            members.back().scalar = std::move(scalar);
        }
        return written;
    }

    rapidjson::StringBuffer m_buffer;
    rapidjson::Writer<rapidjson::StringBuffer> m_writer {m_buffer};
    int m_depth = 0;
};

/*!
 * `--summary`'s object as rows (key, value, json): each top-level key, its value when it is a
 * scalar, its JSON text always.
 */
CellTable summaryTable(const std::string &json)
{
    CellTable summary;
    summary.addColumn("key", Cell::Text, {});
    summary.addColumn("value", Cell::Id, {});
    summary.addColumn("json", Cell::Json, {});
    MemberSplitter split;
    rapidjson::Reader reader;
    rapidjson::StringStream text(json.c_str());
    reader.Parse<rapidjson::kParseNumbersAsStringsFlag>(text, split);
    for (const MemberSplitter::Member &m : split.members) {
        summary.addRow();
        summary.add(m.name);
        summary.add(m.scalar);
        summary.add(m.json);
    }
    return summary;
}

/*!
 * The load and link diagnostics (`--summary`'s `diagnostics`), each with where it first happened:
 * the byte of the decompressed text and what was found there (NULL and empty without an example).
 * A rank read in part carries its syntax error, cut or corrupt gzip data here.
 */
CellTable diagnosticsTable(const Diagnostics &all)
{
    CellTable t;
    t.addColumn("name", Cell::Text, {});
    t.addColumn("count", Cell::Integer, {});
    t.addColumn("first_offset", Cell::Integer, {});
    t.addColumn("first", Cell::Text, {});
    for (const auto &[name, count] : all.counts()) {
        const std::optional<Diag> counter = diagnosticNamed(name);
        const Diagnostics::Example *first = nullptr;
        for (const Diagnostics::Example &e : all.examples())
            if (e.counter == counter && (!first || e.offset < first->offset))
                first = &e;
        t.addRow();
        t.add(name);
        t.add(std::to_string(count));
        t.add(first ? std::to_string(first->offset) : std::string());
        t.add(first ? first->message : std::string());
    }
    return t;
}

//! What `--export-live --at peak` lists: the blocks alive at the peak; none without one.
std::vector<LiveBlock> liveAtPeak(const LoadedTrace &trace)
{
    const std::vector<PeakComposition> &peaks = trace.memoryPeaks();
    return peaks.empty() || peaks.front().event < 0
        ? std::vector<LiveBlock>()
        : trace.liveMemory().afterEvent(peaks.front().event);
}

} // namespace

void forEachRankTable(const RankSource &source, const RankTableFn &add)
{
    const LoadedTrace &trace = *source.trace;
    const OpGraph &graph = *trace.graph;
    add("pairs", *trace.pairTable());
    add("pair_keys", pairKeyTable(trace.modules()));
    add("kernels", *trace.kernelTable());
    add("kernel_summary", kernelSummaryTable(kernelSummary(graph), *trace.model));
    add("modules",
        ModuleTable(trace.modules(), ModuleTable::Rows::WholeTrace, trace.pairMemory(),
            trace.efficiency()));
    add("memory", AllocationTable(trace.memory()));
    add("steps", stepTable(stepBreakdown(graph)));
    add("efficiency", EfficiencyTable(graph, trace.efficiency()));
    add("live", LiveTable(trace.liveMemory(), liveAtPeak(trace)));
    add("collective_kernels", commKernelTable(graph));
    add("step_gpu_time", stepGpuTimeTable(source.stepGpuTime));
    add("findings", findingTable(source.findings));
    add("summary", summaryTable(summaryJson(*trace.model, graph, trace.seconds)));
    add("diagnostics", diagnosticsTable(allDiagnostics(*trace.model, graph, trace.memory())));
}

std::vector<std::pair<std::string, std::string>> rankMeta(
    const Run &run, size_t index, const std::string &sha256)
{
    const RankTrace &r = run.ranks[index];
    const RankSource &source = *run.sources[index];
    struct stat st { };
    std::error_code absent;
    const std::filesystem::path absolute = std::filesystem::absolute(r.file, absent);
    return {// Absolute: the window opens a rank's trace from it, from wherever it was started.
        {"source_file", absent ? r.file : absolute.lexically_normal().string()},
        {"source_size",
            ::stat(r.file.c_str(), &st) == 0 ? std::to_string(st.st_size) : std::string()},
        {"source_sha256", sha256},
        {"trace_rank", source.traceRank < 0 ? std::string() : std::to_string(source.traceRank)},
        {"world_size", std::to_string(r.worldSize)},
        {"clock_base_ns", std::to_string(source.clockBase)},
        {"trace_start_ns", std::to_string(source.traceStart)},
        {"trace_end_ns", std::to_string(source.traceEnd)}, {"trace_id", source.traceId}};
}

} // namespace ks
