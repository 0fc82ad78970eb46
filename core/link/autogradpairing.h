// SPDX-License-Identifier: MIT
#pragma once

#include "base/sliceindexmap.h"
#include "link/linktypes.h"

#include <vector>

namespace ks {

/*!
 * Backward node → the forward op that created it (docs/linking.md, steps 6 to 8): the node
 * events, then `fwdbwd` flows by exact endpoints, then the (Fwd thread id, Sequence number)
 * fallback for the nodes flows did not pair. Pairs are node records; rows come later (PairRows).
 */
class AutogradPairing {
public:
    struct Stats {
        uint64_t backwardNodes = 0;
        uint64_t pairsFromFlows = 0;
        uint64_t pairsFromSequence = 0;
        bool hasSequenceNumbers = false;
        //! Comparisons made by the sequence-number fallback: its cost, O(n log n) on any input.
        uint64_t pairingSteps = 0;
        //! Cross-check: nodes paired by flow that the fallback alone pairs the same way.
        uint64_t flowPairsCheckedBySequence = 0;
        uint64_t flowPairsAgreeingWithSequence = 0;
    };

    AutogradPairing(const TraceModel &model, const LinkOptions &options);

    const Stats &stats() const { return m_stats; }
    const Diagnostics &diagnostics() const { return m_diagnostics; }
    const std::vector<BackwardNode> &nodes() const { return m_nodes; }
    std::vector<BackwardNode> &nodes() { return m_nodes; } //!< rows fill in BackwardNode::row
    //! The node record of a node event or its wrapper, or -1.
    int nodeOf(SliceId slice) const;

private:
    void findNodes();
    void pairByFlows();
    void pairBySequence(bool crossCheckOnly);

    const TraceModel &m_model;
    Stats m_stats;
    Diagnostics m_diagnostics;
    std::vector<BackwardNode> m_nodes;
    SliceIndexMap m_nodeBySlice; //!< node events and their wrappers
};

} // namespace ks
