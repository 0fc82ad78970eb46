// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/compare/tracediff.h"
#include "session/loadedtrace.h"

#include <memory>
#include <string>

namespace ks {

/*!
 * Two loaded traces and their comparison, kept together: the TraceDiff refers to both graphs,
 * so they live exactly as long as it does.
 */
struct ComparedTraces {
    std::shared_ptr<const LoadedTrace> base;
    std::shared_ptr<const LoadedTrace> candidate;
    std::unique_ptr<TraceDiff> diff;

    /*!
     * Compares \a candidate against \a base with \a options; null with \a error set when the
     * options name a step a trace does not have, the comparison was cancelled
     * (DiffOptions::cancel) or memory ran out.
     */
    static std::shared_ptr<ComparedTraces> make(std::shared_ptr<const LoadedTrace> base,
        std::shared_ptr<const LoadedTrace> candidate,
        const DiffOptions &options,
        std::string &error);
};

} // namespace ks
