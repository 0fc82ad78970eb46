// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/pathgraph.h"
#include "analysis/ranks/collectives.h"

#include <functional>
#include <map>
#include <unordered_map>

namespace ks {

/*!
 * The critical-path graphs of a run's ranks as one graph (docs/critical-path.md, "Across ranks"):
 * rank i's nodes and edges follow rank i−1's, and each collective joins them. A collective
 * cannot finish before its last arriver arrives, so on every other rank its kernel's end waits
 * for the last arriver's kernel start (an edge weighing the kernel's end less that start, the
 * collective's own work) and no longer for that rank's own start: its wait is the last arriver's
 * doing. In the step model that span stays, weighing the collective's own work, and the last
 * arriver's kernel end waits for each rank's start too (by its own work), so that a what-if or a
 * delay that makes another rank arrive last still finds the collective's end after it. One rank
 * and no collective across ranks: the rank's own graph, not copied.
 */
class JoinedGraph {
public:
    /*!
     * \a graphs by rank index (null: a rank without a window); \a match over the same ranks.
     * \a copied, when given, is called with each rank whose edges were copied in (and are not
     * read again here): a caller that walks only the joined graph frees them there and then.
     */
    JoinedGraph(const std::vector<const PathGraph *> &graphs,
        const CollectiveMatch *match,
        PathModel model = PathModel::Hta,
        const std::function<void(uint32_t)> &copied = {});

    const PathDag &dag() const { return m_single ? *m_single : m_dag; }
    size_t rankCount() const { return m_graphs.size(); }
    uint32_t rankOfNode(uint32_t node) const;
    //! The rank of an edge (HTA's edges by index, then the step model's: stepEdgeIndex()).
    uint32_t rankOfEdge(uint32_t edge) const;
    //! The index rankOfEdge() takes for the step model's edge \a i of dag().stepEdges().
    uint32_t stepEdgeIndex(uint32_t i) const { return uint32_t(dag().edges().size()) + i; }
    const PathGraph *graph(uint32_t rank) const { return m_graphs[rank]; }
    //! The node of its rank's graph (times in that rank's model).
    const PathNode &node(uint32_t node) const;
    //! The joined index of \a rank's node \a local.
    uint32_t nodeOf(uint32_t rank, uint32_t local) const { return m_nodeBegin[rank] + local; }
    //! Joined indices of \a rank's nodes: [first, second).
    std::pair<uint32_t, uint32_t> nodesOf(uint32_t rank) const
    {
        return {m_nodeBegin[rank], m_nodeBegin[rank + 1]};
    }
    //! Index in match.collectives of the collective \a kernel of \a rank belongs to, -1 if none.
    int collectiveOf(uint32_t rank, SliceId kernel) const;

private:
    using WaitingSpans = std::map<std::pair<uint32_t, SliceId>, TimeNs>; //!< (rank, kernel) → work

    void join(
        const CollectiveMatch *match, PathModel model, const std::function<void(uint32_t)> &copied);
    //! Rank \a r's edges and step edges, each waiting span weighing its work or left out.
    void addRankEdges(uint32_t r, const WaitingSpans &waiting, PathModel model);

    std::vector<const PathGraph *> m_graphs;
    const PathDag *m_single = nullptr;
    PathDag m_dag;
    std::vector<uint32_t> m_nodeBegin; //!< per rank, and the total last
    std::vector<uint32_t> m_edgeBegin; //!< per rank, and the first edge across ranks last
    std::vector<uint32_t> m_stepEdgeBegin; //!< per rank, and the total last
    std::vector<uint32_t> m_acrossRank; //!< the rank of each edge across ranks (its end's)
    std::unordered_map<uint64_t, int> m_collective; //!< (rank << 32 | kernel) → collective
};

} // namespace ks
