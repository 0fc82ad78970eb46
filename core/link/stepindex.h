// SPDX-License-Identifier: MIT
#pragma once

#include "link/linktypes.h"

#include <vector>

namespace ks {

//! The `ProfilerStep#N` slices of the host threads, in time order, and which one holds a time.
class StepIndex {
public:
    explicit StepIndex(const TraceModel &model);

    const std::vector<ProfilerStep> &steps() const { return m_steps; }
    //! N of the step containing \a t, kNoValue if none.
    int64_t stepAt(TimeNs t) const;
    //! Index into steps() of the step containing \a t, -1 if none.
    int stepIndexAt(TimeNs t) const;

private:
    std::vector<ProfilerStep> m_steps;
};

} // namespace ks
