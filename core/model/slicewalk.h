// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

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

} // namespace ks
