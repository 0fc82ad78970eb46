// SPDX-License-Identifier: MIT
#pragma once
// What the module tree's builder and its queries share: how a slice's owner is packed, and which
// slices are module scopes or backward work.

#include "analysis/modules/moduletree.h"
#include "link/opnames.h"

namespace ks::moduletree {

// A slice's owner packs a role (top 2 bits) and a value (low 30 bits). While building, the
// value of a backward slice is its OpGraph node index and that of a backward-other slice its
// AccumulateGrad/other "top" index; they become module ids at the end.
constexpr uint32_t kRoleShift = 30;
constexpr uint32_t kValueMask = (1u << kRoleShift) - 1;
using Role = ModuleTree::Role;
static_assert(uint32_t(Role::None) == 0 && uint32_t(Role::BackwardOther) == 3, "2 bits");

constexpr uint32_t pack(Role role, uint32_t value)
{
    return uint32_t(role) << kRoleShift | (value & kValueMask);
}
constexpr Role packedRole(uint32_t v)
{
    return Role(v >> kRoleShift);
}
constexpr uint32_t valueBits(uint32_t v)
{
    return v & kValueMask;
}

constexpr std::string_view kModulePrefix = "nn.Module: ";
constexpr std::string_view kRootName = "(all)";

inline bool isStepName(std::string_view name)
{
    return name.starts_with("ProfilerStep#");
}

//! Annotations PyTorch adds by itself: they alone do not make a trace "annotated".
inline bool isBuiltinAnnotation(std::string_view name)
{
    return isStepName(name) || name.starts_with("Optimizer.")
        || name.starts_with("enumerate(DataLoader)") || name.starts_with("nccl:");
}

//! Backward work that is no node: AccumulateGrad, GraphRoot, hooks and their wrappers.
inline bool isBackwardOtherEvent(const TraceModel &m, SliceId s)
{
    const std::string_view name = m.sliceName(s);
    return m.slices.kind[s] == EventKind::CpuOp
        && (isEvaluateWrapper(name) || isUnpairedBackwardWork(name));
}

inline bool insideBackward(const OpGraph &graph, SliceId s)
{
    const TraceModel &m = graph.model();
    for (SliceId a = m.slices.parent[s]; a != kNoSlice; a = m.slices.parent[a]) {
        if (graph.isBackwardNode(a) || isBackwardOtherEvent(m, a))
            return true;
    }
    return false;
}

inline bool isScope(const TraceModel &m, SliceId s, ModuleTree::Source source)
{
    const EventKind kind = m.slices.kind[s];
    switch (source) {
    case ModuleTree::Source::Modules:
        return kind == EventKind::PythonFunction && m.sliceName(s).starts_with(kModulePrefix);
    case ModuleTree::Source::Annotations:
        return kind == EventKind::UserAnnotation && !isStepName(m.sliceName(s));
    case ModuleTree::Source::OpNames:
        // 1.9 files record ProfilerStep#N as an op: it is the step, not an op.
        return kind == EventKind::CpuOp && !isStepName(m.sliceName(s));
    }
    return false;
}

} // namespace ks::moduletree
