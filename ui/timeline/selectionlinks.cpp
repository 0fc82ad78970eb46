// SPDX-License-Identifier: MIT
#include "timeline/selectionlinks.h"

#include "common/qstrings.h"
#include "common/slicecolors.h"

#include "base/kernelname.h"
#include "base/unitstext.h"

#include <algorithm>

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
    m_callouts.clear();
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
    std::vector<SliceId> roots; // whose GPU work the callouts name
    if (isGpuWork(m_model.slices.kind[s])) {
        if (const SliceId launch = m_graph.launchOf(s); launch != kNoSlice) {
            // A kernel replayed from a CUDA/HIP graph shows its whole replay: every event of the
            // launch, this one's arrow on top.
            if (const GpuInfo *info = m_model.gpu(s); info && info->graphId != kNoValue)
                addLaunchArrows(launch, 1.0);
            m_arrows.push_back({launch, s, SliceColors::launchArrow(), 1.6});
        }
    } else {
        roots.push_back(outerOf(s));
        addLaunchArrows(roots.back(), 1.2);
        for (SliceId c : m_counterparts) {
            roots.push_back(outerOf(c));
            addLaunchArrows(roots.back(), 1.0);
        }
    }
    const bool forwardSide = m_graph.isForwardSide(s);
    for (SliceId c : m_counterparts) {
        if (forwardSide)
            m_arrows.push_back({s, c, SliceColors::pairArrow(), 2.2});
        else
            m_arrows.push_back({c, s, SliceColors::pairArrow(), 2.2});
    }
    addCallouts(roots);
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

namespace ks {

namespace {

//! "name · 1.20 ms" (a GPU event's name shortened).
QString calloutText(const TraceModel &m, SliceId s)
{
    const std::string_view name = m.sliceName(s);
    const std::string shown
        = isGpuWork(m.slices.kind[s]) ? shortKernelName(name) : std::string(name);
    return toQString(shown + " · " + durationText(double(m.slices.dur[s])));
}

//! One stream's GPU events under one op, in time order, named in one line: "k", "k ×12",
//! "12 kernels: a, b, …", with their summed time.
QString streamCalloutText(const TraceModel &m, const std::vector<SliceId> &events)
{
    std::vector<std::string> names;
    TimeNs busy = 0;
    for (SliceId g : events) {
        busy += m.slices.dur[g];
        std::string name = shortKernelName(m.sliceName(g));
        if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(std::move(name));
    }
    std::string text;
    if (events.size() == 1)
        text = names[0];
    else if (names.size() == 1)
        text = names[0] + " ×" + std::to_string(events.size());
    else
        text = std::to_string(events.size()) + " kernels: " + names[0] + ", " + names[1]
            + (names.size() > 2 ? ", …" : "");
    return toQString(text + " · " + durationText(double(busy)));
}

} // namespace

void SelectionLinks::addCallouts(const std::vector<SliceId> &roots)
{
    m_callouts.push_back(
        {m_selected, calloutText(m_model, m_selected), SliceColors::selectionOutline()});
    for (SliceId c : m_counterparts)
        m_callouts.push_back({c, calloutText(m_model, c), SliceColors::counterpartOutline()});
    const SliceTable &t = m_model.slices;
    for (SliceId root : roots) {
        std::map<LaneId, std::vector<SliceId>> byStream;
        for (SliceId g : m_graph.gpuEventsUnder(root))
            byStream[t.lane[g]].push_back(g);
        for (auto &[lane, events] : byStream) {
            std::sort(events.begin(), events.end(),
                [&](SliceId a, SliceId b) { return t.start[a] < t.start[b]; });
            m_callouts.push_back({events.front(), streamCalloutText(m_model, events),
                SliceColors::launchArrow().darker(130)});
        }
    }
}

} // namespace ks
