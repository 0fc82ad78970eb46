// SPDX-License-Identifier: MIT
#include "link/opnames.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace ks {

bool isEvaluateWrapper(std::string_view name)
{
    return name.starts_with("autograd::engine::evaluate_function:");
}

bool isUnpairedBackwardWork(std::string_view name)
{
    // The engine's root, gradient accumulation and module hooks are never what a forward op of
    // the model created (docs/linking.md): their time is "backward – other".
    return name == "torch::autograd::GraphRoot"
        || name.find("AccumulateGrad") != std::string_view::npos
        || name.find("BackwardHookFunctionBackward") != std::string_view::npos;
}

bool looksLikeBackwardNode(std::string_view name)
{
    while (!name.empty() && name.back() >= '0' && name.back() <= '9')
        name.remove_suffix(1);
    return name.ends_with("Backward");
}

bool isOptimizerScope(std::string_view name)
{
    // torch/optim/optimizer.py names its profiler scopes "Optimizer.step#SGD.step",
    // "Optimizer.zero_grad#SGD.zero_grad".
    return name.starts_with("Optimizer.");
}

bool isHousekeepingScope(std::string_view name)
{
    if (isOptimizerScope(name) || name.starts_with("enumerate(DataLoader)"))
        return true;
    constexpr std::string_view kWord = "optimizer";
    const auto sameLetter
        = [](char a, char b) { return std::tolower((unsigned char)a) == (unsigned char)b; };
    return std::search(name.begin(), name.end(), kWord.begin(), kWord.end(), sameLetter)
        != name.end();
}

bool putsWorkOnStream(std::string_view runtimeName)
{
    return runtimeName.find("Launch") != std::string_view::npos
        || runtimeName.find("Memcpy") != std::string_view::npos
        || runtimeName.find("Memset") != std::string_view::npos;
}

bool isCommunication(std::string_view name)
{
    return name.find("nccl") != std::string_view::npos
        || name.find("rccl") != std::string_view::npos;
}

bool CommunicationNames::operator()(SliceId gpuEvent)
{
    auto [it, fresh] = m_byName.try_emplace(m_model.slices.name[gpuEvent], false);
    if (fresh)
        it->second = isCommunication(m_model.sliceName(gpuEvent));
    return it->second;
}

std::optional<int64_t> stepNumberOf(std::string_view name)
{
    constexpr std::string_view prefix = "ProfilerStep#";
    if (!name.starts_with(prefix) || name.size() == prefix.size())
        return std::nullopt;
    const std::string_view digits = name.substr(prefix.size());
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    // A number beyond int64 (found by the fuzzer) is no step number.
    int64_t n = 0;
    if (std::from_chars(digits.data(), digits.data() + digits.size(), n).ec != std::errc())
        return std::nullopt;
    return n;
}

} // namespace ks
