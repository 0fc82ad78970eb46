// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opefficiency.h"
#include "analysis/modules/moduletree.h"

namespace ks {

/*!
 * The FLOPs of the outermost modelled ops (OpEfficiency) charged to each module, child modules
 * included, forward and backward, over the whole trace and per step: a module's achieved rate is
 * its FLOPs over its GPU time (ModuleTimes::forwardTotal / backwardTotal), as the module table's
 * fwd_tflops and bwd_tflops and the Modules view show it. An op goes to the module and side
 * ModuleTree::nodeOf() and roleOf() give it (an attention backward worked out from its forward
 * op: its backward node's), to the step where it starts.
 */
class ModuleFlops {
public:
    ModuleFlops(const ModuleTree &tree, const OpEfficiency &efficiency);

    //! False when no modelled op is charged to any module (no shapes): the rates say nothing.
    bool modelled() const { return m_modelled; }
    //! TFLOP/s of module \a id in step \a stepIndex (or ModuleTree::kWholeTrace), forward or
    //! backward; nullopt without modelled FLOPs or GPU time.
    std::optional<double> tflopsPerS(ModuleId id, int stepIndex, bool forward) const;

private:
    const ModuleTree &m_tree;
    bool m_modelled = false;
    //! Per (step slot, node): slot 0 the whole trace, slot si + 1 step si; forward, backward.
    std::vector<std::pair<double, double>> m_flops;
};

} // namespace ks
