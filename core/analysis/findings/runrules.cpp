// SPDX-License-Identifier: MIT
#include "analysis/findings/runrules.h"

#include "analysis/findings/ruletools.h"
#include "base/kernelname.h"

#include <algorithm>
#include <map>

namespace ks {

namespace {

//! "collective 3 (allreduce, process group 0)": its row of the collectives table.
std::string collectiveText(const CollectiveMatch &match, const Collective &c)
{
    std::string out = "collective " + std::to_string(&c - match.collectives.data()) + " ("
        + shortKernelName(c.name);
    if (!c.processGroup.empty())
        out.append(", process group ").append(c.processGroup);
    return out + ")";
}

//! The number of the rank with index \a index.
std::string rankText(const CriticalPathAnalysis &path, uint32_t index)
{
    return "rank " + std::to_string(path.ranks()[index].rank);
}

//! \a c's kernel on rank index \a rank as evidence, if it has one.
void addKernel(const Collective &c, uint32_t rank, std::vector<FindingEvidence> &events)
{
    for (const CollectiveKernel &k : c.kernels)
        if (k.rankIndex == rank)
            events.push_back({rank, k.kernel});
}

//! "…, where it arrives last, 812.000 µs after the first rank".
std::string arrivalText(const CollectiveMatch &match, const Collective &c)
{
    return collectiveText(match, c) + ", where it arrives last, " + microsOf(c.skew())
        + " after the first rank";
}

} // namespace

void findLateRanks(
    const CriticalPathAnalysis &path, const CollectiveMatch &match, std::vector<StepFinding> &out)
{
    for (const PathSegment &late : path.path().segments) {
        if (late.bound != PathBound::LateStart)
            continue;
        // The rank's first collective in its step, where the others wait for it if it is last.
        const TimeNs stepStart = late.start + late.dur + path.ranks()[late.rank].clockOffset;
        const auto next = std::find_if(
            match.collectives.begin(), match.collectives.end(), [&](const Collective &c) {
                return std::any_of(
                    c.kernels.begin(), c.kernels.end(), [&](const CollectiveKernel &k) {
                        return k.rankIndex == late.rank && k.start >= stepStart;
                    });
            });
        Cause cause;
        cause.onPath = late.dur;
        cause.events.push_back({late.rank, late.event});
        StepFinding f;
        f.rule = "late_rank";
        f.title = rankText(path, late.rank) + " began " + stepText(path) + " "
            + microsOf(path.path().ranks[late.rank].lateStart) + " after the earliest rank";
        if (next != match.collectives.end() && next->lastRankIndex == late.rank) {
            f.title.append(", and the others wait for it at ").append(arrivalText(match, *next));
            addKernel(*next, late.rank, cause.events);
        }
        f.title.append(".");
        f.fix = "Find what the rank does before its step: a slower data pipeline, a checkpoint "
                "save, logging or evaluation on that rank only, a busier host; "
                "torch.distributed.monitored_barrier names the rank that does not arrive.";
        f.doc = "https://pytorch.org/docs/stable/"
                "distributed.html#torch.distributed.monitored_barrier";
        addIfShorter(path, {WhatIfChange::Kind::OnTime, {}, 1, path.ranks()[late.rank].rank},
            std::move(cause), std::move(f), out);
    }
}

void findStragglers(
    const CriticalPathAnalysis &path, const CollectiveMatch &match, std::vector<StepFinding> &out)
{
    std::vector<bool> lateOnPath(path.ranks().size(), false);
    for (const PathSegment &s : path.path().segments)
        if (s.bound == PathBound::LateStart)
            lateOnPath[s.rank] = true;
    // Per last arriver, the collectives on the path it held back, in path order.
    std::map<uint32_t, std::vector<int>> heldBack;
    for (const PathSegment &s : path.path().segments) {
        if (s.collective < 0)
            continue;
        const uint32_t last = match.collectives[size_t(s.collective)].lastRankIndex;
        std::vector<int> &held = heldBack[last];
        if (s.fromRank == last && !lateOnPath[last]
            && match.collectives[size_t(s.collective)].skew() > 0
            && std::find(held.begin(), held.end(), s.collective) == held.end())
            held.push_back(s.collective);
    }
    for (const auto &[rank, held] : heldBack) {
        if (held.empty())
            continue;
        const Collective &first = match.collectives[size_t(held.front())];
        StepFinding f;
        f.rule = "straggler";
        f.title = rankText(path, rank) + " arrives last at "
            + countOf(held.size(), "collective", "collectives") + " on the critical path of "
            + stepText(path) + ": first at " + arrivalText(match, first)
            + "; every other rank waits for its work.";
        f.how = "not one change: the rank's own work before the collective is slower (its "
                "findings name it)";
        for (int c : held)
            if (f.evidence.size() < kMostEvidence)
                addKernel(match.collectives[size_t(c)], rank, f.evidence);
        f.fix = "Compare the rank with the others (the run's rank table, its pairs across ranks): "
                "uneven data (sequence lengths, a larger shard), a slower or throttled GPU, "
                "another process on its host.";
        f.doc = "https://pytorch.org/docs/stable/notes/ddp.html";
        out.push_back(std::move(f));
    }
}

} // namespace ks
