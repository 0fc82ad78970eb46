// SPDX-License-Identifier: MIT
#include "session/rundatabase.h"

#include "base/version.h"
#include "export/celltable.h"
#include "export/criticalpathtables.h"
#include "export/pathgraphtables.h"
#include "export/runtables.h"
#include "export/tabledatabase.h"
#include "session/ranktables.h"

namespace ks {

namespace {

void addMeta(CellTable &meta, std::optional<int> rank, std::string key, std::string value)
{
    meta.addRow();
    meta.add(rank ? std::to_string(*rank) : std::string());
    meta.add(std::move(key));
    meta.add(std::move(value));
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
        // First the tables: the caller may still be hashing.
        forEachRankTable(source,
            [&](std::string_view name, const Table &table) { db.add(name, table, r.rank); });
        addPathGraph(db, meta, *analysis, uint32_t(i), r.rank);
        for (auto &[key, value] : rankMeta(run, i, sha256(r.file)))
            addMeta(meta, r.rank, std::move(key), std::move(value));
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
