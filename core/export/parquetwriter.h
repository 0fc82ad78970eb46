// SPDX-License-Identifier: MIT
#pragma once

#include "export/table.h"

#include <string>

namespace ks {

/*!
 * \a table as one Apache Parquet file (parquet-format's src/main/thrift/parquet.thrift and
 * Encodings.md), what DuckDB, Spark, Trino, Dask, polars and pandas read natively: one row group,
 * each column a chunk of version-1 data pages of at most 64 Ki values, every column OPTIONAL (an
 * empty cell is null, but in a TextOrEmpty column). Whole numbers (Integer, Bytes) are INT64,
 * numbers and times DOUBLE, both PLAIN; pids, tids, devices and streams, which a trace may write
 * as text, and every other cell are UTF-8 strings, dictionary-encoded (RLE_DICTIONARY) unless the
 * dictionary would pass 1 MiB, then PLAIN. A numeric column holding a cell that is no such number
 * is written as strings, so nothing is lost. Pages are compressed with zstd where the build has
 * libzstd, else stored.
 */
std::string parquetFile(const Table &table);

//! Writes parquetFile() of \a table to \a path atomically; false with \a error naming the path.
bool writeParquet(const Table &table, const std::string &path, std::string &error);

} // namespace ks
