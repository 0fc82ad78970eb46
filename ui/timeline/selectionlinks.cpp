// SPDX-License-Identifier: MIT
#include "timeline/selectionlinks.h"

#include "common/slicecolors.h"

#include <map>

namespace ks {

void SelectionLinks::update(SliceId selected)
{
    if (selected == m_selected)
        return;
    m_selected = selected;
    compute();
    ++m_computations;
}

void SelectionLinks::compute()
{
    m_counterparts.clear();
    m_arrows.clear();
    const SliceId s = m_selected;
    if (s == kNoSlice)
        return;
    m_counterparts = m_graph.counterparts(s);
    auto outerOf = [&](SliceId x) {
        const int n = m_graph.nodeOf(x);
        return n >= 0 ? m_graph.nodes()[size_t(n)].outer : x;
    };
    // Launch → GPU work for the selection and for its counterparts (so both sides' kernels show),
    // then the pair arrows on top.
    if (isGpuWork(m_model.slices.kind[s])) {
        if (const SliceId launch = m_graph.launchOf(s); launch != kNoSlice) {
            // A kernel replayed from a CUDA/HIP graph shows its whole replay: every event of the
            // launch, this one's arrow on top.
            if (const GpuInfo *info = m_model.gpu(s); info && info->graphId != kNoValue)
                addLaunchArrows(launch, 1.0);
            m_arrows.push_back({launch, s, SliceColors::launchArrow(), 1.6});
        }
    } else {
        addLaunchArrows(outerOf(s), 1.2);
        for (SliceId c : m_counterparts)
            addLaunchArrows(outerOf(c), 1.0);
    }
    const bool forwardSide = m_graph.isForwardSide(s);
    for (SliceId c : m_counterparts) {
        if (forwardSide)
            m_arrows.push_back({s, c, SliceColors::pairArrow(), 2.2});
        else
            m_arrows.push_back({c, s, SliceColors::pairArrow(), 2.2});
    }
}

void SelectionLinks::addLaunchArrows(SliceId root, qreal width)
{
    const auto gpu = m_graph.gpuEventsUnder(root);
    if (gpu.size() <= kReadableArrows) {
        for (SliceId g : gpu)
            if (const SliceId launch = m_graph.launchOf(g); launch != kNoSlice)
                m_arrows.push_back({launch, g, SliceColors::launchArrow(), width});
        return;
    }
    // Hundreds of arrows draw as a solid mass: one per stream, from the op to its first event.
    struct Bundle {
        SliceId first;
        size_t count;
    };
    std::map<LaneId, Bundle> bundles;
    const SliceTable &t = m_model.slices;
    for (SliceId g : gpu) {
        auto [it, fresh] = bundles.try_emplace(t.lane[g], Bundle {g, 0});
        if (t.start[g] < t.start[it->second.first])
            it->second.first = g;
        ++it->second.count;
    }
    for (const auto &[lane, b] : bundles)
        m_arrows.push_back({root, b.first, SliceColors::launchArrow(), width + 1.0, b.count});
}

} // namespace ks
