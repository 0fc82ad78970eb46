// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/pathgraph.h"

#include <string>
#include <utility>
#include <vector>

namespace ks {

//! What an event of a stored graph is (a row of a database's `path_events`).
struct StoredPathEvent {
    SliceId event = kNoSlice; //!< its id in its trace's model, as the nodes and edges name it
    std::string name;
    PathBound spanBound = PathBound::Cpu;
    int row = -1; //!< its pair row, -1 if none
    std::string side;
    std::string pairName; //!< the row's forward op name
};

/*!
 * A rank's critical-path graph as it was written down (a database's `path_nodes`, `path_edges`
 * and `path_events`, made from a CriticalGraph): the same nodes and edges in the same order, so
 * that the path through it is the one through the trace's graph, tie for tie.
 */
class StoredPathGraph : public PathGraph {
public:
    StoredPathGraph(std::vector<PathNode> nodes,
        const std::vector<PathEdge> &edges,
        const std::vector<PathEdge> &stepEdges,
        std::vector<StoredPathEvent> events,
        size_t rowCount);

    uint32_t startNode(SliceId event) const override;
    uint32_t endNode(SliceId event) const override;
    std::string_view eventName(SliceId event) const override;
    PathBound spanBound(SliceId event) const override;
    std::vector<RowSide> rowSides(const std::vector<SliceId> &events) const override;
    size_t rowCount() const override { return m_rowCount; }
    std::string_view pairName(int row) const override;

private:
    //! The stored event \a event, null if none.
    const StoredPathEvent *find(SliceId event) const;

    //! (key, value) sorted by key: a thousand ranks' graphs are held at once, hash maps cost
    //! five times the memory.
    using SortedIndex = std::vector<std::pair<int64_t, uint32_t>>;
    static uint32_t lookUp(const SortedIndex &index, int64_t key);

    std::vector<StoredPathEvent> m_events; //!< by event id
    SortedIndex m_startNode;
    SortedIndex m_endNode;
    SortedIndex m_eventOfRow; //!< a row's first event
    size_t m_rowCount = 0;
};

} // namespace ks
