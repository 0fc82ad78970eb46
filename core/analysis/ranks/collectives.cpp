// SPDX-License-Identifier: MIT
#include "analysis/ranks/collectives.h"

#include "link/opnames.h"

#include <algorithm>
#include <map>

namespace ks {

namespace {

std::string countsText(const std::vector<RankComms> &ranks, const std::vector<size_t> &counts)
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

//! How the kernels of \a kernels (every rank's) can be matched: the strongest every one allows.
MatchedBy strongestMatch(const std::vector<RankComms> &ranks)
{
    bool ids = true, groupSeq = true, any = false;
    for (const RankComms &rank : ranks) {
        for (const CommRecord &k : rank.kernels) {
            any = true;
            ids = ids && !k.commsId.empty();
            groupSeq = groupSeq && !k.processGroup.empty() && k.seq != kNoValue;
        }
    }
    return !any    ? MatchedBy::Order
        : ids      ? MatchedBy::CommsId
        : groupSeq ? MatchedBy::GroupSeq
                   : MatchedBy::Order;
}

//! Adds rank \a rankIndex's kernel \a k to \a c (the first kernel names the collective).
void addKernel(Collective &c, const RankComms &rank, uint32_t rankIndex, const CommRecord &k)
{
    if (c.kernels.empty()) {
        c.name = k.collective.empty() ? k.name : k.collective;
        c.processGroup = k.processGroup;
        c.commsId = k.commsId;
        c.seq = k.seq;
    }
    c.kernels.push_back({rankIndex, k.slice, k.start + rank.clockOffset, k.dur});
}

//! First and last start, last arriver, shortest and longest kernel.
void summarise(Collective &c)
{
    const CollectiveKernel &first = c.kernels.front();
    c.firstStart = c.lastStart = first.start;
    c.lastRankIndex = first.rankIndex;
    c.minDur = c.maxDur = first.dur;
    for (const CollectiveKernel &k : c.kernels) {
        c.firstStart = std::min(c.firstStart, k.start);
        if (k.start > c.lastStart) {
            c.lastStart = k.start;
            c.lastRankIndex = k.rankIndex;
        }
        c.minDur = std::min(c.minDur, k.dur);
        c.maxDur = std::max(c.maxDur, k.dur);
    }
}

//! By `Comms Id`, or by process group and `Seq`: one collective per identity.
void matchByIdentity(const std::vector<RankComms> &ranks, CollectiveMatch &match)
{
    std::map<std::string, size_t> byKey;
    size_t repeated = 0;
    for (size_t r = 0; r < ranks.size(); ++r) {
        for (const CommRecord &k : ranks[r].kernels) {
            const std::string key = match.by == MatchedBy::CommsId
                ? k.commsId
                : k.processGroup + '\0' + std::to_string(k.seq);
            const auto [it, added] = byKey.try_emplace(key, match.collectives.size());
            if (added)
                match.collectives.emplace_back().matchedBy = match.by;
            Collective &c = match.collectives[it->second];
            if (!c.kernels.empty() && c.kernels.back().rankIndex == uint32_t(r)) {
                ++repeated; // one rank's second kernel of one identity: its first is kept
                continue;
            }
            c.ordinal = uint32_t(k.seq == kNoValue ? it->second : size_t(k.seq));
            addKernel(c, ranks[r], uint32_t(r), k);
        }
    }
    size_t partial = 0;
    for (const Collective &c : match.collectives)
        partial += c.kernels.size() < ranks.size();
    const std::string by = match.by == MatchedBy::CommsId ? "Comms Id" : "process group and Seq";
    if (partial > 0)
        match.warnings.push_back(std::to_string(partial) + " of "
            + std::to_string(match.collectives.size()) + " collectives (matched by " + by
            + ") lack some ranks: those ranks recorded no kernel of them");
    if (repeated > 0)
        match.warnings.push_back(std::to_string(repeated) + " kernels repeat a " + by
            + " already seen on their rank; the first of each is matched");
}

//! "allreduce #3 (group 0)", for warnings.
std::string collectiveText(const Collective &c)
{
    return c.name + " #" + std::to_string(c.ordinal)
        + (c.processGroup.empty() ? std::string() : " (group " + c.processGroup + ")");
}

//! Up to three collectives of \a names and how many more.
std::string namedList(const std::vector<std::string> &names)
{
    std::string out;
    for (size_t i = 0; i < std::min<size_t>(3, names.size()); ++i)
        out += (i ? ", " : "") + names[i];
    if (names.size() > 3)
        out += " and " + std::to_string(names.size() - 3) + " more";
    return out;
}

//! Order-based matches that cannot be one collective: a rank waited longer than its kernel ran.
void warnDisjoint(const std::vector<Collective> &collectives, std::vector<std::string> &warnings)
{
    std::vector<std::string> disjoint;
    for (const Collective &c : collectives) {
        const bool apart = std::any_of(c.kernels.begin(), c.kernels.end(),
            [&](const CollectiveKernel &k) { return c.wait(k) > k.dur; });
        if (apart)
            disjoint.push_back(collectiveText(c));
    }
    if (!disjoint.empty())
        warnings.push_back("matched by order, " + std::to_string(disjoint.size())
            + " collectives have kernels that do not overlap across ranks (a rank waited longer "
              "than its own kernel ran), so they may not be one collective: "
            + namedList(disjoint));
}

//! The k-th kernel (of a process group, when every kernel names one) on each rank.
void matchByOrder(const std::vector<RankComms> &ranks, CollectiveMatch &match)
{
    bool allNamed = true, any = false;
    for (const RankComms &rank : ranks) {
        for (const CommRecord &k : rank.kernels) {
            any = true;
            allNamed = allNamed && !k.processGroup.empty();
        }
    }
    match.byProcessGroup = allNamed && any;
    std::map<std::string, std::vector<std::vector<const CommRecord *>>> groups;
    for (size_t r = 0; r < ranks.size(); ++r) {
        for (const CommRecord &k : ranks[r].kernels) {
            auto &perRank = groups[match.byProcessGroup ? k.processGroup : std::string()];
            perRank.resize(ranks.size());
            perRank[r].push_back(&k);
        }
    }
    for (const auto &[group, perRank] : groups) {
        std::vector<size_t> counts;
        size_t longest = 0, shortest = SIZE_MAX;
        for (const auto &list : perRank) {
            counts.push_back(list.size());
            longest = std::max(longest, list.size());
            if (!list.empty())
                shortest = std::min(shortest, list.size());
        }
        const std::string prefix
            = match.byProcessGroup ? "process group \"" + group + "\": " : std::string();
        if (shortest != longest)
            match.warnings.push_back(prefix
                + "the ranks hold different numbers of communication kernels ("
                + countsText(ranks, counts)
                + "); collectives past the shortest are matched by position and miss ranks");
        std::vector<std::string> namesDiffer;
        for (size_t k = 0; k < longest; ++k) {
            Collective &c = match.collectives.emplace_back();
            c.ordinal = uint32_t(k);
            bool differ = false;
            const CommRecord *first = nullptr;
            for (size_t r = 0; r < perRank.size(); ++r) {
                if (k >= perRank[r].size())
                    continue;
                const CommRecord &ck = *perRank[r][k];
                differ = differ || (first && ck.name != first->name);
                first = first ? first : &ck;
                addKernel(c, ranks[r], uint32_t(r), ck);
            }
            if (differ)
                namesDiffer.push_back(collectiveText(c));
        }
        if (!namesDiffer.empty())
            match.warnings.push_back(prefix + std::to_string(namesDiffer.size()) + " of "
                + std::to_string(longest)
                + " collectives have different kernel names on different ranks: the ranks may "
                  "not have run the same collectives in the same order: "
                + namedList(namesDiffer));
    }
}

} // namespace

std::vector<CommKernel> communicationKernels(const OpGraph &graph)
{
    const TraceModel &m = graph.model();
    CommunicationNames communication(m);
    std::vector<CommKernel> out;
    for (SliceId g : graph.gpuEvents()) {
        if (m.slices.kind[g] == EventKind::Kernel && communication(g))
            out.push_back({g, m.slices.start[g], m.gpu(g)});
    }
    std::stable_sort(out.begin(), out.end(),
        [](const CommKernel &a, const CommKernel &b) { return a.start < b.start; });
    return out;
}

std::string_view matchedByName(MatchedBy by)
{
    switch (by) {
    case MatchedBy::CommsId:
        return "comms_id";
    case MatchedBy::GroupSeq:
        return "group_seq";
    case MatchedBy::Order:
        break;
    }
    return "order";
}

std::vector<CommRecord> commRecords(const OpGraph &graph)
{
    const TraceModel &m = graph.model();
    std::vector<CommRecord> out;
    for (const CommKernel &k : communicationKernels(graph)) {
        CommRecord &r = out.emplace_back();
        r.slice = k.slice;
        r.start = k.start;
        r.dur = m.slices.dur[k.slice];
        r.name = m.sliceName(k.slice);
        if (k.info) {
            r.collective = m.str(k.info->collective);
            r.processGroup = m.str(k.info->processGroup);
            r.commsId = m.str(k.info->commsId);
            r.seq = k.info->seq;
        }
    }
    return out;
}

CollectiveMatch matchCollectives(const std::vector<RankComms> &ranks)
{
    CollectiveMatch match;
    match.by = strongestMatch(ranks);
    if (match.by == MatchedBy::Order)
        matchByOrder(ranks, match);
    else
        matchByIdentity(ranks, match);
    for (Collective &c : match.collectives)
        summarise(c);
    if (match.by == MatchedBy::Order)
        warnDisjoint(match.collectives, match.warnings);
    std::stable_sort(match.collectives.begin(), match.collectives.end(),
        [](const Collective &a, const Collective &b) { return a.firstStart < b.firstStart; });
    return match;
}

} // namespace ks
