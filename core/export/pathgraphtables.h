// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/pathgraph.h"
#include "export/celltable.h"

#include <optional>
#include <string_view>

namespace ks {

/*!
 * A rank's critical-path graph as tables (`--export-db`'s `path_nodes`, `path_edges`,
 * `path_events`; docs/cli.md): what a run opened from databases walks to find the path across
 * the ranks as from the traces.
 * - nodes, in the graph's order: `event`, `start` (1 at the event's start, 0 at its end),
 *   `time_ns` (the trace's clock);
 * - edges, in the graph's order: `from_node`, `to_node` (0-based node rows), `kind` (HTA's edge
 *   type), `weight_ns`, `charged` (the event whose time it is, empty: none), `causality` (1: a
 *   dependency HTA's model leaves out, walked by the step model only: PathDag::stepEdges());
 * - events, each event a node or an edge names: `event`, `name`, `span_bound` (HTA's class of
 *   its own time), `pair_row` (0-based row of `pairs`, empty: none), `pair_fwd_name`, `side`.
 */
struct PathGraphTables {
    CellTable nodes;
    CellTable edges;
    CellTable events;
};
//! \a graph's tables; null: their columns only (a rank with no graph).
PathGraphTables pathGraphTables(const PathGraph *graph);

//! The kind pathEdgeKindName() names, nullopt for another name.
std::optional<PathEdgeKind> pathEdgeKindNamed(std::string_view name);
//! The class pathBoundName() names (None for ""), nullopt for another name.
std::optional<PathBound> pathBoundNamed(std::string_view name);

} // namespace ks
