// SPDX-License-Identifier: MIT
#include "analysis/efficiency/oprates.h"

#include "analysis/time/gputime.h"

namespace ks {

TimeNs subtreeKernelTime(const OpGraph &graph, SliceId op)
{
    const SliceTable &t = graph.model().slices;
    std::vector<std::pair<TimeNs, TimeNs>> intervals;
    for (SliceId e : graph.gpuEventsUnder(op))
        intervals.emplace_back(t.start[e], t.end(e));
    return busyTime(std::move(intervals));
}

OpRates ratesOf(const OpWork &work, TimeNs kernelTime)
{
    OpRates r;
    r.gflops = work.flops / 1e9;
    const double seconds = double(kernelTime) / 1e9;
    if (kernelTime > 0)
        r.tflopsPerS = (r.gflops / 1e3) / seconds;
    if (!work.bytes)
        return r;
    r.dataMovedMiB = *work.bytes / (1024.0 * 1024.0);
    if (*work.bytes > 0)
        r.flopsPerByte = work.flops / *work.bytes;
    if (kernelTime > 0)
        r.tbPerS = (*work.bytes / 1e12) / seconds;
    return r;
}

} // namespace ks
