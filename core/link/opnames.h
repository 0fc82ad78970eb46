// SPDX-License-Identifier: MIT
#pragma once
// What op names say (docs/linking.md): which events are autograd bookkeeping, steps, collectives.

#include "model/tracemodel.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace ks {

//! `autograd::engine::evaluate_function: XBackward0`, the wrapper around a node event.
bool isEvaluateWrapper(std::string_view name);
//! GraphRoot, AccumulateGrad and backward hooks: backward work that no forward op created.
bool isUnpairedBackwardWork(std::string_view name);
//! A name like an autograd node's: `…Backward` or `…Backward<N>` (`ConvolutionBackward0`).
bool looksLikeBackwardNode(std::string_view name);
//! A scope of training housekeeping, not the model: PyTorch's own optimizer and data loader
//! annotations ("Optimizer.step#SGD.step", "enumerate(DataLoader)#…"), or one naming an optimizer.
bool isHousekeepingScope(std::string_view name);
//! An optimizer's scope as PyTorch names it: `Optimizer.step#…`, `Optimizer.zero_grad#…`.
bool isOptimizerScope(std::string_view name);
//! A runtime or driver call that puts work on a stream: a kernel or graph launch, a copy, a set.
bool putsWorkOnStream(std::string_view runtimeName);
//! NCCL/RCCL kernels.
bool isCommunication(std::string_view kernelName);

//! isCommunication() of GPU events' names, decided once per distinct name: kernel names are long
//! and few.
class CommunicationNames {
public:
    explicit CommunicationNames(const TraceModel &model)
        : m_model(model)
    {
    }
    bool operator()(SliceId gpuEvent);

private:
    const TraceModel &m_model;
    std::unordered_map<StringId, bool> m_byName;
};
//! N of `ProfilerStep#N`; none for any other name (or a number beyond int64).
std::optional<int64_t> stepNumberOf(std::string_view name);

} // namespace ks
