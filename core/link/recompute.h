// SPDX-License-Identifier: MIT
#pragma once

#include "link/autogradpairing.h"
#include "link/stepindex.h"

#include <vector>

namespace ks {

class GpuAttribution;

/*!
 * Forward work re-run inside backward nodes (activation checkpointing, docs/recompute.md): the
 * recomputed ops, which forward op each repeats, and their GPU work.
 */
class Recomputations {
public:
    struct Stats {
        uint64_t recomputedOps = 0;
        TimeNs gpuTime = 0; //!< GPU time of all of them, each event once
        bool doubleBackward = false; //!< numbered ops in backward are create_graph work
    };
    //! The recomputations of ops inside one forward op's subtree.
    struct Repeated {
        uint32_t count = 0;
        GpuTotals gpu;
    };

    Recomputations(const TraceModel &model, const AutogradPairing &pairing, const StepIndex &steps);
    //! Adds the GPU work of each recomputation (the attribution runs beside the pairing).
    void countGpu(const GpuAttribution &gpu);

    const Stats &stats() const { return m_stats; }
    const Diagnostics &diagnostics() const { return m_diagnostics; }
    //! Ordered by slice (their subtrees do not overlap).
    const std::vector<Recomputation> &all() const { return m_all; }
    //! The recomputation whose op is or contains the host slice \a slice, or -1.
    int of(SliceId slice) const;
    //! GPU work of the recomputed ops inside \a slice's subtree.
    GpuTotals gpuUnder(SliceId slice) const;
    //! The recomputations whose original lies inside \a forwardOp's subtree.
    Repeated repeatedUnder(SliceId forwardOp) const;
    //! Indices of the recomputations that repeat \a forwardOp itself, in the order they ran.
    std::vector<uint32_t> repeating(SliceId forwardOp) const;

private:
    void find(const AutogradPairing &pairing, std::vector<uint32_t> &context);
    void match(const AutogradPairing &pairing,
        const StepIndex &steps,
        const std::vector<uint32_t> &context);

    const TraceModel &m_model;
    Stats m_stats;
    Diagnostics m_diagnostics;
    std::vector<Recomputation> m_all;
    std::vector<GpuTotals> m_prefix; //!< prefix sums of m_all's GPU work
    //! (original, recomputation) sorted, with prefix sums of the recomputations' GPU work.
    std::vector<std::pair<SliceId, uint32_t>> m_byOriginal;
    std::vector<GpuTotals> m_byOriginalPrefix;
};

} // namespace ks
