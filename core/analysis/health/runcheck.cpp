// SPDX-License-Identifier: MIT
// The run half of tracecheck.h: what makes a run's cross-rank numbers untrustworthy.
#include "analysis/health/tracecheck.h"

#include "analysis/ranks/collectives.h"

#include <algorithm>
#include <map>
#include <set>

namespace ks {

namespace {

void checkMissingRanks(const std::vector<RunRankFacts> &ranks, std::vector<Finding> &out)
{
    int worldSize = 0;
    std::set<int> present;
    for (const RunRankFacts &r : ranks) {
        worldSize = std::max(worldSize, r.worldSize);
        present.insert(r.rank);
    }
    std::vector<int> missing;
    for (int rank = 0; rank < worldSize; ++rank)
        if (!present.contains(rank))
            missing.push_back(rank);
    if (missing.empty())
        return;
    std::string example = "rank";
    example += missing.size() > 1 ? "s " : " ";
    for (size_t i = 0; i < missing.size() && i < 8; ++i)
        example += (i ? ", " : "") + std::to_string(missing[i]);
    if (missing.size() > 8)
        example += " and " + std::to_string(missing.size() - 8) + " more";
    example += " of world_size " + std::to_string(worldSize) + " not in the run";
    out.push_back({Check::MissingRanks, Severity::Warning, missing.size(), kNoSlice, example});
}

/*!
 * Communication kernels per process group ("" when the kernels name none), per rank. A rank that
 * ran none at all (its trace lost them) counts 0 in each group that every other communicating
 * rank is in: the world's.
 */
std::map<std::string, std::vector<int64_t>> collectivesPerGroup(
    const std::vector<RunRankFacts> &ranks)
{
    std::map<std::string, std::vector<int64_t>> counts;
    for (size_t i = 0; i < ranks.size(); ++i) {
        for (const CommRecord &k : *ranks[i].kernels) {
            auto &perRank = counts[k.processGroup];
            perRank.resize(ranks.size(), -1); // -1: the rank is not in the group
            perRank[i] = std::max<int64_t>(perRank[i], 0) + 1;
        }
    }
    for (auto &groupCounts : counts) {
        std::vector<int64_t> &perRank = groupCounts.second;
        bool world = true; // every rank in the group, or silent
        for (size_t i = 0; i < ranks.size(); ++i)
            world = world && (perRank[i] >= 0 || ranks[i].kernels->empty());
        for (size_t i = 0; i < ranks.size() && world; ++i)
            perRank[i] = std::max<int64_t>(perRank[i], 0);
    }
    return counts;
}

void checkCollectiveCounts(const std::vector<RunRankFacts> &ranks, std::vector<Finding> &out)
{
    Finding f;
    f.check = Check::CollectiveCountsDiffer;
    for (const auto &groupCounts : collectivesPerGroup(ranks)) {
        const std::string &group = groupCounts.first;
        const std::vector<int64_t> &perRank = groupCounts.second;
        std::vector<size_t> members;
        for (size_t i = 0; i < perRank.size(); ++i)
            if (perRank[i] >= 0)
                members.push_back(i);
        const auto byCount = [&](size_t a, size_t b) { return perRank[a] < perRank[b]; };
        // The lowest rank of each, as people read them.
        const auto fewest = std::min_element(members.begin(), members.end(), byCount);
        const auto most = std::max_element(members.begin(), members.end(), byCount);
        if (members.size() < 2 || perRank[*fewest] == perRank[*most])
            continue;
        if (f.count++ == 0) {
            f.rankIndex = int(*fewest);
            f.example = (group.empty() ? std::string("communication kernels")
                                       : "process group '" + group + "'")
                + ": rank " + std::to_string(ranks[*fewest].rank) + " ran "
                + std::to_string(perRank[*fewest]) + ", rank " + std::to_string(ranks[*most].rank)
                + " ran " + std::to_string(perRank[*most]);
        }
    }
    if (f.count > 0)
        out.push_back(std::move(f));
}

void checkClocks(const std::vector<RunRankFacts> &ranks, std::vector<Finding> &out)
{
    std::vector<std::pair<TimeNs, TimeNs>> spans;
    spans.reserve(ranks.size());
    for (const RunRankFacts &r : ranks)
        spans.emplace_back(r.start, r.end);
    Finding f;
    f.check = Check::ClocksDoNotOverlap;
    for (size_t i = 0; i < spans.size() && spans.size() > 1; ++i) {
        const bool overlapsAnother = std::any_of(spans.begin(), spans.end(), [&](const auto &o) {
            return &o != &spans[i] && o.first <= spans[i].second && spans[i].first <= o.second;
        });
        if (overlapsAnother)
            continue;
        if (f.count++ == 0) {
            f.rankIndex = int(i);
            f.example = "rank " + std::to_string(ranks[i].rank) + " (" + ranks[i].file + ")";
        }
    }
    if (f.count > 0)
        out.push_back(std::move(f));
}

} // namespace

std::vector<Finding> checkRun(const std::vector<RunRankFacts> &ranks)
{
    std::vector<Finding> out;
    checkMissingRanks(ranks, out);
    checkCollectiveCounts(ranks, out);
    checkClocks(ranks, out);
    return out;
}

} // namespace ks
