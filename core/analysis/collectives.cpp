// SPDX-License-Identifier: MIT
#include "analysis/collectives.h"

#include "link/opnames.h"

#include <algorithm>
#include <map>

namespace ks {

namespace {

struct CommKernel {
    SliceId slice;
    TimeNs start;
    StringId collective;
    StringId processGroup;
};

//! The communication kernels of \a graph's trace in start order.
std::vector<CommKernel> communicationKernels(const OpGraph &graph)
{
    const TraceModel &m = graph.model();
    CommunicationNames communication(m);
    std::vector<CommKernel> out;
    for (SliceId g : graph.gpuEvents()) {
        if (m.slices.kind[g] != EventKind::Kernel || !communication(g))
            continue;
        const GpuInfo *info = m.gpu(g);
        out.push_back(
            {g, m.slices.start[g], info ? info->collective : 0, info ? info->processGroup : 0});
    }
    std::stable_sort(out.begin(), out.end(),
        [](const CommKernel &a, const CommKernel &b) { return a.start < b.start; });
    return out;
}

std::string countsText(const RankTraces &ranks, const std::vector<size_t> &counts)
{
    std::string out;
    for (size_t r = 0; r < counts.size(); ++r) {
        if (counts[r] == 0)
            continue;
        out += out.empty() ? "rank " : ", rank ";
        out += std::to_string(ranks[r].rank);
        out += ": ";
        out += std::to_string(counts[r]);
    }
    return out;
}

} // namespace

CollectiveMatch matchCollectives(const RankTraces &ranks)
{
    CollectiveMatch match;
    std::vector<std::vector<CommKernel>> kernels;
    bool allNamed = true;
    size_t total = 0;
    for (const RankTrace &r : ranks) {
        kernels.push_back(communicationKernels(*r.graph));
        total += kernels.back().size();
        for (const CommKernel &k : kernels.back())
            allNamed = allNamed && k.processGroup != 0;
    }
    match.byProcessGroup = allNamed && total > 0;

    // Per group (one group "" when matching by order): each rank's kernels of the group.
    std::map<std::string, std::vector<std::vector<CommKernel>>> groups;
    for (size_t r = 0; r < ranks.size(); ++r) {
        const TraceModel &m = ranks[r].graph->model();
        for (const CommKernel &k : kernels[r]) {
            const std::string group
                = match.byProcessGroup ? std::string(m.str(k.processGroup)) : std::string();
            auto &perRank = groups[group];
            perRank.resize(ranks.size());
            perRank[r].push_back(k);
        }
    }

    for (const auto &[group, perRank] : groups) {
        std::vector<size_t> counts;
        size_t longest = 0;
        size_t shortest = SIZE_MAX;
        for (const auto &list : perRank) {
            counts.push_back(list.size());
            longest = std::max(longest, list.size());
            if (!list.empty())
                shortest = std::min(shortest, list.size());
        }
        if (shortest != longest) {
            match.warnings.push_back(
                std::string(match.byProcessGroup ? "process group \"" + group + "\": " : "")
                + "the ranks hold different numbers of communication kernels ("
                + countsText(ranks, counts)
                + "); collectives past the shortest are matched by position and miss ranks");
        }
        size_t namesDiffer = 0;
        for (size_t k = 0; k < longest; ++k) {
            Collective c;
            c.processGroup = group;
            c.ordinal = uint32_t(k);
            std::string_view firstKernelName;
            bool differ = false;
            for (size_t r = 0; r < perRank.size(); ++r) {
                if (k >= perRank[r].size())
                    continue;
                const CommKernel &ck = perRank[r][k];
                const TraceModel &m = ranks[r].graph->model();
                const std::string_view kernelName = m.sliceName(ck.slice);
                if (c.kernels.empty()) {
                    c.name = ck.collective ? std::string(m.str(ck.collective))
                                           : std::string(kernelName);
                    firstKernelName = kernelName;
                } else if (kernelName != firstKernelName) {
                    differ = true;
                }
                c.kernels.push_back(
                    {uint32_t(r), ck.slice, ranks[r].runTime(ck.start), m.slices.dur[ck.slice]});
            }
            namesDiffer += differ;
            c.firstStart = c.kernels.front().start;
            c.lastStart = c.kernels.front().start;
            c.lastRankIndex = c.kernels.front().rankIndex;
            c.minDur = c.maxDur = c.kernels.front().dur;
            for (const CollectiveKernel &ck : c.kernels) {
                c.firstStart = std::min(c.firstStart, ck.start);
                if (ck.start > c.lastStart) {
                    c.lastStart = ck.start;
                    c.lastRankIndex = ck.rankIndex;
                }
                c.minDur = std::min(c.minDur, ck.dur);
                c.maxDur = std::max(c.maxDur, ck.dur);
            }
            match.collectives.push_back(std::move(c));
        }
        if (namesDiffer > 0) {
            match.warnings.push_back(
                std::string(match.byProcessGroup ? "process group \"" + group + "\": " : "")
                + std::to_string(namesDiffer) + " of " + std::to_string(longest)
                + " collectives have different kernel names on different ranks: the ranks may not "
                  "have run the same collectives in the same order");
        }
    }
    std::stable_sort(match.collectives.begin(), match.collectives.end(),
        [](const Collective &a, const Collective &b) { return a.firstStart < b.firstStart; });
    return match;
}

} // namespace ks
