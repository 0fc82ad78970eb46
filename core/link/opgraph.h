// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

namespace ks {

//! How a backward node was tied to the forward op that created it.
enum class LinkMethod : uint8_t {
    None, //!< the forward op is not in the trace
    Flow, //!< a `fwdbwd` (or 1.10 `forward_backward`) flow
    Sequence, //!< the (Fwd thread id, Sequence number) fallback
};

std::string_view linkMethodName(LinkMethod method);

//! An autograd node event on a backward thread (`ConvolutionBackward0`, …).
struct BackwardNode {
    SliceId node = kNoSlice; //!< the node event itself
    SliceId outer = kNoSlice; //!< its `evaluate_function` wrapper, or the node if none
    SliceId creator = kNoSlice; //!< the forward op that created it (kNoSlice when unpaired)
    LinkMethod method = LinkMethod::None;
    uint32_t row = 0; //!< index of its PairRow
};

//! GPU work counted over a set of events.
struct GpuTotals {
    uint32_t count = 0;
    TimeNs time = 0; //!< summed durations (not an interval union)
    GpuTotals &operator+=(const GpuTotals &o)
    {
        count += o.count;
        time += o.time;
        return *this;
    }
    //! \a o must be a part of this.
    GpuTotals operator-(const GpuTotals &o) const { return {count - o.count, time - o.time}; }
};

/*!
 * Forward work re-run inside a backward node (activation checkpointing, docs/recompute.md): the
 * outermost op with a sequence number inside a node event, with everything below it.
 */
struct Recomputation {
    SliceId op = kNoSlice; //!< the recomputed op
    uint32_t hostNode = 0; //!< index into OpGraph::nodes(): the innermost node it ran in
    SliceId original = kNoSlice; //!< the forward op it repeats, kNoSlice if none was found
    uint32_t candidates = 0; //!< originals its (step, key) group had: more than 1 is ambiguous
    GpuTotals gpu; //!< GPU work launched inside it
};

/*!
 * One row of the pair table: a display-level forward op (the outermost op the user called,
 * e.g. `aten::linear`) with every backward node created inside it, or one backward node whose
 * forward op is missing (forward == kNoSlice).
 */
struct PairRow {
    SliceId forward = kNoSlice;
    uint32_t firstNode = 0; //!< nodes are OpGraph::rowNodes()[firstNode, firstNode + nodeCount)
    uint32_t nodeCount = 0;
    LinkMethod link
        = LinkMethod::None; //!< Flow if every node came by flow, Sequence if any by fallback
    bool recompute = false; //!< forward op re-run inside a backward node (activation checkpointing)
    GpuTotals forwardGpu; //!< GPU work launched inside the forward op's subtree
    GpuTotals backwardGpu; //!< GPU work launched inside its nodes' outermost events, but not
                           //!< inside recomputed ops there
    GpuTotals recomputeGpu; //!< GPU work of the recomputed ops inside its nodes' outermost events
    GpuTotals recomputedGpu; //!< GPU work of the recomputations of ops inside its forward op
    uint32_t recomputations = 0; //!< how many recomputations repeat ops inside its forward op
    TimeNs backwardDur = 0; //!< summed durations of its nodes' outermost events
    int64_t step = kNoValue; //!< N of the ProfilerStep#N containing the forward op (node if none)
    SliceId module = kNoSlice; //!< innermost `nn.Module:` python_function around the forward op
    TimeNs sortTime = 0; //!< start of the forward op, or of the first node for unpaired rows
};

struct ProfilerStep {
    int64_t number = 0;
    SliceId slice = kNoSlice;
    TimeNs start = 0;
    TimeNs end = 0;
};

struct LinkOptions {
    //! Use `fwdbwd` flows when present; false forces the sequence-number fallback (tests).
    bool useFlows = true;
};

struct LinkStats {
    uint64_t gpuEvents = 0;
    uint64_t gpuEventsWithLaunch = 0;
    uint64_t gpuEventsAttributed = 0; //!< launching host op found
    uint64_t communicationGpuEvents = 0;
    uint64_t backwardNodes = 0;
    uint64_t pairsFromFlows = 0;
    uint64_t pairsFromSequence = 0;
    uint64_t unpairedBackward = 0;
    uint64_t recomputeRows = 0;
    uint64_t recomputedOps = 0; //!< Recomputation records
    TimeNs recomputeGpuTime = 0; //!< GPU time of all of them, each event once
    bool doubleBackward = false; //!< numbered ops in backward are create_graph work, not recompute
    bool hasSequenceNumbers = false;
    //! Comparisons made by the sequence-number fallback: its cost, O(n log n) on any input.
    uint64_t pairingSteps = 0;
    //! Cross-check: nodes paired by flow that the fallback alone pairs the same way.
    uint64_t flowPairsCheckedBySequence = 0;
    uint64_t flowPairsAgreeingWithSequence = 0;
    uint64_t pairs() const { return pairsFromFlows + pairsFromSequence; }
};

/*!
 * The linked op graph of a trace (trace-format.md §9): GPU events → runtime launch → host op,
 * backward node → forward creator, both rolled up to display-level pair rows with GPU time,
 * steps and modules. Built once after loading; every query is O(log n) or O(depth).
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
    const std::vector<SliceId> &gpuEvents() const { return m_gpuEvents; }
    //! Index of \a gpuEvent in gpuEvents(), or -1.
    int gpuIndex(SliceId gpuEvent) const;
    //! The runtime/driver call that launched \a gpuEvent, kNoSlice if unknown.
    SliceId launchOf(SliceId gpuEvent) const;
    //! The host op that launched \a gpuEvent (§9 step 5), kNoSlice if unattributed.
    SliceId launchingOp(SliceId gpuEvent) const;
    //! GPU events launched from inside \a slice's subtree (its own launches included).
    std::span<const SliceId> gpuEventsUnder(SliceId slice) const;
    GpuTotals gpuTotalsUnder(SliceId slice) const;
    static bool isCommunication(std::string_view kernelName);

    // Forward ↔ backward
    const std::vector<BackwardNode> &nodes() const { return m_nodes; }
    const std::vector<PairRow> &rows() const { return m_rows; }
    //! Node indices of every row, grouped by row in time order (see PairRow::firstNode).
    const std::vector<uint32_t> &rowNodes() const { return m_rowNodes; }
    std::span<const uint32_t> nodesOf(const PairRow &row) const;
    //! The row whose forward op or backward node contains \a slice (walking up), or -1.
    //! For a GPU event, the row of its launch.
    int rowOf(SliceId slice) const;
    //! True when \a slice lies in the forward part of its row (false: backward part).
    bool isForwardSide(SliceId slice) const;
    //! Forward op → its backward node events; backward node (or anything inside) → forward op.
    std::vector<SliceId> counterparts(SliceId slice) const;
    //! The node record of a node event or its wrapper, or -1.
    int nodeOf(SliceId slice) const;
    bool isBackwardNode(SliceId slice) const { return nodeOf(slice) >= 0; }
    static bool isEvaluateWrapper(std::string_view name);
    //! GraphRoot, AccumulateGrad and backward hooks: backward work that no forward op created.
    static bool isUnpairedBackwardWork(std::string_view name);

    // Recompute (activation checkpointing)
    //! Every recomputed op, ordered by slice (their subtrees do not overlap).
    const std::vector<Recomputation> &recomputations() const { return m_recomputations; }
    //! The recomputation whose op is or contains \a slice (a GPU event: its launch), or -1.
    int recomputationOf(SliceId slice) const;
    //! GPU work of the recomputed ops inside \a slice's subtree.
    GpuTotals recomputeGpuUnder(SliceId slice) const;
    //! Indices of the recomputations that repeat \a forwardOp itself, in the order they ran.
    std::vector<uint32_t> recomputationsRepeating(SliceId forwardOp) const;

    // Steps and modules
    const std::vector<ProfilerStep> &steps() const { return m_steps; }
    //! N of the step containing \a t, kNoValue if none.
    int64_t stepAt(TimeNs t) const;
    //! Innermost `nn.Module:` python_function slice around \a slice, kNoSlice if none.
    SliceId moduleOf(SliceId slice) const;

private:
    explicit OpGraph(const TraceModel &model);
    void attributeGpu();
    void findNodes();
    void pairByFlows();
    void pairBySequence(bool crossCheckOnly);
    void buildRows();
    void findSteps();
    // recompute.cpp
    void findRecomputations();
    void matchRecomputations(const std::vector<uint32_t> &context);
    void indexRecomputeGpu();
    struct Recomputed {
        uint32_t count = 0; //!< recomputations
        GpuTotals gpu;
    };
    //! The recomputations whose original lies inside \a forwardOp's subtree.
    Recomputed recomputedUnder(SliceId forwardOp) const;

    SliceId innermostCpuOp(SliceId slice) const;
    SliceId displayOp(SliceId creator, bool &recompute) const;

    const TraceModel &m_model;
    LinkStats m_stats;
    Diagnostics m_diagnostics;

    std::vector<SliceId> m_gpuEvents;
    std::vector<SliceId> m_launch; //!< parallel to m_gpuEvents
    std::vector<SliceId> m_launchingOp; //!< parallel to m_gpuEvents
    // GPU events sorted by launch slice, with prefix sums, for subtree queries.
    std::vector<SliceId> m_launchSorted;
    std::vector<SliceId> m_gpuByLaunch;
    std::vector<TimeNs> m_prefixTime;

    std::vector<BackwardNode> m_nodes;
    std::unordered_map<SliceId, uint32_t> m_nodeBySlice; //!< node events and their wrappers
    std::vector<PairRow> m_rows;
    std::vector<uint32_t> m_rowNodes;
    std::unordered_map<SliceId, uint32_t> m_rowByForward;

    std::vector<ProfilerStep> m_steps;
    std::vector<Recomputation> m_recomputations;
    std::vector<GpuTotals> m_recomputePrefix; //!< prefix sums of m_recomputations' GPU work
    //! (original, recomputation) sorted, with prefix sums of the recomputations' GPU work.
    std::vector<std::pair<SliceId, uint32_t>> m_byOriginal;
    std::vector<GpuTotals> m_byOriginalPrefix;
    LinkOptions m_options;
};

} // namespace ks
