// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/health/tracecheck.h"
#include "analysis/memory/memoryindex.h"
#include "analysis/ranks/collectives.h"
#include "analysis/ranks/rankpairs.h"
#include "analysis/time/gputime.h"
#include "export/celltable.h"

#include <array>

namespace ks {

//! What one row of the rank table says of a rank (from its trace, or read from its database).
struct RankSummary {
    int rank = 0;
    std::string file;
    int worldSize = 0; //!< 0: the trace does not say
    uint64_t steps = 0;
    std::array<TimeNs, 8> gpuTime {}; //!< gpuTimeFields()' eight figures, in their order
    TimeNs fwdGpu = 0; //!< over its pair rows
    TimeNs bwdGpu = 0;
    uint64_t pairs = 0;
    AllocatorPeaks memory;
    //! Its trace was read in part and none of its GPU events survived (LinkStats::gpuCutOff): its
    //! GPU figures are unknown, not zero.
    bool gpuUnknown = false;
};
/*!
 * `--export-ranks`: one row per rank, in rank order: `rank`, `file`, `world_size`, `steps`, the
 * eight `gpu_time` figures of the rank's whole trace (µs), `fwd_gpu_us` and `bwd_gpu_us` (sums
 * over its pair rows, as `--export-pairs` would add them up), `pairs` (`fwd_bwd_pairs` of its
 * `--summary`), `peak_allocated_bytes`, `peak_reserved_bytes`. A rank whose GPU figures are
 * unknown (RankSummary::gpuUnknown) has its ten GPU cells empty.
 */
CellTable rankTable(const std::vector<RankSummary> &ranks);

/*!
 * `--export-collectives`: one row per matched collective, by first start: `collective`
 * (0-based), `name`, `process_group`, `ranks` (how many ranks have it), `first_start_us`,
 * `last_start_us` (µs from the run's common zero), `skew_us`, `last_rank`, `min_dur_us`,
 * `max_dur_us`; then, Kinetoscope's own, `wait_us.R` and `dur_us.R` for each rank R (empty where
 * rank R lacks the collective).
 */
CellTable collectiveTable(const std::vector<int> &rankNumbers, const CollectiveMatch &match);

/*!
 * `--export-rank-pairs`: one row per pair of the first rank (RankPairs order): `fwd_name`,
 * `input_dims`, `step`, `module` (of the first rank's row), then `fwd_gpu_us.R` and `bwd_gpu_us.R`
 * for each rank R (empty where that rank has no match), `bwd_spread_us`, `slowest_rank`.
 */
//! Per pair row of the first rank: its `fwd_name`, `input_dims`, `step`, `module` as written.
using PairRowTexts = std::vector<std::array<std::string, 4>>;
CellTable rankPairTable(
    const std::vector<int> &rankNumbers, const PairRowTexts &first, const RankPairs &pairs);

//! A run table whose columns per rank (`NAME.R`) are moved into rows (splitRankColumns()).
struct RankColumnSplit {
    CellTable shared; //!< \a key, then the columns that are no rank's, row for row
    CellTable byRank; //!< \a key, `rank`, then each `NAME`: a row per row and rank with a value
};

/*!
 * \a wide (collectiveTable(), rankPairTable()) as two tables SQLite can hold whatever the ranks:
 * a table has at most 2 000 columns there, which `rank_pairs` passes at 499 ranks. \a key is the
 * 0-based row: \a wide's column of that name, or added first to both when it has none. The
 * `NAME`s keep their first `NAME.R`'s kind, in the order they first come.
 */
RankColumnSplit splitRankColumns(const Table &wide, std::string_view key);

/*!
 * What a run matches a rank's pair rows by, beyond `--export-pairs`' columns (`--export-db`'s
 * `pair_keys`, one row per pair row in the same order): `module_path`, the row's module in the
 * Modules tab's tree (moduleOfRow()), empty for none; `recompute`, 1 for an op re-run during
 * backward (activation checkpointing), else 0.
 */
CellTable pairKeyTable(const ModuleTree &modules);

/*!
 * One trace's communication kernels (communicationKernels()), what its collectives are matched
 * from, in start order: `name`, `collective_name`, `process_group`, `comms_id`, `seq`, `device`,
 * `stream`, `ts` (µs on the file's clock), `dur_us`, both exact in ns (`start_ns`, `dur_ns`), and
 * `event` (its id in the trace's model, as the path graph's tables name it).
 * `--export-db`'s `collective_kernels`: enough to match a rank's collectives without its trace.
 */
CellTable commKernelTable(const OpGraph &graph);

//! `--export-db`'s `step_gpu_time`: `step`, then the eight gpuTimeFields() of the step (µs).
CellTable stepGpuTimeTable(const std::vector<StepGpuTime> &steps);

//! `--export-db`'s `findings`: a trace's health findings as `--check` tells them: `check_name`,
//! `severity`, `count`, `example`, `first_ns` (its `first_ts_us` in ns, exact; empty when the
//! finding is of no event).
CellTable findingTable(const std::vector<Finding> &findings);

} // namespace ks
