// SPDX-License-Identifier: MIT
#include "export/moduletable.h"

#include "export/efficiencytable.h"

#include "analysis/compare/tracediff.h"
#include "base/jsonwrite.h"
#include "base/unitstext.h"

#include <cmath>
#include <limits>

namespace ks {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::string_view kRootLabel = "(all)";

std::vector<PairMemory> rowMemory(const OpGraph &g)
{
    return g.model().memory.size() > 0 ? pairMemory(MemoryIndex(g)) : std::vector<PairMemory> {};
}
} // namespace

ModuleTable::ModuleTable(const ModuleTree &tree, Rows rows)
    : ModuleTable(
        tree, rows, rowMemory(tree.graph()), OpEfficiency(tree.graph(), PeakTable::current()))
{
}

ModuleTable::ModuleTable(const ModuleTree &tree,
    Rows rows,
    const std::vector<PairMemory> &rowsMemory,
    const OpEfficiency &efficiency)
    : m_tree(tree)
    , m_memory(tree, rowsMemory)
    , m_flops(tree, efficiency)
{
    if (rows == Rows::WholeTrace) {
        addStep(ModuleTree::kWholeTrace);
    } else {
        for (size_t si = 0; si < tree.steps().size(); ++si)
            addStep(int(si));
    }
}

ModuleTable::ModuleTable(const ModuleTree &tree, int64_t stepNumber)
    : m_tree(tree)
    , m_memory(tree, rowMemory(tree.graph()))
    , m_flops(tree, OpEfficiency(tree.graph(), PeakTable::current()))
{
    if (const int si = tree.stepIndex(stepNumber); si >= 0)
        addStep(si);
}

int64_t ModuleTable::memoryOf(size_t row, size_t column) const
{
    const Row &r = m_rows[row];
    const PairMemory &p = m_memory.of(r.node, r.step);
    return column == FwdAllocBytes ? p.forwardAllocated
        : column == HeldBytes      ? p.held
                                   : p.backwardAllocated;
}

void ModuleTable::addStep(int stepIndex)
{
    for (ModuleId id = 0; id < m_tree.nodes().size(); ++id)
        m_rows.push_back({id, stepIndex});
}

const ModuleTimes &ModuleTable::timesOf(size_t row) const
{
    return m_tree.times(m_rows[row].node, m_rows[row].step);
}

namespace {

constexpr ColumnSpec kModuleColumns[] = {
    {"module", Cell::Text, "Module path"},
    {"name", Cell::Text, "Module"},
    {"depth", Cell::Integer, "Depth"},
    {"step", Cell::Integer, "Step"},
    {"calls", Cell::Integer, "Calls"},
    {"fwd_cpu_us", Cell::Number, "Forward CPU (µs)"},
    {"fwd_cpu_self_us", Cell::Number, "Forward CPU self (µs)"},
    {"fwd_gpu_us", Cell::Number, "Forward GPU (µs)"},
    {"fwd_gpu_self_us", Cell::Number, "Forward GPU self (µs)"},
    {"fwd_gpu_events", Cell::Integer, "Forward GPU events"},
    {"bwd_gpu_us", Cell::Number, "Backward GPU (µs)"},
    {"bwd_gpu_self_us", Cell::Number, "Backward GPU self (µs)"},
    {"bwd_gpu_events", Cell::Integer, "Backward GPU events"},
    {"bwd_other_gpu_us", Cell::Number, "Backward other GPU (µs)"},
    {"bwd_other_gpu_self_us", Cell::Number, "Backward other GPU self (µs)"},
    {"other_gpu_us", Cell::Number, "Other GPU (µs)"},
    {"recompute_gpu_us", Cell::Number, "Recompute GPU (µs)"},
    {"recompute_gpu_self_us", Cell::Number, "Recompute GPU self (µs)"},
    {"recompute_gpu_events", Cell::Integer, "Recompute GPU events"},
    {"fwd_alloc_bytes", Cell::Bytes, "Forward allocated"},
    {"held_bytes", Cell::Bytes, "Held for backward"},
    {"bwd_alloc_bytes", Cell::Bytes, "Backward allocated"},
    {"fwd_tflops", Cell::Number, "Forward TFLOP/s"},
    {"bwd_tflops", Cell::Number, "Backward TFLOP/s"},
};
static_assert(std::size(kModuleColumns) == ModuleTable::ColumnCount);

} // namespace

std::span<const ColumnSpec> ModuleTable::columns() const
{
    return kModuleColumns;
}

