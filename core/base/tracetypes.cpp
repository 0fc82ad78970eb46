// SPDX-License-Identifier: MIT
#include "base/tracetypes.h"

namespace ks {

EventKind kindFromCategory(std::string_view c)
{
    // Ordered by frequency in real traces.
    if (c == "cpu_op" || c == "Operator")
        return EventKind::CpuOp;
    if (c == "cuda_runtime" || c == "cuda_driver" || c == "Runtime" || c == "Driver")
        return EventKind::Runtime;
    if (c == "kernel" || c == "Kernel")
        return EventKind::Kernel;
    // Other accelerators as Kineto names them (pytorch/kineto 114171df,
    // libkineto/include/ActivityType.h, _activityTypeNames): their runtimes launch, MTIA's
    // CCP events are its device work.
    if (c == "mtia_runtime" || c == "xpu_runtime" || c == "xpu_driver" || c == "privateuse1_runtime"
        || c == "privateuse1_driver")
        return EventKind::Runtime;
    if (c == "mtia_ccp_events")
        return EventKind::Kernel;
    if (c == "xpu_sync")
        return EventKind::GpuSync;
    if (c == "overhead")
        return EventKind::Overhead;
    if (c == "python_function")
        return EventKind::PythonFunction;
    if (c == "user_annotation")
        return EventKind::UserAnnotation;
    if (c == "gpu_memcpy" || c == "Memcpy")
        return EventKind::Memcpy;
    if (c == "gpu_memset" || c == "Memset")
        return EventKind::Memset;
    if (c == "gpu_user_annotation")
        return EventKind::GpuUserAnnotation;
    if (c == "cuda_sync" || c == "cuda_event")
        return EventKind::GpuSync;
    if (c == "Trace")
        return EventKind::TraceSpan;
    return EventKind::Other;
}

std::string_view kindName(EventKind kind)
{
    switch (kind) {
    case EventKind::CpuOp:
        return "cpu_op";
    case EventKind::UserAnnotation:
        return "user_annotation";
    case EventKind::PythonFunction:
        return "python_function";
    case EventKind::Runtime:
        return "runtime";
    case EventKind::Kernel:
        return "kernel";
    case EventKind::Memcpy:
        return "memcpy";
    case EventKind::Memset:
        return "memset";
    case EventKind::GpuUserAnnotation:
        return "gpu_user_annotation";
    case EventKind::GpuSync:
        return "gpu_sync";
    case EventKind::Overhead:
        return "overhead";
    case EventKind::TraceSpan:
        return "trace";
    case EventKind::Other:
        return "other";
    }
    return "other";
}

} // namespace ks
