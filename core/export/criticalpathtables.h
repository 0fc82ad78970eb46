// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "export/celltable.h"

namespace ks {

/*!
 * `--export-critical-path` (cli.md): one row per segment of the path, in path order: `rank`,
 * `order` (0-based), `kind` (HTA's edge type), `name` (the event's), `start_us` (µs on the run's
 * clock: from the first event of the run, or of the one trace), `dur_us`, `bound_by`,
 * `pair_fwd_name` (the pair the event belongs to, empty if none), `side`, `collective` (its
 * `--export-collectives` index where the segment is a collective's kernel, else empty).
 */
CellTable criticalSegmentTable(const CriticalPathAnalysis &analysis);

//! HTA's classes on the path: `bound_by`, `us`, `percent` (of the length), every class.
CellTable criticalBoundTable(const CriticalPath &path);

//! The pairs with time on the path, most first: `rank`, `pair_fwd_name`, `critical_us`,
//! `percent`; rank after rank where pairs of several ranks are on it.
CellTable criticalPairTable(const CriticalPathAnalysis &analysis, size_t count = 10);

//! What-ifs: `change` (as `--what-if` takes it), `length_us`, `saved_us` (the path's length
//! less it).
CellTable whatIfTable(const std::vector<WhatIf> &changes, TimeNs length);

//! Per rank of a run: `rank`, `on_path_us` (its events' time on the path), `slack_us`
//! (RankOnPath::slack, empty when the path passes none of its collectives), `problem`.
CellTable criticalRankTable(const CriticalPathAnalysis &analysis);

} // namespace ks
