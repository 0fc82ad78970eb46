// SPDX-License-Identifier: MIT
#include "link/stepindex.h"

#include "link/opnames.h"
#include "model/slicewalk.h"

#include <algorithm>

namespace ks {

StepIndex::StepIndex(const TraceModel &model)
{
    const SliceTable &t = model.slices;
    forEachHostSlice(model, [&](SliceId s) {
        if (t.kind[s] == EventKind::GpuUserAnnotation)
            return;
        if (const std::optional<int64_t> n = stepNumberOf(model.sliceName(s)))
            m_steps.push_back({*n, s, t.start[s], t.end(s)});
    });
    std::sort(m_steps.begin(), m_steps.end(),
        [](const ProfilerStep &a, const ProfilerStep &b) { return a.start < b.start; });
}

int64_t StepIndex::stepAt(TimeNs time) const
{
    const int i = stepIndexAt(time);
    return i < 0 ? kNoValue : m_steps[size_t(i)].number;
}

int StepIndex::stepIndexAt(TimeNs time) const
{
    auto it = std::upper_bound(m_steps.begin(), m_steps.end(), time,
        [](TimeNs v, const ProfilerStep &s) { return v < s.start; });
    // Steps do not overlap, but look back a little in case one is nested or zero-length.
    for (int k = 0; k < 2 && it != m_steps.begin(); ++k) {
        --it;
        if (time < it->end || time == it->start)
            return int(it - m_steps.begin());
    }
    return -1;
}

} // namespace ks
