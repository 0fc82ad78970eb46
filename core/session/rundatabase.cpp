// SPDX-License-Identifier: MIT
#include "session/rundatabase.h"

#include "analysis/kernelsummary.h"
#include "analysis/stepbreakdown.h"
#include "base/jsonallocator.h"
#include "base/version.h"
#include "export/allocationtable.h"
#include "export/celltable.h"
#include "export/criticalpathtables.h"
#include "export/kernelsummarytable.h"
#include "export/moduletable.h"
#include "export/pathgraphtables.h"
#include "export/runtables.h"
#include "export/steptable.h"
#include "export/summary.h"
#include "export/tabledatabase.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <filesystem>
#include <sys/stat.h>

namespace ks {

namespace {

std::string jsonText(const JsonValue &value)
{
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    value.Accept(writer);
    return buffer.GetString();
}

//! A scalar as the summary's value column holds it; empty for objects, arrays and null.
std::string scalarText(const JsonValue &value)
{
    if (value.IsString())
        return value.GetString();
    if (value.IsBool())
        return value.GetBool() ? "1" : "0";
    return value.IsNumber() ? jsonText(value) : std::string();
}

/*!
 * `--summary`'s object as rows (key, value, json): each top-level key, its value when it is a
 * scalar, its JSON text always; and its `diagnostics` object as rows (name, count).
 */
void summaryTables(const std::string &json, CellTable &summary, CellTable &diagnostics)
{
    summary.addColumn("key", Cell::Text, {});
    summary.addColumn("value", Cell::Id, {});
    summary.addColumn("json", Cell::Json, {});
    diagnostics.addColumn("name", Cell::Text, {});
    diagnostics.addColumn("count", Cell::Number, {});
    JsonDocument doc;
    doc.Parse(json.c_str(), json.size());
    const JsonValue &root = doc; // const: its member iterators compare unambiguously
    for (const auto &m : root.GetObject()) {
        summary.addRow();
        summary.add(m.name.GetString());
        summary.add(scalarText(m.value));
        summary.add(jsonText(m.value));
    }
    if (root.HasMember("diagnostics") && root["diagnostics"].IsObject())
        for (const auto &d : root["diagnostics"].GetObject()) {
            diagnostics.addRow();
            diagnostics.add(d.name.GetString());
            diagnostics.add(jsonText(d.value));
        }
}

void addMeta(CellTable &meta, std::optional<int> rank, std::string key, std::string value)
{
    meta.addRow();
    meta.add(rank ? std::to_string(*rank) : std::string());
    meta.add(std::move(key));
    meta.add(std::move(value));
}

//! One rank's own tables, each row led by its rank number.
void addRankTables(TableDatabase &db, const LoadedTrace &trace, int rank)
{
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
    db.add("collective_kernels", commKernelTable(graph), rank);
    CellTable summary, diagnostics;
    summaryTables(summaryJson(*trace.model, graph, trace.seconds), summary, diagnostics);
    db.add("summary", summary, rank);
    db.add("diagnostics", diagnostics, rank);
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

} // namespace

bool writeRunDatabase(const LoadedRun &run,
    const std::string &path,
    const PathQuery &query,
    const std::function<std::string(const std::string &file)> &sha256,
    std::string &error)
{
    const auto analysis = run.criticalPath(query);
    TableDatabase db;
    CellTable meta;
    meta.addColumn("rank", Cell::Number, {});
    meta.addColumn("key", Cell::Text, {});
    meta.addColumn("value", Cell::Id, {});
    addMeta(meta, {}, "format_version", std::to_string(kDatabaseFormat));
    addMeta(meta, {}, "tool_version", KINETOSCOPE_VERSION);
    addMeta(meta, {}, "world_size", std::to_string(run.worldSize));
    addMeta(meta, {}, "rank_count", std::to_string(run.ranks.size()));
    addMeta(meta, {}, "clock_zero_ns", std::to_string(run.commonZero));
    for (size_t i = 0; i < run.ranks.size(); ++i) {
        const RankTrace &r = run.ranks[i];
        addRankTables(db, *run.traces[i], r.rank); // first: the caller may still be hashing
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
        const int traceRank = rankInfo(*run.traces[i]->model).rank;
        addMeta(
            meta, r.rank, "trace_rank", traceRank < 0 ? std::string() : std::to_string(traceRank));
        addMeta(meta, r.rank, "world_size", std::to_string(r.worldSize));
        addMeta(meta, r.rank, "clock_base_ns", std::to_string(r.clockOffset + run.commonZero));
        const TraceModel &model = *run.traces[i]->model;
        addMeta(meta, r.rank, "trace_start_ns", std::to_string(model.minTime));
        addMeta(meta, r.rank, "trace_end_ns", std::to_string(model.maxTime));
        addMeta(meta, r.rank, "trace_id", traceIdOf(model));
    }
    db.add("meta", meta);
    db.add("ranks", rankTable(run.ranks));
    // Their columns per rank as rows: SQLite holds at most 2 000 columns a table.
    const RankColumnSplit collectives
        = splitRankColumns(collectiveTable(run.ranks, run.collectives), "collective");
    db.add("collectives", collectives.shared);
    db.add("collective_ranks", collectives.byRank);
    const RankColumnSplit pairs = splitRankColumns(rankPairTable(run.ranks, run.pairs), "pair");
    db.add("rank_pairs", pairs.shared);
    db.add("rank_pair_ranks", pairs.byRank);
    db.add("critical_path", criticalSegmentTable(*analysis));
    // (rank, step) serves a search by rank alone too: pairs and kernels need no index of rank.
    for (const char *table : {"kernel_summary", "modules", "memory", "collective_kernels",
             "path_nodes", "path_edges", "path_events"})
        db.index(table, {"rank"});
    db.index("pairs", {"fwd_name"});
    db.index("pairs", {"rank", "step"});
    db.index("kernels", {"rank", "step"});
    db.index("steps", {"rank", "step"});
    db.index("summary", {"rank", "key"});
    db.index("collective_ranks", {"collective"});
    db.index("rank_pair_ranks", {"pair"});
    if (!db.save(path)) {
        error = db.error();
        return false;
    }
    return true;
}

} // namespace ks
