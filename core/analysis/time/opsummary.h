// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"

#include <vector>

namespace ks {

/*!
 * One op name's calls (with its input dims, when asked), as the TensorBoard plugin's Operator
 * view and `prof.key_averages()` tell them.
 */
struct OpSummaryRow {
    StringId name = 0;
    StringId inputDims = 0; //!< 0: all dims together (or none recorded)
    uint64_t calls = 0;
    uint64_t backwardCalls = 0; //!< made in the backward pass: inside an autograd node
    TimeNs hostTotal = 0; //!< the calls' durations
    TimeNs hostSelf = 0; //!< less their host children's (ops, annotations, runtime calls)
    TimeNs deviceTotal = 0; //!< GPU work launched inside the calls, nested ops' included
    TimeNs deviceSelf = 0; //!< GPU work they launched themselves, no nested op around the launch
    TimeNs backwardHostTotal = 0; //!< hostTotal of the backward calls
    TimeNs backwardDeviceTotal = 0; //!< deviceTotal of the backward calls
};

struct OpSummary {
    std::vector<OpSummaryRow> rows; //!< by device total, then host total, largest first
};

/*!
 * The host ops (EventKind::CpuOp) of \a graph's trace summed by name, or by name and `Input
 * Dims` with \a byInputDims; only those that start in ProfilerStep#\a step unless it is kNoValue.
 * A host child is the nearest host event below an op but for Python frames, which are looked
 * through (the plugin leaves runtime calls out of an op's self time too); a launch's GPU work is
 * the device self time of the innermost op around it and device total time of every op around it.
 */
OpSummary opSummary(const OpGraph &graph, bool byInputDims = false, int64_t step = kNoValue);

} // namespace ks
