// SPDX-License-Identifier: MIT
#pragma once

#include "link/autogradpairing.h"
#include "link/gpuattribution.h"
#include "link/pairrows.h"
#include "link/recompute.h"
#include "link/stepindex.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ks {

/*!
 * The linked op graph of a trace (docs/linking.md): GPU events → runtime launch → host op
 * (GpuAttribution), backward node → forward creator (AutogradPairing), forward work re-run in
 * backward (Recomputations), all rolled up to display-level pair rows with GPU time (PairRows),
 * steps (StepIndex) and modules. Built once after loading, then only read; every query is
 * O(log n) or O(depth).
 */
class OpGraph {
public:
    static std::unique_ptr<OpGraph> build(const TraceModel &model, const LinkOptions &options = {});

    const TraceModel &model() const { return m_model; }
    const LinkStats &stats() const { return m_stats; }
    //! What linking found odd (flows that join the wrong ops, disagreements, …).
    const Diagnostics &diagnostics() const { return m_diagnostics; }

    // GPU attribution
    //! All GPU work events (kernels, memcpys, memsets), in slice order.
    const std::vector<SliceId> &gpuEvents() const { return m_gpu->gpuEvents(); }
    //! The runtime/driver call that launched \a gpuEvent, kNoSlice if unknown.
    SliceId launchOf(SliceId gpuEvent) const { return m_gpu->launchOf(gpuEvent); }
    //! launchOf() of each of gpuEvents(), in the same order (no search: for passes over all).
    const std::vector<SliceId> &gpuLaunches() const { return m_gpu->launches(); }
    //! The host op that launched \a gpuEvent (step 5), kNoSlice if unattributed.
    SliceId launchingOp(SliceId gpuEvent) const { return m_gpu->launchingOp(gpuEvent); }
    /*!
     * What \a gpuEvent ran under, for a person: its launchingOp(); else (no op around the launch:
     * a CUDA/HIP graph replay from Python) the innermost host event of any kind around its
     * launch, a `user_annotation` or `python_function`; else the GPU annotation around the
     * event itself; kNoSlice when there is none.
     */
    SliceId launchScope(SliceId gpuEvent) const;
    //! What a GPU event ran under: a slice, or the annotation PyTorch gave its graph node.
    struct RanUnder {
        SliceId slice = kNoSlice;
        std::string_view annotation; //!< set (and slice kNoSlice) for an annotated graph node
    };
    /*!
     * launchScope(), except that a graph node no op launched belongs to its annotation where
     * PyTorch's exporter gave it one (torch.cuda.graph_annotations: the kernel's `args.name`).
     */
    RanUnder ranUnder(SliceId gpuEvent) const;
    //! GPU events launched from inside \a slice's subtree (its own launches included).
    std::span<const SliceId> gpuEventsUnder(SliceId slice) const
    {
        return m_gpu->eventsUnder(slice);
    }
    GpuTotals gpuTotalsUnder(SliceId slice) const { return m_gpu->totalsUnder(slice); }

    // Forward ↔ backward
    const std::vector<BackwardNode> &nodes() const { return m_pairing->nodes(); }
    const std::vector<PairRow> &rows() const { return m_rows->rows(); }
    //! Node indices of every row, grouped by row in time order (see PairRow::firstNode).
    const std::vector<uint32_t> &rowNodes() const { return m_rows->rowNodes(); }
    std::span<const uint32_t> nodesOf(const PairRow &row) const;
    //! The first backward node event of \a row (in time order), kNoSlice when it has none.
    SliceId firstNode(const PairRow &row) const;
    //! Appends \a row's backward node names in time order, ';'-joined (`bwd_names`).
    void appendNodeNames(const PairRow &row, std::string &out) const;
    /*!
     * The event that stands for \a row where one is selected, framed or named: its forward op,
     * else (a backward node whose forward op is not in the trace) its first backward node.
     */
    SliceId representativeSlice(const PairRow &row) const;
    struct RowSide {
        int row = -1;
        bool forward = false;
    };
    //! rowOf() and isForwardSide() in one walk up.
    RowSide rowSideOf(SliceId slice) const;
    //! The row whose forward op or backward node contains \a slice (walking up), or -1.
    //! For a GPU event, the row of its launch.
    int rowOf(SliceId slice) const { return rowSideOf(slice).row; }
    //! True when \a slice lies in the forward part of its row (false: backward part).
    bool isForwardSide(SliceId slice) const { return rowSideOf(slice).forward; }
    //! Forward op → its backward node events; backward node (or anything inside) → forward op.
    std::vector<SliceId> counterparts(SliceId slice) const;
    //! The node record of a node event or its wrapper, or -1.
    int nodeOf(SliceId slice) const { return m_pairing->nodeOf(slice); }
    bool isBackwardNode(SliceId slice) const { return nodeOf(slice) >= 0; }
    //! A host thread that runs backward: it has node events, evaluate_function wrappers or ops
    //! named like nodes (which is all a trace without sequence numbers says).
    bool isBackwardThread(LaneId lane) const { return m_backwardLanes[lane]; }
    //! An autograd engine's thread: a backward thread that runs no pair's forward op (not the
    //! main thread of a trace whose backward runs there).
    bool isAutogradThread(LaneId lane) const { return m_autogradLanes[lane]; }

    // Recompute (activation checkpointing, docs/recompute.md)
    //! Every recomputed op, ordered by slice (their subtrees do not overlap).
    const std::vector<Recomputation> &recomputations() const { return m_recompute->all(); }
    //! The recomputation whose op is or contains \a slice (a GPU event: its launch), or -1.
    int recomputationOf(SliceId slice) const;
    //! Indices of the recomputations that repeat \a forwardOp itself, in the order they ran.
    std::vector<uint32_t> recomputationsRepeating(SliceId forwardOp) const
    {
        return m_recompute->repeating(forwardOp);
    }

    // Steps and modules
    const std::vector<ProfilerStep> &steps() const { return m_steps->steps(); }
    //! N of the step containing \a t, kNoValue if none.
    int64_t stepAt(TimeNs t) const { return m_steps->stepAt(t); }
    //! Index into steps() of the step containing \a t, -1 if none.
    int stepIndexAt(TimeNs t) const { return m_steps->stepIndexAt(t); }
    //! Innermost `nn.Module:` python_function slice around \a slice, kNoSlice if none.
    SliceId moduleOf(SliceId slice) const { return moduleAround(m_model, slice); }

private:
    explicit OpGraph(const TraceModel &model);
    void findBackwardThreads();

    const TraceModel &m_model;
    LinkStats m_stats;
    Diagnostics m_diagnostics;
    // Built in this order; optional only because two of them are built on different threads.
    std::optional<GpuAttribution> m_gpu;
    std::optional<StepIndex> m_steps;
    std::optional<AutogradPairing> m_pairing;
    std::optional<Recomputations> m_recompute;
    std::optional<PairRows> m_rows;
    std::vector<bool> m_backwardLanes;
    std::vector<bool> m_autogradLanes;
};

} // namespace ks
