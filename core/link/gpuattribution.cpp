// SPDX-License-Identifier: MIT
#include "link/gpuattribution.h"

#include "link/opnames.h"
#include "model/slicewalk.h"

#include <algorithm>

namespace ks {

namespace {

SliceId innermostCpuOp(const SliceTable &t, SliceId s)
{
    for (SliceId a = t.parent[s]; a != kNoSlice; a = t.parent[a]) {
        if (t.kind[a] == EventKind::CpuOp)
            return a;
    }
    return kNoSlice;
}

//! The value of \a key in a vector of (key, value) sorted by key; the first one on duplicates.
template<typename K, typename V>
V lookup(const std::vector<std::pair<K, V>> &sorted, const K &key, V none)
{
    auto it = std::lower_bound(sorted.begin(), sorted.end(), key,
        [](const std::pair<K, V> &e, const K &k) { return e.first < k; });
    return it != sorted.end() && it->first == key ? it->second : none;
}

//! Ops by External id, for the launches outside every op: built on first need.
class OpsByExternalId {
public:
    explicit OpsByExternalId(const SliceTable &t)
        : m_t(t)
    {
    }
    //! The op with \a id when exactly one op has it.
    SliceId only(int64_t id)
    {
        if (!m_built) {
            m_built = true;
            for (SliceId s = 0; s < m_t.size(); ++s) {
                if (m_t.kind[s] == EventKind::CpuOp && m_t.externalId[s] != kNoValue)
                    m_ops.emplace_back(m_t.externalId[s], s);
            }
            std::sort(m_ops.begin(), m_ops.end());
        }
        const auto lo = std::partition_point(
            m_ops.begin(), m_ops.end(), [&](const auto &e) { return e.first < id; });
        const auto hi
            = std::partition_point(lo, m_ops.end(), [&](const auto &e) { return e.first <= id; });
        return hi - lo == 1 ? lo->second : kNoSlice;
    }

private:
    const SliceTable &m_t;
    bool m_built = false;
    std::vector<std::pair<int64_t, SliceId>> m_ops;
};

//! Step 5: the innermost enclosing cpu_op, refined by the launch's External id unless it merely
//! repeats the correlation (2022–2024 traces).
SliceId opAroundLaunch(const SliceTable &t, SliceId launch, OpsByExternalId &byExternalId)
{
    SliceId op = innermostCpuOp(t, launch);
    const int64_t ext = t.externalId[launch];
    if (ext == kNoValue || ext == t.correlation[launch])
        return op;
    if (op == kNoSlice)
        return byExternalId.only(ext);
    for (SliceId a = op; a != kNoSlice; a = t.parent[a]) {
        if (t.kind[a] == EventKind::CpuOp && t.externalId[a] == ext)
            return a;
    }
    return op;
}

} // namespace

GpuAttribution::GpuAttribution(const TraceModel &model)
    : m_model(model)
{
    const SliceTable &t = model.slices;

    // Step 4: GPU event → launch by correlation; the launch flow is the fallback. Sorted vectors
    // rather than hash maps: millions of entries, looked up once each.
    std::vector<std::pair<int64_t, SliceId>> launchByCorrelation;
    forEachHostSlice(model, [&](SliceId s) {
        if (t.kind[s] == EventKind::Runtime && t.correlation[s] != kNoValue)
            launchByCorrelation.emplace_back(t.correlation[s], s);
    });
    // On a duplicate correlation the first launch in lane order wins.
    std::stable_sort(launchByCorrelation.begin(), launchByCorrelation.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<std::pair<SliceId, SliceId>> launchByFlow; // GPU event → launch
    for (const FlowEdge &e : model.flows) {
        if (e.kind == FlowKind::LaunchToGpu && e.from != kNoSlice && e.to != kNoSlice
            && t.kind[e.from] == EventKind::Runtime)
            launchByFlow.emplace_back(e.to, e.from);
    }
    std::stable_sort(launchByFlow.begin(), launchByFlow.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    CommunicationNames communication(model);

    forEachDeviceSlice(model, [&](SliceId s) {
        if (isGpuWork(t.kind[s]))
            m_gpuEvents.push_back(s);
    });
    m_launch.assign(m_gpuEvents.size(), kNoSlice);
    m_launchingOp.assign(m_gpuEvents.size(), kNoSlice);
    m_stats.gpuEvents = m_gpuEvents.size();

    OpsByExternalId byExternalId(t);
    for (uint32_t i = 0; i < m_gpuEvents.size(); ++i) {
        const SliceId g = m_gpuEvents[i];
        m_stats.communication += communication(g);
        SliceId launch = kNoSlice;
        if (t.correlation[g] != kNoValue)
            launch = lookup(launchByCorrelation, t.correlation[g], kNoSlice);
        if (launch == kNoSlice)
            launch = lookup(launchByFlow, g, kNoSlice);
        if (launch == kNoSlice)
            continue;
        m_launch[i] = launch;
        ++m_stats.withLaunch;
        m_launchingOp[i] = opAroundLaunch(t, launch, byExternalId);
        m_stats.attributed += m_launchingOp[i] != kNoSlice;
    }

    // GPU events ordered by launch slice: a subtree [s, subtreeEnd) is then one range.
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < m_gpuEvents.size(); ++i) {
        if (m_launch[i] != kNoSlice)
            order.push_back(i);
    }
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::tie(m_launch[a], m_gpuEvents[a]) < std::tie(m_launch[b], m_gpuEvents[b]);
    });
    m_launchSorted.reserve(order.size());
    m_gpuByLaunch.reserve(order.size());
    m_prefixTime.reserve(order.size() + 1);
    m_prefixTime.push_back(0);
    for (uint32_t i : order) {
        m_launchSorted.push_back(m_launch[i]);
        m_gpuByLaunch.push_back(m_gpuEvents[i]);
        m_prefixTime.push_back(m_prefixTime.back() + t.dur[m_gpuEvents[i]]);
    }
}