bool ModuleTable::textView(size_t row, size_t column, std::string_view &out) const
{
    const ModuleNode &node = m_tree.node(m_rows[row].node);
    switch (column) {
    case Module:
        out = node.path.empty() ? kRootLabel : std::string_view(node.path);
        return true;
    case Name:
        out = node.name;
        return true;
    default:
        return false;
    }
}

std::string ModuleTable::text(size_t row, size_t column) const
{
    std::string_view view;
    if (textView(row, column, view))
        return std::string(view);
    const ModuleTimes &t = timesOf(row);
    switch (column) {
    case Depth:
        return std::to_string(m_tree.node(m_rows[row].node).depth);
    case Step: {
        const int si = m_rows[row].step;
        return si == ModuleTree::kWholeTrace ? std::string()
                                             : std::to_string(m_tree.steps()[size_t(si)].number);
    }
    case Calls:
        return std::to_string(t.calls);
    case FwdCpuUs:
        return microsText(t.cpuTotal);
    case FwdCpuSelfUs:
        return microsText(t.cpuSelf);
    case FwdGpuUs:
        return microsText(t.forwardTotal.time);
    case FwdGpuSelfUs:
        return microsText(t.forwardSelf.time);
    case FwdGpuEvents:
        return std::to_string(t.forwardTotal.count);
    case BwdGpuUs:
        return microsText(t.backwardTotal.time);
    case BwdGpuSelfUs:
        return microsText(t.backwardSelf.time);
    case BwdGpuEvents:
        return std::to_string(t.backwardTotal.count);
    case BwdOtherGpuUs:
        return microsText(t.backwardOtherTotal.time);
    case BwdOtherGpuSelfUs:
        return microsText(t.backwardOtherSelf.time);
    case OtherGpuUs:
        return microsText(t.otherTotal.time);
    case RecomputeGpuUs:
        return microsText(t.recomputeTotal.time);
    case RecomputeGpuSelfUs:
        return microsText(t.recomputeSelf.time);
    case RecomputeGpuEvents:
        return std::to_string(t.recomputeTotal.count);
    case FwdAllocBytes:
    case HeldBytes:
    case BwdAllocBytes:
        return m_memory.recorded() && memoryOf(row, column) != kNoValue
            ? std::to_string(memoryOf(row, column))
            : std::string();
    case FwdTflops:
    case BwdTflops: {
        const double v = number(row, column);
        return std::isnan(v) ? std::string() : shortestText(v);
    }
    }
    return {};
}

double ModuleTable::number(size_t row, size_t column) const
{
    const ModuleTimes &t = timesOf(row);
    switch (column) {
    case Depth:
        return double(m_tree.node(m_rows[row].node).depth);
    case Step: {
        const int si = m_rows[row].step;
        return si == ModuleTree::kWholeTrace ? kNaN : double(m_tree.steps()[size_t(si)].number);
    }
    case Calls:
        return double(t.calls);
    case FwdCpuUs:
        return double(t.cpuTotal);
    case FwdCpuSelfUs:
        return double(t.cpuSelf);
    case FwdGpuUs:
        return double(t.forwardTotal.time);
    case FwdGpuSelfUs:
        return double(t.forwardSelf.time);
    case FwdGpuEvents:
        return double(t.forwardTotal.count);
    case BwdGpuUs:
        return double(t.backwardTotal.time);
    case BwdGpuSelfUs:
        return double(t.backwardSelf.time);
    case BwdGpuEvents:
        return double(t.backwardTotal.count);
    case BwdOtherGpuUs:
        return double(t.backwardOtherTotal.time);
    case BwdOtherGpuSelfUs:
        return double(t.backwardOtherSelf.time);
    case OtherGpuUs:
        return double(t.otherTotal.time);
    case RecomputeGpuUs:
        return double(t.recomputeTotal.time);
    case RecomputeGpuSelfUs:
        return double(t.recomputeSelf.time);
    case RecomputeGpuEvents:
        return double(t.recomputeTotal.count);
    case FwdAllocBytes:
    case HeldBytes:
    case BwdAllocBytes:
        return m_memory.recorded() && memoryOf(row, column) != kNoValue
            ? double(memoryOf(row, column))
            : kNaN;
    case FwdTflops:
    case BwdTflops:
        return m_flops.tflopsPerS(m_rows[row].node, m_rows[row].step, column == FwdTflops)
            .value_or(kNaN);
    default:
        return kNaN;
    }
}

} // namespace ks
