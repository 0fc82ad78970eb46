// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/timeline/curve.h"
#include "link/opgraph.h"

#include <string>
#include <string_view>
#include <vector>

namespace ks {

//! One track of curves the timeline draws under its lanes.
struct CurveTrack {
    enum class Kind : uint8_t { Memory, Counter };
    Kind kind = Kind::Counter;
    std::string label; //!< "cuda:0", "cpu" (PyTorch's device names), or the counter's series
    int64_t pid = 0; //!< a counter's process
    /*!
     * A counter's device where its process says so ("GPU 0 Counters": CUPTI PM sampling) or is a
     * device's own pid (MTIA counters), else -1.
     */
    int device = -1;
    //! Memory: "allocated", then "reserved" where the trace gives it; a counter: its series.
    std::vector<Curve> curves;
    std::vector<std::string> curveNames;
    //! Memory: the event in TraceModel::memory of each point of curves[0] (who allocated there).
    std::vector<uint32_t> events;
    /*!
     * Memory without `Total Allocated` (1.9 traces): "allocated" is the running sum of `Bytes`
     * from 0 at the first event, so it counts what the profiled window added, not the total.
     */
    bool relative = false;
};

//! The forward and the backward phase of one ProfilerStep, shaded behind the curves.
struct StepPhases {
    size_t step = 0; //!< index into OpGraph::steps()
    TimeNs forwardBegin = 0, forwardEnd = 0; //!< paired forward ops; empty when begin == end
    TimeNs backwardBegin = 0, backwardEnd = 0; //!< backward nodes (their outermost events)
};

struct TraceCurves {
    //! Memory per device in (type, id) order, then the counters in the order the trace has them.
    std::vector<CurveTrack> tracks;
    std::vector<StepPhases> phases; //!< one per step with a forward or a backward phase
};

/*!
 * The memory curves of \a graph's trace (each device's `Total Allocated` and `Total Reserved`
 * after every `[memory]` event), its `C` counters, and the phases of its steps.
 */
TraceCurves traceCurves(const OpGraph &graph);
//! N for a counter process named "GPU N Counters" (or "GPU N"), else -1.
int deviceOfCounters(std::string_view pid);

} // namespace ks
