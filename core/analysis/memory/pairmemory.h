// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/memory/memoryindex.h"

#include <string>
#include <vector>

namespace ks {

//! Who frees the bytes a forward op holds for backward (PairMemory::heldUntil).
struct Freer {
    enum Kind : uint8_t {
        Nothing, //!< nothing held
        Node, //!< a backward node, named by name
        Optimizer, //!< under an `Optimizer.…#…` annotation
        Never, //!< still allocated at the end of the trace
        Op, //!< another op, named by name
        Other, //!< outside every op
    };
    Kind kind = Nothing;
    StringId name = 0;
    bool operator==(const Freer &) const = default;
};
//! `held_until`'s text: the node or op name, "optimizer", "never", "other"; empty for Nothing.
std::string heldUntilText(const TraceModel &model, Freer until);

//! What a pair row's ops allocate (bytes of `[memory]` allocations, any device).
struct PairMemory {
    int64_t forwardAllocated = 0; //!< inside the forward op's subtree
    /*!
     * Of those, still allocated when the backward pass the op feeds starts: the first backward
     * node of any row starting at or after the forward op ends (never freed included). Summed
     * over a step, with what ops outside any pair leave, it is the memory the forward pass hands
     * to backward. kNoValue where a free cannot be matched (no `Addr`): never a guess.
     */
    int64_t held = 0;
    Freer heldUntil; //!< who frees most of the held bytes
    int64_t backwardAllocated = 0; //!< inside its backward nodes
};
//! One per pair row of the index's graph (all zero when the trace has no memory events).
std::vector<PairMemory> pairMemory(const MemoryIndex &index);

//! Where the backward pass that forward work feeds starts.
class BackwardPasses {
public:
    explicit BackwardPasses(const OpGraph &graph);
    /*!
     * The start of the backward pass that forward work ending at \a t feeds: the first backward
     * node (its evaluate_function wrapper where it has one) starting at or after \a t; kNoValue
     * if none does.
     */
    TimeNs startAfter(TimeNs t) const;

private:
    std::vector<TimeNs> m_starts; //!< of every backward node, sorted
};

} // namespace ks
