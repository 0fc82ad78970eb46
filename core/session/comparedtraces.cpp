// SPDX-License-Identifier: MIT
#include "session/comparedtraces.h"

#include <new>

namespace ks {

std::shared_ptr<ComparedTraces> ComparedTraces::make(std::shared_ptr<const LoadedTrace> base,
    std::shared_ptr<const LoadedTrace> candidate,
    const DiffOptions &options,
    std::string &error)
{
    auto compared = std::make_shared<ComparedTraces>();
    compared->base = std::move(base);
    compared->candidate = std::move(candidate);
    try {
        // The module trees the traces build once for their Modules tabs serve the comparison
        // too.
        DiffOptions withMemory = options;
        withMemory.pairMemory = {&compared->base->pairMemory(), &compared->candidate->pairMemory()};
        withMemory.efficiency
            = {&compared->base->efficiency().pairs(), &compared->candidate->efficiency().pairs()};
        compared->diff = TraceDiff::compare(
            compared->base->modules(), compared->candidate->modules(), withMemory, &error);
    } catch (const std::bad_alloc &) {
        error = "not enough memory to compare " + compared->candidate->model->path + " with "
            + compared->base->model->path;
        return nullptr;
    }
    return compared->diff ? compared : nullptr;
}

} // namespace ks
