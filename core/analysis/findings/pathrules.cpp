// SPDX-License-Identifier: MIT
#include "analysis/findings/pathrules.h"

#include "base/kernelname.h"
#include "base/unitstext.h"
#include "model/slicewalk.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace ks {

namespace {

//! The path's segments of one cause, gathered by a name.
struct Cause {
    TimeNs onPath = 0; //!< their time on the path
    std::vector<FindingEvidence> events; //!< distinct, in path order
};

const TraceModel &modelOf(const CriticalPathAnalysis &path, uint32_t rank)
{
    return path.ranks()[rank].graph->model();
}

std::string_view nameOf(const CriticalPathAnalysis &path, const PathSegment &seg)
{
    return modelOf(path, seg.rank).sliceName(seg.event);
}

//! The segments \a pick keeps, by the name \a pick gives them (empty: not kept).
template<typename Pick>
std::map<std::string, Cause> causes(const CriticalPathAnalysis &path, Pick pick)
{
    std::map<std::string, Cause> out;
    for (const PathSegment &seg : path.path().segments) {
        if (seg.event == kNoSlice)
            continue;
        const std::string name = pick(seg);
        if (name.empty())
            continue;
        Cause &c = out[name];
        c.onPath += seg.dur;
        const FindingEvidence e {seg.rank, seg.event};
        if (std::none_of(c.events.begin(), c.events.end(),
                [&](const FindingEvidence &o) { return o.rank == e.rank && o.event == e.event; }))
            c.events.push_back(e);
    }
    return out;
}

std::string stepText(const CriticalPathAnalysis &path)
{
    const int64_t step = path.path().step;
    return step == kNoValue ? "the whole trace" : "ProfilerStep#" + std::to_string(step);
}

//! "1 call", "3 calls".
std::string countOf(size_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

std::string microsOf(TimeNs ns)
{
    return microsText(ns) + " µs";
}

//! \a factor as `--what-if` reads it back exactly: "0.125".
std::string factorText(double factor)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", factor);
    return text;
}

//! \a finding of \a cause, whose change \a how gives the path \a length, if that is shorter.
void addIfShorter(const CriticalPathAnalysis &path,
    TimeNs length,
    std::string how,
    Cause cause,
    StepFinding finding,
    std::vector<StepFinding> &out)
{
    if (length >= path.path().length)
        return;
    finding.saving = path.path().length - length;
    finding.how = std::move(how);
    if (cause.events.size() > kMostEvidence)
        cause.events.resize(kMostEvidence);
    finding.evidence = std::move(cause.events);
    out.push_back(std::move(finding));
}

//! A finding of \a cause whose change is \a name's GPU work at \a factor, if it saves time.
void addWhatIf(const CriticalPathAnalysis &path,
    const std::string &name,
    double factor,
    Cause cause,
    StepFinding finding,
    std::vector<StepFinding> &out)
{
    const TimeNs length = path.lengthIf(name, std::strtod(factorText(factor).c_str(), nullptr));
    addIfShorter(
        path, length, name + ":" + factorText(factor), std::move(cause), std::move(finding), out);
}

bool containsNoCase(std::string_view text, std::string_view part)
{
    return std::search(text.begin(), text.end(), part.begin(), part.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a))
            == std::tolower(static_cast<unsigned char>(b));
    }) != text.end();
}

//! The innermost op around \a s and the innermost Python frame, as "aten::item (train.py(9): f)".
std::string callerText(const TraceModel &m, SliceId s)
{
    std::string out;
    for (SliceId p = m.slices.parent[s]; p != kNoSlice; p = m.slices.parent[p])
        if (m.slices.kind[p] == EventKind::CpuOp) {
            out = std::string(m.sliceName(p));
            break;
        }
    const std::vector<SliceId> frames = pythonStack(m, s);
    if (!frames.empty())
        out += (out.empty() ? "" : " ") + ("(" + std::string(m.sliceName(frames.front())) + ")");
    return out;
}

} // namespace

void findHostSyncs(const CriticalPathAnalysis &path, std::vector<StepFinding> &out)
{
    const auto byCall = causes(path, [&](const PathSegment &seg) {
        return seg.bound == PathBound::SyncWait ? std::string(nameOf(path, seg)) : std::string();
    });
    for (auto [call, cause] : byCall) {
        const auto named = [&, call = call](uint32_t rank, SliceId s) {
            return modelOf(path, rank).sliceName(s) == call;
        };
        const TimeNs length = path.lengthWith({{}, named});
        const FindingEvidence &first = cause.events.front();
        const std::string caller = callerText(modelOf(path, first.rank), first.event);
        StepFinding f;
        f.rule = "host_sync";
        f.title = call;
        if (!caller.empty())
            f.title.append(" called from ").append(caller);
        f.title.append(" waits ")
            .append(microsOf(cause.onPath))
            .append(" for the GPU on the critical path of ")
            .append(stepText(path))
            .append(" (")
            .append(countOf(cause.events.size(), "call", "calls"))
            .append("): the host launches nothing meanwhile.");
        f.fix = "Keep values on the GPU inside the step: no .item(), .cpu(), .tolist() or "
                "printing of CUDA tensors there (log them every N steps), copies with "
                "non_blocking=True; torch.cuda.set_sync_debug_mode(\"warn\") names each sync.";
        f.doc = "https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html"
                "#avoid-unnecessary-cpu-gpu-synchronization";
        addIfShorter(path, length, "no wait: " + call, std::move(cause), std::move(f), out);
    }
}

