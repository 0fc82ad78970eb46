// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/findings/stepfinding.h"

#include <map>
#include <string>

namespace ks {

/*
 * What the rules share (docs/findings.md): the path's segments gathered by cause, the finding
 * kept only where its change shortens the path, and the words of their titles.
 */

//! The path's segments of one cause, gathered by a name.
struct Cause {
    TimeNs onPath = 0; //!< their time on the path
    std::vector<FindingEvidence> events; //!< distinct, in path order
};

//! The segments \a pick names (an empty name: not kept), by that name.
std::map<std::string, Cause> causes(
    const CriticalPathAnalysis &path, const std::function<std::string(const PathSegment &)> &pick);

/*!
 * \a finding of \a cause with \a change as its `how` and the time it saves as its saving, if it
 * shortens the path; at most kMostEvidence events of \a cause as its evidence.
 */
void addIfShorter(const CriticalPathAnalysis &path,
    const WhatIfChange &change,
    Cause cause,
    StepFinding finding,
    std::vector<StepFinding> &out);

//! "NAME:FACTOR" with FACTOR as its text reads back, so that `--what-if` recomputes it exactly.
WhatIfChange scaledWork(const std::string &name, double factor);

const TraceModel &modelOf(const CriticalPathAnalysis &path, uint32_t rank);
std::string_view nameOf(const CriticalPathAnalysis &path, const PathSegment &seg);
//! "ProfilerStep#10", or "the whole trace" of a trace without steps.
std::string stepText(const CriticalPathAnalysis &path);
//! "1 call", "3 calls".
std::string countOf(size_t n, std::string_view one, std::string_view many);
//! "12.500 µs".
std::string microsOf(TimeNs ns);

} // namespace ks
