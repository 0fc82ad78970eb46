// SPDX-License-Identifier: MIT
#include "flowbinder.h"

#include <algorithm>
#include <tuple>

namespace ks {

static_assert(sizeof(FlowEndpoint) == 56, "a trace holds millions: keep it unpadded");

void FlowBinder::add(FlowEndpoint endpoint)
{
    endpoint.order = m_fileOrder++;
    m_flows.push_back(endpoint);
}

void FlowBinder::sort()
{
    std::sort(m_flows.begin(), m_flows.end(), [](const FlowEndpoint &a, const FlowEndpoint &b) {
        return std::tie(a.cat, a.name, a.idIsText, a.id, a.order)
            < std::tie(b.cat, b.name, b.idIsText, b.id, b.order);
    });
}

void FlowBinder::bind(TraceModel &m, const LaneOf &laneOfKey)
{
    auto laneOf = [&](const FlowEndpoint &p, bool preferDevice) -> LaneId {
        for (bool device : {preferDevice, !preferDevice}) {
            const LaneId lane = laneOfKey(p.pid, p.tid, device);
            if (lane != kNoLane)
                return lane;
        }
        return kNoLane;
    };
    auto bindTo = [&](const FlowEndpoint &p, LaneId lane) -> SliceId {
        if (lane == kNoLane)
            return kNoSlice;
        if (p.ph == 'f' && !p.bindEnclosing)
            return m.firstStartingAtOrAfter(lane, p.ts);
        return m.innermostAt(lane, p.ts);
    };

    std::vector<const FlowEndpoint *> steps, chain; // of one key; kept to reuse their memory
    size_t i = 0;
    while (i < m_flows.size()) {
        size_t j = i;
        while (j < m_flows.size() && m_flows[j].cat == m_flows[i].cat
            && m_flows[j].name == m_flows[i].name && m_flows[j].idIsText == m_flows[i].idIsText
            && m_flows[j].id == m_flows[i].id)
            ++j;
        const FlowEndpoint *start = nullptr;
        const FlowEndpoint *finish = nullptr;
        steps.clear();
        for (size_t k = i; k < j; ++k) {
            const FlowEndpoint &p = m_flows[k];
            if (p.ph == 's') {
                if (start)
                    m.diagnostics.add(Diag::DuplicateFlowStart, p.offset,
                        "second flow start with the same id: ignored");
                else
                    start = &p;
            } else if (p.ph == 'f') {
                if (finish)
                    m.diagnostics.add(Diag::DuplicateFlowEnd, p.offset,
                        "second flow end with the same id: ignored");
                else
                    finish = &p;
            } else {
                steps.push_back(&p);
            }
        }
        const FlowKind kind = flowKindFromCategory(m.strings.view(m_flows[i].cat));
        if (start && finish) {
            ++m.flowKeysWithBothEnds;
            std::stable_sort(
                steps.begin(), steps.end(), [](auto *a, auto *b) { return a->ts < b->ts; });
            chain.assign(1, start);
            chain.insert(chain.end(), steps.begin(), steps.end());
            chain.push_back(finish);
            for (size_t k = 0; k + 1 < chain.size(); ++k) {
                const FlowEndpoint &a = *chain[k];
                const FlowEndpoint &b = *chain[k + 1];
                FlowEdge edge;
                edge.kind = kind;
                edge.category = a.cat;
                edge.fromLane = laneOf(a, false);
                edge.toLane = laneOf(b, kind == FlowKind::LaunchToGpu);
                edge.fromTime = a.ts;
                edge.toTime = b.ts;
                edge.from = bindTo(a, edge.fromLane);
                edge.to = bindTo(b, edge.toLane);
                edge.id = a.idIsText ? kNoValue : a.id;
                if (edge.fromLane == kNoLane || edge.toLane == kNoLane) {
                    m.diagnostics.add(Diag::FlowOnUnknownThread, b.offset,
                        "flow endpoint on a thread without events: ignored");
                    continue;
                }
                if (edge.from == kNoSlice || edge.to == kNoSlice)
                    m.diagnostics.add(Diag::FlowEndpointUnbound, b.offset,
                        "flow endpoint does not fall on any slice");
                if (edge.from != kNoSlice && edge.from == edge.to) {
                    m.diagnostics.add(
                        Diag::FlowToItself, b.offset, "flow starts and ends on one slice: ignored");
                    continue;
                }
                m.flows.push_back(edge);
            }
        } else if ((start || finish) && kind == FlowKind::FwdBwd) {
            // Lone launch flows are normal in Kineto's files; a lone fwdbwd end loses a pair link.
            m.diagnostics.add(Diag::FwdbwdFlowOneEnded, (start ? start : finish)->offset,
                start ? "fwdbwd flow start without an end" : "fwdbwd flow end without a start");
        } else if (start) {
            m.diagnostics.add(
                Diag::FlowStartWithoutEnd, start->offset, "flow start without an end");
        } else if (finish) {
            m.diagnostics.add(
                Diag::FlowEndWithoutStart, finish->offset, "flow end without a start");
        } else {
            m.diagnostics.add(
                Diag::FlowStepWithoutEnds, steps.front()->offset, "flow step without start or end");
        }
        i = j;
    }
    m_flows.release();
}

} // namespace ks
