// SPDX-License-Identifier: MIT
#include "session/rundatabase.h"

#include "analysis/time/kernelsummary.h"
#include "analysis/time/stepbreakdown.h"
#include "base/version.h"
#include "export/allocationtable.h"
#include "export/celltable.h"
#include "export/criticalpathtables.h"
#include "export/efficiencytable.h"
#include "export/kernelsummarytable.h"
#include "export/livetable.h"
#include "export/moduletable.h"
#include "export/pathgraphtables.h"
#include "export/runtables.h"
#include "export/steptable.h"
#include "export/summary.h"
#include "export/tabledatabase.h"

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

void addMeta(CellTable &meta, std::optional<int> rank, std::string key, std::string value)
{
    meta.addRow();
    meta.add(rank ? std::to_string(*rank) : std::string());
    meta.add(std::move(key));
    meta.add(std::move(value));
}

//! One rank's own tables, each row led by its rank number.
void addRankTables(TableDatabase &db, const RankSource &source, int rank)
{
    const LoadedTrace &trace = *source.trace;
    const OpGraph &graph = *trace.graph;
    db.add("pairs", *trace.pairTable(), rank);
    db.add("pair_keys", pairKeyTable(trace.modules()), rank);
    db.add("kernels", *trace.kernelTable(), rank);
    db.add("kernel_summary", kernelSummaryTable(kernelSummary(graph), *trace.model), rank);
    db.add("modules",
        ModuleTable(
            trace.modules(), ModuleTable::Rows::WholeTrace, trace.pairMemory(), trace.efficiency()),
        rank);
    db.add("memory", AllocationTable(trace.memory()), rank);
    db.add("steps", stepTable(stepBreakdown(graph)), rank);
    db.add("efficiency", EfficiencyTable(graph, trace.efficiency()), rank);
    db.add("live", LiveTable(trace.liveMemory(), liveAtPeak(trace)), rank);
    db.add("collective_kernels", commKernelTable(graph), rank);
    db.add("step_gpu_time", stepGpuTimeTable(source.stepGpuTime), rank);
    db.add("findings", findingTable(source.findings), rank);
    db.add("summary", summaryTable(summaryJson(*trace.model, graph, trace.seconds)), rank);
    db.add(
        "diagnostics", diagnosticsTable(allDiagnostics(*trace.model, graph, trace.memory())), rank);
}

/*!
 * Rank \a index's critical-path graph (path_nodes, path_edges, path_events; empty where it has
 * none) and the meta that says which: what a run from databases joins.
 */
void addPathGraph(TableDatabase &db,
    CellTable &meta,
    const CriticalPathAnalysis &analysis,
    uint32_t index,
    int rank)
{
    const PathGraph *graph = analysis.graph(index);
    const PathGraphTables tables = pathGraphTables(graph);
    db.add("path_nodes", tables.nodes, rank);
    db.add("path_edges", tables.edges, rank);
    db.add("path_events", tables.events, rank);
    const int64_t step = analysis.path().step;
    const RankOnPath &onPath = analysis.path().ranks[index];
    addMeta(meta, rank, "path_step", step == kNoValue ? std::string() : std::to_string(step));
    addMeta(meta, rank, "path_problem", onPath.problem);
    addMeta(meta, rank, "path_window_start_ns", std::to_string(onPath.windowStart));
    addMeta(meta, rank, "path_window_end_ns", std::to_string(onPath.windowEnd));
}

/*!
 * The indexes a query by rank, step or name uses (on the rows' string ids: `strings` has its own
 * on the text). (rank, step) serves a search by rank alone too. A database of one rank has none
 * by rank: every row would match.
 */
