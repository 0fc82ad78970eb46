// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <vector>

namespace ks {

/*!
 * Calls \a visit(slice) for every slice of every host thread, lane by lane and in slice order,
 * which within a lane is the pre-order of the nesting tree: a parent comes before its children.
 */
template<typename Visit> void forEachHostSlice(const TraceModel &model, Visit &&visit)
{
    for (const Lane &lane : model.lanes) {
        if (lane.device)
            continue;
        for (SliceId s = lane.sliceBegin; s < lane.sliceEnd; ++s)
            visit(s);
    }
}

//! The same over every GPU stream.
template<typename Visit> void forEachDeviceSlice(const TraceModel &model, Visit &&visit)
{
    for (const Lane &lane : model.lanes) {
        if (!lane.device)
            continue;
        for (SliceId s = lane.sliceBegin; s < lane.sliceEnd; ++s)
            visit(s);
    }
}

//! The Python frames around \a s (`with_stack`), innermost first; \a s first if it is one.
inline std::vector<SliceId> pythonStack(const TraceModel &model, SliceId s)
{
    std::vector<SliceId> frames;
    for (SliceId p = s; p != kNoSlice; p = model.slices.parent[p]) {
        if (model.slices.kind[p] == EventKind::PythonFunction)
            frames.push_back(p);
    }
    return frames;
}

} // namespace ks
