// SPDX-License-Identifier: MIT
#pragma once

#include "session/run.h"

#include <functional>
#include <string>

namespace ks {

//! The version of --export-parquet's layout (`_schema`'s format_version); docs/cli.md.
constexpr int kParquetFormat = 1;

/*!
 * Writes --export-parquet's folder \a dir of \a run: each rank's own tables (forEachRankTable()),
 * its segments of the critical path of \a query's step (`critical_path`) and its `meta` (key,
 * value; rankMeta() with \a sha256's digest of its trace) as DIR/TABLE/rank=R/part-0.parquet —
 * hive partitioning, which DuckDB, Spark, Trino, Dask, polars and pandas read as one table per
 * TABLE with `rank` from the path — each column named with its unit (nameWithUnit()); and
 * DIR/_schema/part-0.parquet: format_version, tool_version, and each table's columns with their
 * units. Each file is written atomically and a rank's files are its own, so that processes
 * writing other ranks into the same folder never meet. False with \a error naming the file.
 */
bool writeRunParquet(const Run &run,
    const std::string &dir,
    const PathQuery &query,
    const std::function<std::string(const std::string &file)> &sha256,
    std::string &error);

} // namespace ks