void addIndexes(TableDatabase &db, bool severalRanks)
{
    if (severalRanks) {
        for (const char *table :
            {"kernel_summary", "modules", "memory", "live", "collective_kernels", "efficiency",
                "path_nodes", "path_edges", "path_events", "step_gpu_time", "findings"})
            db.index(table, {"rank"});
        for (const char *table : {"pairs", "kernels", "steps"})
            db.index(table, {"rank", "step"});
        db.index("summary", {"rank", "key"});
        db.index("collective_ranks", {"rank"});
        db.index("rank_pair_ranks", {"rank"});
    }
    for (const char *table : {"pairs", "kernels", "memory"})
        db.index(table, {"step"});
    db.index("pairs", {"fwd_name"});
    db.index("kernels", {"name"});
    db.index("kernel_summary", {"name"});
    db.index("modules", {"name"});
    db.index("efficiency", {"name"});
    db.index("collective_ranks", {"collective"});
    db.index("rank_pair_ranks", {"pair"});
}

} // namespace

bool writeRunDatabase(const Run &run,
    const std::string &path,
    const PathQuery &query,
    const std::function<std::string(const std::string &file)> &sha256,
    std::string &error)
{
    const auto analysis = run.criticalPath(query, &error);
    if (!analysis)
        return false;
    TableDatabase db;
    CellTable meta;
    meta.addColumn("rank", Cell::Integer, {});
    meta.addColumn("key", Cell::Text, {});
    meta.addColumn("value", Cell::Id, {});
    addMeta(meta, {}, "format_version", std::to_string(kDatabaseFormat));
    addMeta(meta, {}, "tool_version", KINETOSCOPE_VERSION);
    addMeta(meta, {}, "world_size", std::to_string(run.worldSize));
    addMeta(meta, {}, "rank_count", std::to_string(run.ranks.size()));
    addMeta(meta, {}, "clock_zero_ns", std::to_string(run.commonZero));
    for (size_t i = 0; i < run.ranks.size(); ++i) {
        const RankTrace &r = run.ranks[i];
        const RankSource &source = *run.sources[i];
        addRankTables(db, source, r.rank); // first: the caller may still be hashing
        addPathGraph(db, meta, *analysis, uint32_t(i), r.rank);
        struct stat st { };
        std::error_code absent;
        const std::filesystem::path absolute = std::filesystem::absolute(r.file, absent);
        // Absolute: the window opens a rank's trace from it, from wherever it was started.
        addMeta(
            meta, r.rank, "source_file", absent ? r.file : absolute.lexically_normal().string());
        addMeta(meta, r.rank, "source_size",
            ::stat(r.file.c_str(), &st) == 0 ? std::to_string(st.st_size) : std::string());
        addMeta(meta, r.rank, "source_sha256", sha256(r.file));
        addMeta(meta, r.rank, "trace_rank",
            source.traceRank < 0 ? std::string() : std::to_string(source.traceRank));
        addMeta(meta, r.rank, "world_size", std::to_string(r.worldSize));
        addMeta(meta, r.rank, "clock_base_ns", std::to_string(source.clockBase));
        addMeta(meta, r.rank, "trace_start_ns", std::to_string(source.traceStart));
        addMeta(meta, r.rank, "trace_end_ns", std::to_string(source.traceEnd));
        addMeta(meta, r.rank, "trace_id", source.traceId);
    }
    db.add("meta", meta);
    db.add("ranks", rankTable(run.summaries()));
    // Their columns per rank as rows: SQLite holds at most 2 000 columns a table.
    const RankColumnSplit collectives
        = splitRankColumns(collectiveTable(run.rankNumbers(), run.collectives), "collective");
    db.add("collectives", collectives.shared);
    db.add("collective_ranks", collectives.byRank);
    const RankColumnSplit pairs
        = splitRankColumns(rankPairTable(run.rankNumbers(), run.firstPairRows, run.pairs), "pair");
    db.add("rank_pairs", pairs.shared);
    db.add("rank_pair_ranks", pairs.byRank);
    db.add("critical_path", criticalSegmentTable(*analysis));
    CellTable schema;
    schema.addColumn("version", Cell::Integer, {});
    schema.addColumn("tool_version", Cell::Text, {});
    schema.addRow();
    schema.add(std::to_string(kDatabaseFormat));
    schema.add(KINETOSCOPE_VERSION);
    db.add("schema", schema);
    db.addColumnList("schema_columns");
    addIndexes(db, run.ranks.size() > 1);
    if (!db.save(path)) {
        error = db.error();
        return false;
    }
    return true;
}

} // namespace ks
