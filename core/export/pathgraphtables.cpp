// SPDX-License-Identifier: MIT
#include "export/pathgraphtables.h"

#include <algorithm>

namespace ks {

namespace {

std::string idText(SliceId id)
{
    return id == kNoSlice ? std::string() : std::to_string(id);
}

void addEdges(CellTable &t, const std::vector<PathEdge> &edges, bool stepEdge)
{
    for (const PathEdge &e : edges) {
        t.addRow();
        t.add(std::to_string(e.from));
        t.add(std::to_string(e.to));
        t.add(std::string(pathEdgeKindName(e.kind)));
        t.add(std::to_string(e.weight));
        t.add(idText(e.charged));
        t.add(stepEdge ? "1" : "0");
    }
}

//! Every event a node or an edge names, in id order.
std::vector<SliceId> namedEvents(const PathGraph &graph)
{
    std::vector<SliceId> events;
    for (const PathNode &n : graph.nodes())
        events.push_back(n.event);
    for (const PathEdge &e : graph.dag().edges())
        if (e.charged != kNoSlice)
            events.push_back(e.charged);
    std::sort(events.begin(), events.end());
    events.erase(std::unique(events.begin(), events.end()), events.end());
    return events;
}

//! The three tables with their columns and no row.
PathGraphTables withColumns()
{
    PathGraphTables t;
    for (const char *name : {"event", "start", "time_ns"})
        t.nodes.addColumn(name, Cell::Integer, {});
    t.events.addColumn("event", Cell::Integer, {});
    t.events.addColumn("name", Cell::Text, {});
    t.events.addColumn("span_bound", Cell::Text, {});
    t.events.addColumn("pair_row", Cell::Integer, {});
    t.events.addColumn("pair_fwd_name", Cell::Text, {});
    t.events.addColumn("side", Cell::Text, {});
    for (const char *name : {"from_node", "to_node"})
        t.edges.addColumn(name, Cell::Integer, {});
    t.edges.addColumn("kind", Cell::Text, {});
    for (const char *name : {"weight_ns", "charged", "causality"})
        t.edges.addColumn(name, Cell::Integer, {});
    return t;
}

} // namespace

PathGraphTables pathGraphTables(const PathGraph *graph)
{
    PathGraphTables t = withColumns();
    if (!graph)
        return t;
    for (const PathNode &n : graph->nodes()) {
        t.nodes.addRow();
        t.nodes.add(std::to_string(n.event));
        t.nodes.add(n.start ? "1" : "0");
        t.nodes.add(std::to_string(n.time));
    }
    addEdges(t.edges, graph->dag().edges(), false);
    addEdges(t.edges, graph->dag().stepEdges(), true);
    const std::vector<SliceId> events = namedEvents(*graph);
    const std::vector<RowSide> sides = graph->rowSides(events);
    for (size_t i = 0; i < events.size(); ++i) {
        const auto [row, side] = sides[i];
        t.events.addRow();
        t.events.add(std::to_string(events[i]));
        t.events.add(std::string(graph->eventName(events[i])));
        t.events.add(std::string(pathBoundName(graph->spanBound(events[i]))));
        t.events.add(row < 0 ? std::string() : std::to_string(row));
        t.events.add(std::string(graph->pairName(row)));
        t.events.add(std::string(side));
    }
    return t;
}

std::optional<PathEdgeKind> pathEdgeKindNamed(std::string_view name)
{
    for (auto k : {PathEdgeKind::Span, PathEdgeKind::Dependency, PathEdgeKind::LaunchDelay,
             PathEdgeKind::KernelKernel, PathEdgeKind::Sync})
        if (pathEdgeKindName(k) == name)
            return k;
    return std::nullopt;
}

std::optional<PathBound> pathBoundNamed(std::string_view name)
{
    for (size_t b = 0; b <= kPathBounds; ++b)
        if (pathBoundName(PathBound(b)) == name)
            return PathBound(b);
    return std::nullopt;
}

} // namespace ks
