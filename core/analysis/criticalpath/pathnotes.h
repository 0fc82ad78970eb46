// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace ks {

struct CriticalPath;
struct PathRankInput;

/*!
 * What the trace cannot tell about \a path (CriticalPath::notes): each GPU stream that the path
 * finds waiting on nothing recorded — idle before its event in the step model, or the path's very
 * start in HTA's — while another stream of its device was busy. Nothing in the trace (no event
 * record and wait) joins the two, so whether the wait was for that work is unknown; common on
 * ROCm, whose traces record no cross-stream waits. One note per stream, at most three.
 */
std::vector<std::string> unrecordedDependencies(
    const CriticalPath &path, const std::vector<PathRankInput> &ranks);

} // namespace ks
