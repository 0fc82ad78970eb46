// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"

#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

//! Index of a ModuleNode; kNoModule for none.
using ModuleId = uint32_t;
constexpr ModuleId kNoModule = std::numeric_limits<ModuleId>::max();

/*!
 * Where the time of one module path goes, over the whole trace or one ProfilerStep. "Self"
 * excludes the child modules, "total" includes them. GPU work is split into disjoint parts:
 * every GPU event is counted once, in one field of one node.
 */
struct ModuleTimes {
    uint32_t calls = 0; //!< module slices (calls) of this path
    TimeNs cpuTotal = 0; //!< summed durations of those slices
    TimeNs cpuSelf = 0; //!< … minus the durations of the child-module slices directly inside
    GpuTotals forwardSelf; //!< GPU work launched inside the slices, outside child modules
    GpuTotals forwardTotal;
    GpuTotals backwardSelf; //!< GPU work of backward nodes whose creator's innermost module is this
    GpuTotals backwardTotal; //!< … of nodes whose creator lies anywhere inside this module
    GpuTotals backwardOtherSelf; //!< AccumulateGrad work tied to this module (see ModuleTree)
    GpuTotals backwardOtherTotal;
    GpuTotals recomputeSelf; //!< this module's forward work re-run during backward (checkpointing)
    GpuTotals recomputeTotal;
    //! GPU work neither forward nor backward (optimizer, data loading) inside the module's calls;
    //! on the root also what no call holds, and GPU events whose launch is unknown.
    GpuTotals otherSelf;
    GpuTotals otherTotal;
};

//! One module path (aggregating every call of it) in the module tree.
struct ModuleNode {
    std::string name; //!< "Conv2d_0", an annotation name, an op name; "(all)" for the root
    std::string path; //!< "ResNet_0/Sequential_0/Conv2d_1"; empty for the root
    ModuleId parent = kNoModule;
    uint32_t depth = 0; //!< 0 for the root, 1 for top-level modules
    ModuleId subtreeEnd = 0; //!< nodes are in pre-order: the descendants are (id, subtreeEnd)
    std::vector<ModuleId> children; //!< in the order of their first call
    ModuleTimes times; //!< over the whole trace
};

/*!
 * "Where the time goes": a tree of module paths with forward and backward GPU time, built once
 * from a linked OpGraph. Node 0 is the root; its self times are what no module holds.
 *
 * Hierarchy (Source), first that applies:
 *  - Modules: `nn.Module: X` python_function slices (`with_stack` / `with_modules`) — the path
 *    is the chain of enclosing module slices on the thread (time nesting), labels without the
 *    "nn.Module: " prefix. A module called twice under the same parent is one node with two
 *    calls; a module shared by two parents appears under each parent (paths differ).
 *  - Annotations: `user_annotation` (record_function) scopes, except ProfilerStep#N, when at
 *    least one scope other than PyTorch's own (Optimizer.*, enumerate(DataLoader)*, nccl:*)
 *    contains a cpu_op.
 *  - OpNames: a flat tree of the outermost cpu_ops, one node per op name.
 * Scopes inside backward work (a backward node, its evaluate_function wrapper, AccumulateGrad,
 * hooks) are not calls: a module re-run there (activation checkpointing) is backward work.
 *
 * Charging, per GPU event (by its launch, docs/linking.md §7 steps 4–5; steps by the launch,
 * step 12):
 *  - launched inside a module call (innermost, and not inside backward work): forward of it;
 *  - inside a backward node (innermost node event or wrapper): backward of the innermost module
 *    around the node's forward creator; a creator that was itself re-run inside a backward node
 *    charges that node's module; unpaired nodes and creators outside modules charge the root;
 *  - inside a recomputed op (activation checkpointing, docs/recompute.md): recompute of the
 *    module being re-run — the module of the forward op the recomputation repeats, else the
 *    first module named like the innermost module inside the backward node, else the root;
 *  - inside AccumulateGrad: "backward other". The engine runs AccumulateGrad as soon as it is
 *    ready (its sequence_nr is UINT64_MAX, the highest priority: pytorch
 *    torch/csrc/autograd/functions/accumulate_grad.cpp), i.e. right after the node that
 *    produced the parameter's gradient (for a shared parameter, the last one), on its thread.
 *    So an AccumulateGrad event is tied to the module of the backward node whose event
 *    directly precedes it among its siblings (consecutive AccumulateGrads share it; runtime
 *    calls in between are skipped). Communication kernels (a DDP bucket holds many modules'
 *    gradients), GraphRoot, hooks and AccumulateGrads after anything else stay on the root;
 *  - anywhere else: the root's forward self when launched inside a paired forward op
 *    (gpuSideOf() == Forward), else the root's `other`.
 */
