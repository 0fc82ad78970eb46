// SPDX-License-Identifier: MIT
#pragma once

#include "link/autogradpairing.h"
#include "link/gpuattribution.h"
#include "link/recompute.h"
#include "link/stepindex.h"

#include <span>
#include <vector>

namespace ks {

/*!
 * The rows of the pair table (docs/linking.md, steps 10 and 11): each paired node's creator rolled
 * up to the display-level forward op the user called, that op's backward nodes and both sides'
 * GPU time, plus one row per node whose forward op is missing. Rows are ordered by their first
 * event.
 */
class PairRows {
public:
    struct Stats {
        uint64_t unpairedBackward = 0;
        uint64_t recomputeRows = 0;
    };

    //! Sets BackwardNode::row of every node of \a pairing.
    PairRows(const TraceModel &model,
        AutogradPairing &pairing,
        const GpuAttribution &gpu,
        const Recomputations &recomputations,
        const StepIndex &steps);

    const Stats &stats() const { return m_stats; }
    const std::vector<PairRow> &rows() const { return m_rows; }
    //! Node indices of every row, grouped by row in time order (see PairRow::firstNode).
    const std::vector<uint32_t> &rowNodes() const { return m_rowNodes; }
    //! The row whose display-level forward op is \a slice, or -1.
    int rowOfForward(SliceId slice) const;

private:
    SliceId displayOp(const AutogradPairing &pairing, SliceId creator, bool &recompute) const;

    const TraceModel &m_model;
    Stats m_stats;
    std::vector<PairRow> m_rows;
    std::vector<uint32_t> m_rowNodes;
    SliceIndexMap m_rowByForward;
};

//! Innermost `nn.Module:` python_function slice around \a slice, kNoSlice if none.
SliceId moduleAround(const TraceModel &model, SliceId slice);

} // namespace ks