void findDeviceFrees(const CriticalPathAnalysis &path, std::vector<StepFinding> &out)
{
    static constexpr std::array<std::string_view, 4> kFrees
        = {"cudaFree", "hipFree", "cudaFreeHost", "hipHostFree"};
    // The calls' own time: idle told under the call that waited after it is not the free's.
    const auto frees = causes(path, [&](const PathSegment &seg) {
        const std::string_view name = nameOf(path, seg);
        return seg.kind == PathEdgeKind::Span
                && std::find(kFrees.begin(), kFrees.end(), name) != kFrees.end()
            ? std::string(name)
            : std::string();
    });
    for (auto [name, cause] : frees) {
        const auto scale = [&, name = name](uint32_t rank, SliceId s) -> std::optional<double> {
            return modelOf(path, rank).sliceName(s) == name ? std::optional(0.0) : std::nullopt;
        };
        const TimeNs length = path.lengthWith({scale, {}});
        StepFinding f;
        f.rule = "device_free";
        f.title = name;
        f.title.append(" gives device memory back on the critical path of ")
            .append(stepText(path))
            .append(": ")
            .append(microsOf(cause.onPath))
            .append(" in ")
            .append(countOf(cause.events.size(), "call", "calls"))
            .append(", each waiting for the device.");
        f.fix = "Let PyTorch's caching allocator keep its blocks: no torch.cuda.empty_cache() "
                "in the step, steady tensor shapes, "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True where fragmentation forces "
                "frees; free outside the step.";
        f.doc = "https://pytorch.org/docs/stable/notes/cuda.html#memory-management";
        addIfShorter(path, length, "free at no time: " + name, std::move(cause), std::move(f), out);
    }
}

void findPageableCopies(const CriticalPathAnalysis &path, std::vector<StepFinding> &out)
{
    const auto copies = causes(path, [&](const PathSegment &seg) {
        const std::string_view name = nameOf(path, seg);
        return isGpuWork(modelOf(path, seg.rank).slices.kind[seg.event])
                && name.find("HtoD") != std::string_view::npos
                && name.find("Pageable") != std::string_view::npos
            ? std::string(name)
            : std::string();
    });
    for (const auto &[name, cause] : copies) {
        StepFinding f;
        f.rule = "pageable_copy";
        f.title = "Host-to-device copies from pageable memory ("
            + countOf(cause.events.size(), "copy", "copies") + ") take " + microsOf(cause.onPath)
            + " of the critical path of " + stepText(path) + ".";
        f.fix = "Pin the host memory the copies read: DataLoader(pin_memory=True), or "
                "tensor.pin_memory() once, then .to(device, non_blocking=True); pinned copies run "
                "at about twice the bandwidth and do not hold the host.";
        f.doc = "https://pytorch.org/tutorials/intermediate/pinmem_nonblock.html";
        addWhatIf(path, name, 0.5, cause, std::move(f), out);
    }
}

void findExposedCommunication(const CriticalPathAnalysis &path, std::vector<StepFinding> &out)
{
    const auto kernels = causes(path, [&](const PathSegment &seg) {
        return seg.bound == PathBound::GpuCommunication ? std::string(nameOf(path, seg))
                                                        : std::string();
    });
    for (const auto &[name, cause] : kernels) {
        StepFinding f;
        f.rule = "exposed_communication";
        f.title = shortKernelName(name) + " is exposed on the critical path of " + stepText(path)
            + " for " + microsOf(cause.onPath) + " ("
            + countOf(cause.events.size(), "kernel", "kernels") + "): no computation hides it.";
        f.fix = "Overlap it with computation: DDP all-reduces gradient buckets during backward "
                "(bucket_cap_mb, gradient_as_bucket_view=True), FSDP prefetches "
                "(backward_prefetch, forward_prefetch); avoid waiting on a collective right after "
                "issuing it.";
        f.doc = "https://pytorch.org/docs/stable/notes/ddp.html";
        addWhatIf(path, name, 0, cause, std::move(f), out);
    }
}

