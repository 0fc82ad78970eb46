// SPDX-License-Identifier: MIT
#include "analysis/modules/moduleflops.h"

namespace ks {

ModuleFlops::ModuleFlops(const ModuleTree &tree, const OpEfficiency &efficiency)
    : m_tree(tree)
{
    const size_t nodes = tree.nodes().size();
    const size_t slots = tree.steps().size() + 1;
    m_flops.assign(slots * nodes, {0.0, 0.0});
    const OpGraph &g = tree.graph();
    for (const OpInstance &in : efficiency.instances()) {
        if (!in.outermost)
            continue;
        // An attention backward worked out from its forward op is its backward node's work.
        const SliceId where = in.fromForwardShapes ? g.firstNode(g.rows()[size_t(in.row)]) : in.op;
        const ModuleId id = tree.nodeOf(where);
        const ModuleTree::Role role = tree.roleOf(where);
        if (id == kNoModule
            || (role != ModuleTree::Role::Forward && role != ModuleTree::Role::Backward))
            continue;
        const bool forward = role == ModuleTree::Role::Forward;
        const int step = g.stepIndexAt(g.model().slices.start[where]);
        for (const size_t slot : {size_t(0), step >= 0 ? size_t(step) + 1 : size_t(0)}) {
            auto &f = m_flops[slot * nodes + id];
            (forward ? f.first : f.second) += in.work.flops;
            if (step < 0)
                break; // outside every step: the whole trace only
        }
        m_modelled = true;
    }
    // Children into parents: nodes are in pre-order, so a reverse walk sees children first.
    for (size_t slot = 0; slot < slots; ++slot) {
        for (ModuleId id = ModuleId(nodes); id-- > 1;) {
            const ModuleId parent = tree.node(id).parent;
            m_flops[slot * nodes + parent].first += m_flops[slot * nodes + id].first;
            m_flops[slot * nodes + parent].second += m_flops[slot * nodes + id].second;
        }
    }
}

std::optional<double> ModuleFlops::tflopsPerS(ModuleId id, int stepIndex, bool forward) const
{
    const size_t slot = stepIndex == ModuleTree::kWholeTrace ? 0 : size_t(stepIndex) + 1;
    const auto &f = m_flops[slot * m_tree.nodes().size() + id];
    const ModuleTimes &t = m_tree.times(id, stepIndex);
    const double flops = forward ? f.first : f.second;
    const TimeNs time = forward ? t.forwardTotal.time : t.backwardTotal.time;
    if (flops <= 0 || time <= 0)
        return std::nullopt;
    return flops / 1e12 / (double(time) / 1e9);
}

} // namespace ks
