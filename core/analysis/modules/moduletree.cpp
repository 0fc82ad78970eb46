// SPDX-License-Identifier: MIT
#include "analysis/modules/moduletree.h"

#include "analysis/modules/moduleroles.h"

#include <algorithm>

namespace ks {

using namespace moduletree;

std::string_view ModuleTree::sourceName(Source source)
{
    switch (source) {
    case Source::Modules:
        return "modules";
    case Source::Annotations:
        return "annotations";
    case Source::OpNames:
        return "op_names";
    }
    return "op_names";
}

std::string_view ModuleTree::sourceDescription(Source source)
{
    switch (source) {
    case Source::Modules:
        return "Module tree from nn.Module calls (recorded with with_stack/with_modules).";
    case Source::Annotations:
        return "No nn.Module calls in this trace: tree from record_function scopes.";
    case Source::OpNames:
        return "No nn.Module calls or record_function scopes in this trace: ops by name.";
    }
    return {};
}

ModuleTree::Source ModuleTree::detectSource(const OpGraph &graph)
{
    const TraceModel &m = graph.model();
    const SliceTable &t = m.slices;
    bool annotated = false;
    for (const Lane &lane : m.lanes) {
        if (lane.device)
            continue;
        for (SliceId s = lane.sliceBegin; s < lane.sliceEnd; ++s) {
            if (isScope(m, s, Source::Modules) && !insideBackward(graph, s))
                return Source::Modules;
            if (annotated || t.kind[s] != EventKind::UserAnnotation
                || isBuiltinAnnotation(m.sliceName(s)) || insideBackward(graph, s))
                continue;
            for (SliceId d = s + 1; d < t.subtreeEnd[s] && !annotated; ++d)
                annotated = t.kind[d] == EventKind::CpuOp;
        }
    }
    return annotated ? Source::Annotations : Source::OpNames;
}

ModuleTree::ModuleTree(const OpGraph &graph, Source source)
    : m_graph(graph)
    , m_source(source)
{
}

ModuleId ModuleTree::find(std::string_view path) const
{
    const auto it = std::lower_bound(m_byPath.begin(), m_byPath.end(), path,
        [&](ModuleId id, std::string_view p) { return m_nodes[id].path < p; });
    return it != m_byPath.end() && m_nodes[*it].path == path ? *it : kNoModule;
}

int ModuleTree::stepIndex(int64_t number) const
{
    const auto &steps = m_graph.steps();
    for (size_t i = 0; i < steps.size(); ++i) {
        if (steps[i].number == number)
            return int(i);
    }
    return -1;
}

const ModuleTimes &ModuleTree::times(ModuleId id, int stepIndex) const
{
    static const ModuleTimes kNone;
    if (stepIndex == kWholeTrace)
        return m_nodes[id].times;
    const auto first = m_stepOfEntry.begin() + m_stepBegin[id];
    const auto last = m_stepOfEntry.begin() + m_stepBegin[id + 1];
    const auto it = std::lower_bound(first, last, stepIndex);
    return it != last && *it == stepIndex ? m_stepTimes[size_t(it - m_stepOfEntry.begin())] : kNone;
}

namespace {

template<typename T>
std::span<const T> groupRange(const std::vector<T> &items,
    const std::vector<uint32_t> &begin,
    const std::vector<ModuleNode> &nodes,
    ModuleId id,
    bool withDescendants)
{
    const uint32_t first = begin[id];
    const uint32_t last = begin[withDescendants ? nodes[id].subtreeEnd : id + 1];
    return std::span<const T>(items).subspan(first, last - first);
}

} // namespace

std::span<const SliceId> ModuleTree::forwardSlices(ModuleId id, bool withDescendants) const
{
    return groupRange(m_forwardSlices, m_forwardBegin, m_nodes, id, withDescendants);
}

std::span<const uint32_t> ModuleTree::backwardNodes(ModuleId id, bool withDescendants) const
{
    return groupRange(m_backwardNodes, m_backwardBegin, m_nodes, id, withDescendants);
}

std::span<const SliceId> ModuleTree::backwardOtherSlices(ModuleId id, bool withDescendants) const
{
    return groupRange(m_otherSlices, m_otherBegin, m_nodes, id, withDescendants);
}

std::vector<SliceId> ModuleTree::highlightSlices(ModuleId id, bool withDescendants) const
{
    std::vector<SliceId> out;
    for (SliceId s : forwardSlices(id, withDescendants))
        out.push_back(s);
    for (uint32_t n : backwardNodes(id, withDescendants))
        out.push_back(m_graph.nodes()[n].outer);
    for (SliceId s : backwardOtherSlices(id, withDescendants))
        out.push_back(s);
    std::sort(out.begin(), out.end());
    return out;
}

ModuleId ModuleTree::nodeOf(SliceId slice) const
{
    if (slice >= m_owner.size())
        return kNoModule;
    const uint32_t v = m_owner[slice];
    return packedRole(v) == Role::None ? kNoModule : valueBits(v);
}

ModuleTree::Role ModuleTree::roleOf(SliceId slice) const
{
    return slice < m_owner.size() ? packedRole(m_owner[slice]) : Role::None;
}

} // namespace ks
