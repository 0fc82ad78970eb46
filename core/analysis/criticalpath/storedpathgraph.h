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
        std::vector<PathEdge> edges,
        std::vector<PathEdge> stepEdges,
        const std::vector<StoredPathEvent> &events,
        size_t rowCount);

    uint32_t startNode(SliceId event) const override;
    uint32_t endNode(SliceId event) const override;
    std::string_view eventName(SliceId event) const override;
    PathBound spanBound(SliceId event) const override;
    std::vector<RowSide> rowSides(const std::vector<SliceId> &events) const override;
    size_t rowCount() const override { return m_rowCount; }
    std::string_view pairName(int row) const override;

private:
    //! A StoredPathEvent in 20 bytes, its texts by index in m_texts: a thousand ranks' graphs
    //! are held at once, and their events' names repeat.
    struct Event {
        SliceId event = kNoSlice;
        uint32_t name = 0;
        int32_t row = -1;
        uint32_t side = 0;
        PathBound spanBound = PathBound::Cpu;
    };
    //! (key, value) sorted by key: hash maps would cost five times the memory.
    template<typename Key> using SortedIndex = std::vector<std::pair<Key, uint32_t>>;
    template<typename Key> static uint32_t lookUp(const SortedIndex<Key> &index, Key key);

    //! Fills m_startNode and m_endNode from m_nodes.
    void indexNodes();
    //! Keeps \a events as Events sorted by id, their texts once each, and each row's pair name.
    void keepEvents(const std::vector<StoredPathEvent> &events);
    //! The stored event \a event, null if none.
    const Event *find(SliceId event) const;

    std::vector<Event> m_events; //!< by event id
    std::vector<std::string> m_texts; //!< the events' names, sides and pair names, once each
    SortedIndex<SliceId> m_startNode;
    SortedIndex<SliceId> m_endNode;
    SortedIndex<int32_t> m_pairName; //!< a row's forward op name (in m_texts)
    size_t m_rowCount = 0;
};

} // namespace ks
