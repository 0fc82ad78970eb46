// SPDX-License-Identifier: MIT
#pragma once

#include "export/table.h"
#include "session/run.h"

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ks {

using RankTableFn = std::function<void(std::string_view name, const Table &table)>;

/*!
 * Calls \a add with each of \a source's own tables by name — pairs, pair_keys, kernels,
 * kernel_summary, modules, memory, steps, efficiency, live (at the peak), collective_kernels,
 * step_gpu_time, findings, summary (`--summary` as key/value/json rows) and diagnostics (with
 * where each first happened) — as --export-db and --export-parquet write them. Its trace must be
 * loaded, with its details (findings, step GPU time).
 */
void forEachRankTable(const RankSource &source, const RankTableFn &add);

/*!
 * What meta says of rank \a index of \a run, as (key, value): source_file (absolute), source_size,
 * source_sha256 (\a sha256), trace_rank, world_size, clock_base_ns, trace_start_ns, trace_end_ns,
 * trace_id (docs/cli.md, "--export-db").
 */
std::vector<std::pair<std::string, std::string>> rankMeta(
    const Run &run, size_t index, const std::string &sha256);

} // namespace ks
