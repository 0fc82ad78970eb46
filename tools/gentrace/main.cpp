// SPDX-License-Identifier: MIT
// kinetoscope-gentrace: writes a deterministic synthetic PyTorch 2.x profiler trace.

#include "demomodel.h"
#include "eventwriter.h"
#include "outputsink.h"
#include "simulator.h"
#include "truthfile.h"

#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

using namespace ks::gentrace;

namespace {

constexpr int kExitUsage = 1;
constexpr int kExitWrite = 3;
constexpr int kFirstStep = 10;
constexpr int64_t kBytesPerMb = 1'000'000;
// What the trailer (metadata, spans) adds after the last step.
constexpr int64_t kTrailerBytes = 4'000;

struct Options {
    int steps = 3;
    int64_t targetMb = 0;
    uint64_t seed = 1;
    bool checkpoint = false;
    bool memory = false;
    bool kineto2026 = false;
    Device device = Device::Cuda;
    std::string truthPath;
    std::string outPath;
};

void printUsage(std::FILE *to)
{
    std::fputs(
        "usage: kinetoscope-gentrace [--steps N] [--target-mb M] [--seed S] [--checkpoint]\n"
        "                            [--memory] [--kineto-2026] [--device cuda|mtia]\n"
        "                            [--truth TRUTH.json] OUT\n"
        "\n"
        "Writes a synthetic PyTorch 2.x profiler (Kineto) trace of a small CNN + transformer\n"
        "training loop. OUT ending in .gz is gzip-compressed.\n"
        "\n"
        "  --steps N        training steps (ProfilerStep#10 ...), default 3\n"
        "  --target-mb M    add steps until the uncompressed output reaches about M MB\n"
        "                   (10^6 bytes); overrides --steps\n"
        "  --seed S         seed for duration jitter, default 1; same arguments, same bytes\n"
        "  --checkpoint     run the transformer block under non-reentrant activation\n"
        "                   checkpointing (use_reentrant=False): backward re-runs it inside\n"
        "                   the first of its nodes that unpacks a saved tensor; the truth file\n"
        "                   gains recompute fields\n"
        "  --memory         profile_memory=True: [memory] events for every leaf op's workspace,\n"
        "                   each node's saved tensors (freed when it runs) and its gradients;\n"
        "                   the truth file gains fwd_alloc_bytes, held_bytes, bwd_alloc_bytes\n"
        "  --kineto-2026    write what Kineto writes since 2026 (pytorch/kineto 114171df):\n"
        "                   Stream Sync rows, Stream Wait Events, GPU hardware counters,\n"
        "                   CUPTI overhead, and an eval pass replayed from a CUDA graph\n"
        "                   (graph id, graph node id) after each step\n"
        "  --device mtia    an MTIA-like trace: mtia_runtime calls launch mtia_ccp_events\n"
        "  --truth FILE     also write the generator's ground truth (pairs, counts) as JSON\n"
        "\n"
        "exit status: 0 success, 1 usage error, 3 output not writable\n",
        to);
}

template<typename T> std::optional<T> parseNumber(std::string_view text)
{
    T value {};
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (result.ec != std::errc() || result.ptr != text.data() + text.size())
        return std::nullopt;
    return value;
}

//! Returns false (after a message) on any usage error.
bool parseArguments(int argc, char **argv, Options &options, bool &help)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            help = true;
            return true;
        }
        const bool takesValue = arg == "--steps" || arg == "--target-mb" || arg == "--seed"
            || arg == "--truth" || arg == "--device";
        if (takesValue && i + 1 >= argc) {
            std::fprintf(stderr, "kinetoscope-gentrace: %s needs a value\n", argv[i]);
            return false;
        }
        if (arg == "--steps") {
            const auto steps = parseNumber<int>(argv[++i]);
            if (!steps || *steps < 1) {
                std::fprintf(stderr, "kinetoscope-gentrace: --steps wants a positive integer\n");
                return false;
            }
            options.steps = *steps;
        } else if (arg == "--target-mb") {
            const auto mb = parseNumber<int64_t>(argv[++i]);
            if (!mb || *mb < 1 || *mb > 1'000'000) {
                std::fprintf(stderr, "kinetoscope-gentrace: --target-mb wants 1..1000000\n");
                return false;
            }
            options.targetMb = *mb;
        } else if (arg == "--seed") {
            const auto seed = parseNumber<uint64_t>(argv[++i]);
            if (!seed) {
                std::fprintf(stderr, "kinetoscope-gentrace: --seed wants an unsigned integer\n");
                return false;
            }
            options.seed = *seed;
        } else if (arg == "--checkpoint") {
            options.checkpoint = true;
        } else if (arg == "--memory") {
            options.memory = true;
        } else if (arg == "--kineto-2026") {
            options.kineto2026 = true;
        } else if (arg == "--device") {
            const std::string_view device = argv[++i];
            if (device != "cuda" && device != "mtia") {
                std::fprintf(stderr, "kinetoscope-gentrace: --device wants cuda or mtia\n");
                return false;
            }
            options.device = device == "mtia" ? Device::Mtia : Device::Cuda;
        } else if (arg == "--truth") {
            options.truthPath = argv[++i];
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::fprintf(stderr, "kinetoscope-gentrace: unknown option %s\n", argv[i]);
            return false;
        } else if (options.outPath.empty()) {
            options.outPath = arg;
        } else {
            std::fprintf(stderr, "kinetoscope-gentrace: more than one output file given\n");
            return false;
        }
    }
    if (options.outPath.empty()) {
        std::fprintf(stderr, "kinetoscope-gentrace: no output file given\n");
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    Options options;
    bool help = false;
    if (!parseArguments(argc, argv, options, help)) {
        printUsage(stderr);
        return kExitUsage;
    }
    if (help) {
        printUsage(stdout);
        return 0;
    }

    OutputSink sink;
    if (!sink.open(options.outPath)) {
        std::fprintf(stderr, "kinetoscope-gentrace: cannot write %s\n", options.outPath.c_str());
        return kExitWrite;
    }
    TruthFile truth;
    const bool withTruth = !options.truthPath.empty();
    if (withTruth && !truth.open(options.truthPath, options.checkpoint, options.memory)) {
        std::fprintf(stderr, "kinetoscope-gentrace: cannot write %s\n", options.truthPath.c_str());
        return kExitWrite;
    }

    EventWriter writer(sink);
    writer.setDevice(options.device);
    Simulator simulator(writer, options.seed);
    if (options.memory)
        simulator.recordMemory();
    if (options.kineto2026)
        simulator.writeKineto2026();
    DemoModel model(simulator, options.checkpoint);
    simulator.writeHeader();

    const int64_t targetBytes = options.targetMb * kBytesPerMb - kTrailerBytes;
    for (int step = kFirstStep;; ++step) {
        model.trainStep(step);
        if (withTruth)
            truth.addRows(simulator.stepRows());
        if (sink.failed())
            break;
        const bool done = options.targetMb > 0 ? int64_t(sink.bytesWritten()) >= targetBytes
                                               : simulator.stepsWritten() >= options.steps;
        if (done)
            break;
    }
    simulator.writeTrailer();

    if (!sink.close()) {
        std::fprintf(stderr, "kinetoscope-gentrace: error writing %s\n", options.outPath.c_str());
        return kExitWrite;
    }
    if (withTruth) {
        const TruthCounts counts {writer.events(), writer.cpuOps(), writer.gpuEvents(),
            simulator.flowPairs(), simulator.stepsWritten(), simulator.recomputeGpuNs()};
        if (!truth.finish(counts)) {
            std::fprintf(
                stderr, "kinetoscope-gentrace: error writing %s\n", options.truthPath.c_str());
            return kExitWrite;
        }
    }
    return 0;
}