int GpuAttribution::indexOf(SliceId gpuEvent) const
{
    // GPU events are collected lane by lane in slice order: sorted.
    auto it = std::lower_bound(m_gpuEvents.begin(), m_gpuEvents.end(), gpuEvent);
    return it != m_gpuEvents.end() && *it == gpuEvent ? int(it - m_gpuEvents.begin()) : -1;
}

SliceId GpuAttribution::launchOf(SliceId gpuEvent) const
{
    const int i = indexOf(gpuEvent);
    return i < 0 ? kNoSlice : m_launch[size_t(i)];
}

SliceId GpuAttribution::launchingOp(SliceId gpuEvent) const
{
    const int i = indexOf(gpuEvent);
    return i < 0 ? kNoSlice : m_launchingOp[size_t(i)];
}

std::span<const SliceId> GpuAttribution::eventsUnder(SliceId slice) const
{
    const auto lo = std::lower_bound(m_launchSorted.begin(), m_launchSorted.end(), slice);
    const auto hi = std::lower_bound(lo, m_launchSorted.end(), m_model.slices.subtreeEnd[slice]);
    return std::span<const SliceId>(m_gpuByLaunch)
        .subspan(size_t(lo - m_launchSorted.begin()), size_t(hi - lo));
}

GpuTotals GpuAttribution::totalsUnder(SliceId slice) const
{
    const auto lo = std::lower_bound(m_launchSorted.begin(), m_launchSorted.end(), slice);
    const auto hi = std::lower_bound(lo, m_launchSorted.end(), m_model.slices.subtreeEnd[slice]);
    const size_t a = size_t(lo - m_launchSorted.begin());
    const size_t b = size_t(hi - m_launchSorted.begin());
    return {uint32_t(b - a), m_prefixTime[b] - m_prefixTime[a]};
}

} // namespace ks
