// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/memory/pairmemory.h"
#include "analysis/modules/moduletree.h"

#include <vector>

namespace ks {

/*!
 * The memory of the pair rows (pairMemory()) summed per module, child modules included, over the
 * whole trace and per step: which layers hold the most activation memory for their backward. A
 * row belongs to the module moduleOfRow() gives it, as in the comparison. Held bytes are a
 * footprint, not a flow: over the whole trace of a trace with steps, a module's are its largest
 * step's (rows outside every step counting as one), never the steps' sum.
 */
class ModuleMemory {
public:
    //! \a rows: one per pair row of \a tree's graph; empty when the trace has no memory events.
    ModuleMemory(const ModuleTree &tree, const std::vector<PairMemory> &rows);

    //! False when the trace has no memory events (every value would be 0).
    bool recorded() const { return !m_memory.empty(); }
    //! Module \a id in step \a stepIndex (index into ModuleTree::steps(), or kWholeTrace).
    const PairMemory &of(ModuleId id, int stepIndex) const;

private:
    //! Over the whole trace, held bytes become the largest of the \a steps' and \a outside's.
    void keepLargestStepHeld(size_t steps, const std::vector<PairMemory> &outside);

    size_t m_nodes;
    //! Per (step slot, node): slot 0 the whole trace, slot si + 1 step si. Empty without memory.
    std::vector<PairMemory> m_memory;
};

} // namespace ks