class ModuleTree {
public:
    enum class Source : uint8_t {
        Modules, //!< `nn.Module:` python_function slices
        Annotations, //!< user_annotation / record_function scopes
        OpNames, //!< no scopes: the outermost ops by name (a flat tree)
    };
    //! "modules", "annotations", "op_names".
    static std::string_view sourceName(Source source);
    //! A sentence for the UI saying where the hierarchy came from.
    static std::string_view sourceDescription(Source source);
    //! The source build() picks for \a graph when none is forced.
    static Source detectSource(const OpGraph &graph);

    //! Builds the tree; \a source forces a hierarchy (tests, a UI choice), else detectSource().
    static std::unique_ptr<ModuleTree> build(
        const OpGraph &graph, std::optional<Source> source = std::nullopt);

    //! What roleOf() says about a slice.
    enum class Role : uint8_t { None, Forward, Backward, BackwardOther };
    static constexpr int kWholeTrace = -1;

    const OpGraph &graph() const { return m_graph; }
    Source source() const { return m_source; }
    //! All nodes in pre-order; [0] is the root.
    const std::vector<ModuleNode> &nodes() const { return m_nodes; }
    const ModuleNode &node(ModuleId id) const { return m_nodes[id]; }
    //! The node with \a path ("" is the root), kNoModule if none.
    ModuleId find(std::string_view path) const;

    //! The steps, as OpGraph::steps(); a step index below is an index into this.
    const std::vector<ProfilerStep> &steps() const { return m_graph.steps(); }
    //! Index of ProfilerStep#\a number in steps(), -1 if none.
    int stepIndex(int64_t number) const;
    /*!
     * Times of \a id over step \a stepIndex, or the whole trace (kWholeTrace). Calls and CPU time
     * go to the step where the module slice starts, GPU work to the step of its launch; work
     * outside every step is only in the whole-trace times.
     */
    const ModuleTimes &times(ModuleId id, int stepIndex = kWholeTrace) const;

    /*!
     * What makes a node up, for highlighting, each in time order per node (descendants follow
     * their ancestors' lists in pre-order, so \a withDescendants is one range too).
     */
    //! Its module slices (calls).
    std::span<const SliceId> forwardSlices(ModuleId id, bool withDescendants = false) const;
    //! Indices into graph().nodes() of the backward nodes charged to it.
    std::span<const uint32_t> backwardNodes(ModuleId id, bool withDescendants = false) const;
    //! Outermost AccumulateGrad (backward-other) events tied to it; on the root, the untied ones.
    std::span<const SliceId> backwardOtherSlices(ModuleId id, bool withDescendants = false) const;
    //! All of the above as slices (backward nodes as their outermost event), sorted by id.
    std::vector<SliceId> highlightSlices(ModuleId id, bool withDescendants = false) const;

    /*!
     * The node charged with \a slice and in which role, O(1): a host slice inside a module call
     * (Forward), a backward node (Backward) or AccumulateGrad/other backward work
     * (BackwardOther) — the root (0) when that work is charged to no module; a GPU event as its
     * launch, plus the root's forward and "other" shares. Host slices outside all of these:
     * kNoModule / Role::None.
     */
    ModuleId nodeOf(SliceId slice) const;
    Role roleOf(SliceId slice) const;

private:
    explicit ModuleTree(const OpGraph &graph, Source source);
    // The build, phase by phase (moduletreebuild.cpp).
    struct Build;
    void scanSlices(Build &b); //!< slice contexts, module paths and calls
    void orderNodes(Build &b); //!< pre-order, children in the order of their first call
    void chargeBackwardNodes(Build &b);
    void tieBackwardOther(Build &b); //!< AccumulateGrad → the module of the node before it
    void chargeRecompute(Build &b);
    void countSelfTimes(Build &b);
    void rollUpTotals(Build &b);
    void groupHighlights(Build &b);
    void resolveOwners(Build &b); //!< owners become module ids

    const OpGraph &m_graph;
    Source m_source;
    std::vector<ModuleNode> m_nodes;
    std::vector<ModuleId> m_byPath; //!< node ids sorted by path, for find()
    //! Per slice: role (top 2 bits) and node (low 30 bits).
    std::vector<uint32_t> m_owner;

    // Per-step times, sorted by (node, step index); node i's are [m_stepBegin[i],
    // m_stepBegin[i+1]).
    std::vector<int> m_stepOfEntry;
    std::vector<ModuleTimes> m_stepTimes;
    std::vector<uint32_t> m_stepBegin;

    // Highlight lists, grouped by node in pre-order: node i's are [begin[i], begin[i+1]).
    std::vector<SliceId> m_forwardSlices;
    std::vector<uint32_t> m_forwardBegin;
    std::vector<uint32_t> m_backwardNodes;
    std::vector<uint32_t> m_backwardBegin;
    std::vector<SliceId> m_otherSlices;
    std::vector<uint32_t> m_otherBegin;
};

} // namespace ks
