// SPDX-License-Identifier: MIT
#pragma once
// The values the linker produces (docs/linking.md §7).

#include "model/tracemodel.h"

#include <string_view>

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
    //! A file of a GPU run (runtime calls, or `deviceProperties` in its header) read only in part
    //! (cut off, or a syntax error mid-file) none of whose GPU events survived (the profiler
    //! writes them after the host's): its GPU times are unknown, not zero.
    bool gpuCutOff = false;
    uint64_t launchesCutOff = 0; //!< calls that put work on a stream there, if gpuCutOff

    //! Comparisons made by the sequence-number fallback: its cost, O(n log n) on any input.
    uint64_t pairingSteps = 0;
    //! Cross-check: nodes paired by flow that the fallback alone pairs the same way.
    uint64_t flowPairsCheckedBySequence = 0;
    uint64_t flowPairsAgreeingWithSequence = 0;
    uint64_t pairs() const { return pairsFromFlows + pairsFromSequence; }
};

} // namespace ks
