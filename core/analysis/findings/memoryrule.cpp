// SPDX-License-Identifier: MIT
#include "analysis/findings/memoryrule.h"

#include "base/unitstext.h"

namespace ks {

void findFragmentation(const MemoryIndex &memory, std::vector<StepFinding> &out)
{
    for (const MemoryDevice &d : memory.devices()) {
        // A GPU's caching allocator: the CPU's reports no cached blocks to reuse.
        if (d.deviceType == 0 || d.peakAllocated == kNoValue || d.peakReserved == kNoValue
            || d.peakAllocated <= 0
            || double(d.peakReserved) <= kReservedOverAllocated * double(d.peakAllocated))
            continue;
        StepFinding f;
        f.rule = "memory_fragmentation";
        f.title = memoryDeviceName(d.deviceType, d.deviceId) + " reserved "
            + bytesText(double(d.peakReserved)) + " at most for "
            + bytesText(double(d.peakAllocated))
            + " allocated at most: " + bytesText(double(d.peakReserved - d.peakAllocated))
            + " held in cached blocks (fragmentation), which bounds the batch that fits.";
        f.how = "not a change of the step's work: it frees memory, not time";
        f.fix = "Let the caching allocator grow segments instead of splitting them: "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; allocate tensors of "
                "varying size less often (pad sequence lengths to buckets).";
        f.doc = "https://pytorch.org/docs/stable/notes/"
                "cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf";
        out.push_back(std::move(f));
    }
}

} // namespace ks
