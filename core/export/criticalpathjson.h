// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"

#include <string>

namespace ks {

/*!
 * The `--summary` "critical_path" object (cli.md): the step, the length, HTA's classes (every key,
 * zeros too), the time by side, the ten pairs with most time on the path, the ten changes that
 * would shorten it most, and the length under \a whatIf when given.
 */
void appendCriticalPathJson(std::string &out,
    const OpGraph &graph,
    const CriticalPathAnalysis &analysis,
    const std::optional<WhatIfChange> &whatIf);

} // namespace ks
