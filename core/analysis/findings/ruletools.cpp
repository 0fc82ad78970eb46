// SPDX-License-Identifier: MIT
#include "analysis/findings/ruletools.h"

#include "base/unitstext.h"

#include <algorithm>

namespace ks {

std::map<std::string, Cause> causes(
    const CriticalPathAnalysis &path, const std::function<std::string(const PathSegment &)> &pick)
{
    std::map<std::string, Cause> out;
    for (const PathSegment &seg : path.path().segments) {
        if (seg.event == kNoSlice)
            continue;
        const std::string name = pick(seg);
        if (name.empty())
            continue;
        Cause &c = out[name];
        c.onPath += seg.dur;
        const FindingEvidence e {seg.rank, seg.event};
        if (std::none_of(c.events.begin(), c.events.end(),
                [&](const FindingEvidence &o) { return o.rank == e.rank && o.event == e.event; }))
            c.events.push_back(e);
    }
    return out;
}

void addIfShorter(const CriticalPathAnalysis &path,
    const WhatIfChange &change,
    Cause cause,
    StepFinding finding,
    std::vector<StepFinding> &out)
{
    const TimeNs length = path.lengthOf(change);
    if (length >= path.path().length)
        return;
    finding.saving = path.path().length - length;
    finding.how = whatIfText(change);
    if (cause.events.size() > kMostEvidence)
        cause.events.resize(kMostEvidence);
    finding.evidence = std::move(cause.events);
    out.push_back(std::move(finding));
}

WhatIfChange scaledWork(const std::string &name, double factor)
{
    return *parseWhatIf(whatIfText({WhatIfChange::Kind::Scale, name, factor}));
}

const TraceModel &modelOf(const CriticalPathAnalysis &path, uint32_t rank)
{
    return path.ranks()[rank].graph->model();
}

std::string_view nameOf(const CriticalPathAnalysis &path, const PathSegment &seg)
{
    return modelOf(path, seg.rank).sliceName(seg.event);
}

std::string stepText(const CriticalPathAnalysis &path)
{
    const int64_t step = path.path().step;
    return step == kNoValue ? "the whole trace" : "ProfilerStep#" + std::to_string(step);
}

std::string countOf(size_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

std::string microsOf(TimeNs ns)
{
    return microsText(ns) + " µs";
}

} // namespace ks
