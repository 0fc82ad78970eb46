// SPDX-License-Identifier: MIT
#include "session/comparedtraces.h"

namespace ks {

std::shared_ptr<ComparedTraces> ComparedTraces::make(std::shared_ptr<const LoadedTrace> base,
    std::shared_ptr<const LoadedTrace> candidate,
    const DiffOptions &options,
    std::string &error)
{
    auto compared = std::make_shared<ComparedTraces>();
    compared->base = std::move(base);
    compared->candidate = std::move(candidate);
    compared->diff
        = TraceDiff::compare(*compared->base->graph, *compared->candidate->graph, options, &error);
    return compared->diff ? compared : nullptr;
}

} // namespace ks
