// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <span>
#include <unordered_map>
#include <vector>

namespace ks {

/*!
 * CUDA/HIP graph replays drawn one lane per graph. A replayed graph spreads its kernels over
 * streams of their own (one per branch), and a decode loop replays it thousands of times, so a
 * GPU shows many streams that each hold a piece of every replay. A stream that holds nothing
 * but replayed work (every event carries `graph id`) can be compacted: the replayed events of
 * one device and one graph, from all such streams, go into one lane, packed into as few rows as
 * keep them from overlapping. Streams with other work stay as they are.
 *
 * A compacted graph's lane is hosted by the first of its streams (lowest lane id), so that it
 * stands where that stream stood; its rows are the host's graph rows [firstRow, firstRow +
 * rowCount).
 */
class GraphLanes {
public:
    struct Graph {
        LaneId host = kNoLane;
        int64_t graphId = 0;
        uint32_t firstRow = 0;
        uint32_t rowCount = 0;
        std::vector<LaneId> streams; //!< the compacted streams its events came from
    };

    //! Where a slice of a compacted stream is drawn.
    struct Place {
        uint32_t graph = 0; //!< index into graphs()
        uint32_t row = 0; //!< row of the graph's host lane
    };

    explicit GraphLanes(const TraceModel &model);

    //! Whether \a lane holds only graph-replay events (and no instants).
    bool compacted(LaneId lane) const { return m_placesOfLane.contains(lane); }
    const std::vector<Graph> &graphs() const { return m_graphs; }
    //! The graphs hosted by \a lane, as a range of graphs() (empty for most lanes).
    std::span<const Graph> hostedBy(LaneId lane) const;
    uint32_t rowCount(LaneId host) const;
    std::span<const SliceId> row(LaneId host, uint32_t row) const;
    //! Where slice \a s of a compacted lane is drawn.
    Place placeOf(SliceId s) const;

private:
    //! Packs the events of graph \a g into rows of its host and appends it to graphs().
    void pack(Graph g, std::vector<SliceId> &events);

    const TraceModel &m_model;
    std::vector<Graph> m_graphs; //!< by host lane, then graph id
    std::unordered_map<LaneId, std::vector<std::vector<SliceId>>> m_rowsOfHost;
    std::unordered_map<LaneId, std::vector<Place>> m_placesOfLane; //!< by slice - sliceBegin
};

} // namespace ks
