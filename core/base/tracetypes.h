// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

namespace ks {

//! Times are integer nanoseconds as written in the file (ts × 1000), never doubles.
using TimeNs = int64_t;
using SliceId = uint32_t;
using LaneId = uint32_t;

constexpr SliceId kNoSlice = std::numeric_limits<SliceId>::max();
constexpr LaneId kNoLane = std::numeric_limits<LaneId>::max();
//! Marks an absent integer arg (`External id`, `Sequence number`, …).
constexpr int64_t kNoValue = std::numeric_limits<int64_t>::min();

/*!
 * What an event is, from its category. Legacy PyTorch 1.8–1.9 categories (`Operator`,
 * `Runtime`, `Kernel`, `Memcpy`, `Memset`) map onto the modern ones.
 */
enum class EventKind : uint8_t {
    CpuOp, //!< cpu_op / Operator: ATen op, autograd node, custom Function
    UserAnnotation, //!< user_annotation: record_function, ProfilerStep#N
    PythonFunction, //!< python_function: Python tracer frames, nn.Module calls
    Runtime, //!< cuda_runtime / cuda_driver / Runtime: API calls that launch GPU work
    Kernel, //!< kernel / Kernel
    Memcpy, //!< gpu_memcpy / Memcpy
    Memset, //!< gpu_memset / Memset
    GpuUserAnnotation, //!< gpu_user_annotation: an annotation projected on a stream, not GPU work
    GpuSync, //!< cuda_sync, cuda_event and other device-side bookkeeping
    Overhead, //!< overhead: time the profiler itself took (CUPTI buffer flushes, …), not GPU work
    TraceSpan, //!< Trace: the whole-profile span
    Other,
};

EventKind kindFromCategory(std::string_view category);
std::string_view kindName(EventKind kind);

//! Kernels, memcpys and memsets: the GPU work that time is attributed to.
constexpr bool isGpuWork(EventKind k)
{
    return k == EventKind::Kernel || k == EventKind::Memcpy || k == EventKind::Memset;
}

//! Events that live on device (GPU stream) lanes rather than host threads.
constexpr bool isDeviceKind(EventKind k)
{
    return isGpuWork(k) || k == EventKind::GpuUserAnnotation || k == EventKind::GpuSync;
}

//! A `process_labels` value naming an accelerator: "GPU 0", "MTIA 0", "XPU 0" (not "CPU").
constexpr bool isDeviceLabel(std::string_view label)
{
    return label.starts_with("GPU") || label.starts_with("MTIA") || label.starts_with("XPU");
}

//! Events that keep a GpuInfo (device, stream, …): GPU work and the sync events of a stream.
constexpr bool hasGpuInfo(EventKind k)
{
    return isGpuWork(k) || k == EventKind::GpuSync;
}

} // namespace ks
