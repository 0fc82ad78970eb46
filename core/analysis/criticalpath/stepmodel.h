// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/joinedgraph.h"
#include "analysis/criticalpath/timecut.h"

#include <optional>
#include <vector>

namespace ks {

//! A stretch of the step model's path, before it is told in pairs and sides.
struct StepStretch {
    static constexpr uint32_t kNoEdge = ~0u;
    //! The edge walked (JoinedGraph::rankOfEdge's index); kNoEdge: idle or a late start before
    //! the rank's first node on the path.
    uint32_t edge = kNoEdge;
    uint32_t node = 0; //!< the node it ends at
    PathEdgeKind kind = PathEdgeKind::Dependency; //!< the edge's (idle: Dependency)
    SliceId event = kNoSlice; //!< whose time it is (idle: the event that waited)
    TimeNs start = 0; //!< on the run clock
    TimeNs dur = 0;
    PathBound bound = PathBound::None;
    uint32_t rank = 0;
    uint32_t fromRank = 0; //!< the rank of the edge's start (a collective's last arriver)
};

/*!
 * The step model's path (docs/critical-path.md): every edge weighs the time between its ends, so
 * the model is in which path it picks. From the window's end it walks back along each node's
 * binding dependency — of its predecessors, the one that ended last — and names the time no
 * recorded work fills: idle, a late start, a blocking call's wait. What-ifs replay the same
 * dependencies with changed durations: each node follows its binding dependency by the gap it had,
 * and its other dependencies by no more than their own work, so that nothing changed replays the
 * trace exactly.
 */
class StepModel {
public:
    /*!
     * \a offsets: per rank, added to its nodes' times to give the run clock; \a stepStarts and
     * \a stepEnds: each rank's step window on the run clock (a rank without one: unused).
     */
    StepModel(const JoinedGraph &joined,
        const std::vector<TimeNs> &offsets,
        const std::vector<TimeNs> &stepStarts,
        const std::vector<TimeNs> &stepEnds,
        const std::vector<bool> &hasWindow);

    TimeNs windowStart() const { return m_start; }
    TimeNs windowEnd() const { return m_end; }
    //! The path's stretches with time, in order: contiguous from the window's start to its end.
    std::vector<StepStretch> path() const;
    //! The window's length with the edges weighing \a weights (by edge(); those past its end keep
    //! theirs),
    //! the edges \a dropped marks (indexed as edge(); empty: none) gone, rank \a onTime's
    //! work starting that much earlier that its step begins with the window, and \a cut's host
    //! time (null: none) cut out of its threads.
    TimeNs replay(const std::vector<TimeNs> &weights,
        const std::vector<bool> &dropped = {},
        std::optional<uint32_t> onTime = std::nullopt,
        const TimeCut *cut = nullptr) const;
    //! Per rank: how much later its work could start without lengthening the window, the least
    //! room of its events' starts (kNoValue: a rank without nodes).
    std::vector<TimeNs> slack() const;

private:
    const PathEdge &edge(uint32_t i) const;
    //! The time an edge asks of its end beyond its start, with \a weight its own work and
    //! \a cut of the time between its ends cut out of their thread.
    TimeNs replayWeight(uint32_t i, TimeNs weight, TimeNs cut = 0) const;
    PathBound boundOf(uint32_t i) const;
    SliceId eventOf(uint32_t i) const;

    const JoinedGraph &m_joined;
    std::vector<TimeNs> m_time; //!< per node, on the run clock
    std::vector<uint32_t> m_inBegin, m_in; //!< incoming edges by node (CSR)
    std::vector<uint32_t> m_binding; //!< per node: the edge it waited for last, kNoEdge: none
    std::vector<bool> m_waits; //!< per edge: a blocking call's own time (sync_wait)
    std::vector<TimeNs> m_rankStart; //!< per rank: its step's start on the run clock
    TimeNs m_start = 0;
    TimeNs m_end = 0;
    uint32_t m_last = 0; //!< the node that ends last
};

} // namespace ks