void findFp32Gemms(
    const CriticalPathAnalysis &path, const OpEfficiency &efficiency, std::vector<StepFinding> &out)
{
    // Rank 0's devices: efficiency is one trace's.
    auto peaksOf = [&](const PathSegment &seg) -> const DevicePeaks * {
        const GpuInfo *gpu = modelOf(path, seg.rank).gpu(seg.event);
        for (const OpEfficiency::Device &d : efficiency.devices())
            if (gpu && d.trace.id == gpu->device && d.peaks && d.peaks->tflops.count("matrix_tf32")
                && d.peaks->tflops.count("vector_fp32"))
                return d.peaks;
        return nullptr;
    };
    std::map<std::string, const DevicePeaks *> device;
    const auto gemms = causes(path, [&](const PathSegment &seg) {
        const std::string_view name = nameOf(path, seg);
        const DevicePeaks *peaks
            = seg.rank == 0 && containsNoCase(name, "sgemm") ? peaksOf(seg) : nullptr;
        if (!peaks)
            return std::string();
        device[std::string(name)] = peaks;
        return std::string(name);
    });
    for (const auto &[name, cause] : gemms) {
        const DevicePeaks &peaks = *device[name];
        const double factor = peaks.tflops.at("vector_fp32") / peaks.tflops.at("matrix_tf32");
        StepFinding f;
        f.rule = "fp32_gemm";
        f.title = shortKernelName(name) + " multiplies fp32 matrices without tensor cores on "
            + peaks.name + ": " + microsOf(cause.onPath) + " of the critical path of "
            + stepText(path) + " (" + countOf(cause.events.size(), "kernel", "kernels") + ").";
        f.fix = "Let fp32 matmuls use TF32 tensor cores: "
                "torch.backends.cuda.matmul.allow_tf32 = True (or "
                "torch.set_float32_matmul_precision(\"high\")), or train in bf16 with "
                "torch.autocast.";
        f.doc = "https://pytorch.org/docs/stable/notes/cuda.html"
                "#tensorfloat-32-tf32-on-ampere-and-later-devices";
        addWhatIf(path, name, factor, cause, std::move(f), out);
    }
}

void findBelowRoofline(
    const CriticalPathAnalysis &path, const OpEfficiency &efficiency, std::vector<StepFinding> &out)
{
    // Per op name, over its instances with a roofline and GPU time: their kernel time and the
    // time each would take at kRooflineTarget of its roofline (never more than it took).
    struct Rolled {
        TimeNs kernel = 0;
        double targetNs = 0, rooflineNs = 0;
        Cause cause;
    };
    const TraceModel &m = modelOf(path, 0);
    const OpGraph &graph = *path.ranks()[0].graph;
    // A copy between host and device is bound by the link, not by the device's memory: its
    // roofline says nothing (pageable_copy speaks of it).
    auto copies = [&](SliceId op) {
        const auto gpu = graph.gpuEventsUnder(op);
        return std::any_of(gpu.begin(), gpu.end(),
            [&](SliceId g) { return m.slices.kind[g] == EventKind::Memcpy; });
    };
    std::map<std::string, Rolled> byName;
    for (const OpInstance &in : efficiency.instances()) {
        if (!in.outermost || in.fromForwardShapes || !in.roofline || in.kernelTime <= 0
            || copies(in.op))
            continue;
        Rolled &r = byName[std::string(m.sliceName(in.op))];
        const double roofline = in.roofline->us * 1e3;
        r.kernel += in.kernelTime;
        r.rooflineNs += roofline;
        r.targetNs += std::min(double(in.kernelTime), roofline / kRooflineTarget);
        r.cause.events.push_back({0, in.op});
    }
    for (auto &[name, r] : byName) {
        const double share = r.rooflineNs / double(r.kernel);
        if (share >= kRooflineTarget)
            continue;
        std::sort(r.cause.events.begin(), r.cause.events.end(),
            [&](const FindingEvidence &a, const FindingEvidence &b) {
                return m.slices.start[a.event] < m.slices.start[b.event];
            });
        StepFinding f;
        f.rule = "below_roofline";
        f.title = name + " reaches " + percentText(r.rooflineNs, double(r.kernel), 1)
            + " % of its roofline over " + countOf(r.cause.events.size(), "call", "calls") + ": "
            + microsOf(r.kernel) + " of GPU time where the hardware's peaks need "
            + microsOf(TimeNs(std::llround(r.rooflineNs))) + ".";
        f.fix = "Look at its kernels: fuse it with its neighbours (torch.compile), a layout its "
                "kernels prefer (channels_last for convolutions), bf16 or fp16 with "
                "torch.autocast, larger batches for small matrices.";
        f.doc = "https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html";
        addWhatIf(path, name, r.targetNs / double(r.kernel), std::move(r.cause), std::move(f), out);
    }
}

} // namespace ks
