// SPDX-License-Identifier: MIT
#include "analysis/findings/gpurules.h"

#include "analysis/findings/ruletools.h"
#include "base/kernelname.h"
#include "base/unitstext.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace ks {

namespace {

bool containsNoCase(std::string_view text, std::string_view part)
{
    return std::search(text.begin(), text.end(), part.begin(), part.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a))
            == std::tolower(static_cast<unsigned char>(b));
    }) != text.end();
}

} // namespace

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
        addIfShorter(path, scaledWork(name, 0.5), cause, std::move(f), out);
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
        addIfShorter(path, scaledWork(name, 0), cause, std::move(f), out);
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
        addIfShorter(path, scaledWork(name, factor), cause, std::move(f), out);
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
        addIfShorter(path, scaledWork(name, r.targetNs / double(r.kernel)), std::move(r.cause),
            std::move(f), out);
    }
}

} // namespace ks
