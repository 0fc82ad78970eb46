// SPDX-License-Identifier: MIT
#include "timeline/selectionlinks.h"

#include "common/slicecolors.h"

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
    int drawn = 0;
    auto launchArrows = [&](SliceId root, qreal width) {
        for (SliceId g : m_graph.gpuEventsUnder(root)) {
            if (++drawn > kMaxArrows)
                return;
            const SliceId launch = m_graph.launchOf(g);
            if (launch != kNoSlice)
                m_arrows.push_back({launch, g, SliceColors::launchArrow(), width});
        }
    };
    if (isGpuWork(m_model.slices.kind[s])) {
        if (m_graph.launchOf(s) != kNoSlice)
            m_arrows.push_back({m_graph.launchOf(s), s, SliceColors::launchArrow(), 1.6});
    } else {
        launchArrows(outerOf(s), 1.2);
        for (SliceId c : m_counterparts)
            launchArrows(outerOf(c), 1.0);
    }
    const bool forwardSide = m_graph.isForwardSide(s);
    for (SliceId c : m_counterparts) {
        if (forwardSide)
            m_arrows.push_back({s, c, SliceColors::pairArrow(), 2.2});
        else
            m_arrows.push_back({c, s, SliceColors::pairArrow(), 2.2});
    }
}

} // namespace ks
