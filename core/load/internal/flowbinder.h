// SPDX-License-Identifier: MIT
#pragma once

#include "base/podvector.h"
#include "model/tracemodel.h"

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace ks {

//! One flow event (`s`, `t` or `f`), kept until the lanes it binds to are built. A trace has
//! one or two per kernel: the fields are ordered so that no padding comes between them.
struct FlowEndpoint {
    StringId cat, name;
    int64_t id; //!< the numeric id, or the interned text of a non-numeric one
    int64_t pid, tid; //!< lane keys, as the builder derives them
    TimeNs ts;
    uint64_t offset;
    uint32_t order = 0; //!< file order, set by FlowBinder::add()
    bool idIsText;
    char ph;
    bool bindEnclosing; //!< "bp": "e"
};

/*!
 * Turns flow events into edges between slices. Events are keyed by (category, name, id), the
 * v1 flow key (Perfetto keys them so too); each key's start, steps (in time order) and end are
 * chained into edges. An endpoint binds to the innermost slice open on its lane at its time, an
 * `f` without "bp": "e" to the next slice starting there, as viewers bind them.
 */
class FlowBinder {
public:
    //! The lane of (pid, tid) on the host or device side, kNoLane if it has none.
    using LaneOf = std::function<LaneId(int64_t pid, int64_t tid, bool device)>;

    void add(FlowEndpoint endpoint);
    size_t size() const { return m_flows.size(); }
    //! The endpoints added, in file order (a segment's, for the builder before it); empty after.
    PodVector<FlowEndpoint> takeEndpoints() { return std::exchange(m_flows, {}); }
    //! Sorts by key, in file order within a key; may run beside the building of the lanes.
    void sort();
    //! Appends the edges to \a model's flows and counts what does not bind; empty afterwards.
    void bind(TraceModel &model, const LaneOf &laneOf);

private:
    PodVector<FlowEndpoint> m_flows; //!< grows without copying (podvector.h)
    uint32_t m_fileOrder = 0;
};

} // namespace ks
