// SPDX-License-Identifier: MIT
#include "analysis/memory/modulememory.h"

#include "analysis/modules/modulepaths.h"
#include "base/saturating.h"

#include <algorithm>

namespace ks {

namespace {
void add(PairMemory &to, const PairMemory &from)
{
    addSaturating(to.forwardAllocated, from.forwardAllocated);
    // Unknown anywhere (no `Addr`) is unknown in the sum.
    to.held = to.held == kNoValue || from.held == kNoValue ? kNoValue
                                                           : saturatingAdd(to.held, from.held);
    addSaturating(to.backwardAllocated, from.backwardAllocated);
}
} // namespace

ModuleMemory::ModuleMemory(const ModuleTree &tree, const std::vector<PairMemory> &rows)
    : m_nodes(tree.nodes().size())
{
    if (rows.empty())
        return;
    m_memory.assign((tree.steps().size() + 1) * m_nodes, PairMemory {});
    // What rows outside every step hold: a step of their own for the whole trace's held bytes.
    std::vector<PairMemory> outside(m_nodes);
    const OpGraph &g = tree.graph();
    for (size_t r = 0; r < rows.size(); ++r) {
        const PairRow &row = g.rows()[r];
        const ModuleId held = moduleOfRow(tree, row);
        const int si = row.step == kNoValue ? -1 : tree.stepIndex(row.step);
        PairMemory *step = si >= 0 ? &m_memory[size_t(si + 1) * m_nodes] : outside.data();
        // A row's bytes count for its module and every module around it (totals).
        for (ModuleId id = held == kNoModule ? 0 : held;; id = tree.node(id).parent) {
            add(m_memory[id], rows[r]);
            add(step[id], rows[r]);
            if (id == 0)
                break;
        }
    }
    if (!tree.steps().empty())
        keepLargestStepHeld(tree.steps().size(), outside);
}

void ModuleMemory::keepLargestStepHeld(size_t steps, const std::vector<PairMemory> &outside)
{
    for (size_t id = 0; id < m_nodes; ++id) {
        int64_t largest = outside[id].held;
        for (size_t slot = 1; slot <= steps && largest != kNoValue; ++slot) {
            const int64_t held = m_memory[slot * m_nodes + id].held;
            largest = held == kNoValue ? kNoValue : std::max(largest, held);
        }
        m_memory[id].held = largest;
    }
}

const PairMemory &ModuleMemory::of(ModuleId id, int stepIndex) const
{
    const size_t slot = stepIndex == ModuleTree::kWholeTrace ? 0 : size_t(stepIndex + 1);
    return m_memory[slot * m_nodes + id];
}

} // namespace ks
