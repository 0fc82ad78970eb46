// SPDX-License-Identifier: MIT
#pragma once

#include "eventwriter.h"
#include "jsontext.h"
#include "kernels.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ks::gentrace {

inline constexpr int kHostPid = 4100;
inline constexpr int kMainTid = 4100;
inline constexpr int kAutogradTid = 4133;
inline constexpr int kGpuPid = 0;
inline constexpr int kComputeStream = 7;
inline constexpr int kSideStream = 20;
//! The streams a replayed CUDA graph's two branches run on (the capture forked onto a second).
inline constexpr int kGraphStreams[2] = {30, 31};

//! Small deterministic PRNG (splitmix64): same seed, same trace, on every platform.
class Rng {
public:
    explicit Rng(uint64_t seed)
        : m_state(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull)
    {
    }
    uint64_t next();
    //! Uniform in [lo, hi].
    int64_t range(int64_t lo, int64_t hi);
    //! \a base scaled by a factor in [1 - percent/100, 1 + percent/100].
    int64_t jitter(int64_t base, int percent);

private:
    uint64_t m_state;
};

//! Whether a forward op records the thread's current autograd sequence number (§4.1).
enum class Seq : uint8_t { None, Record };

//! Ground truth for one display-level forward op (see the --truth file format).
struct PairRow {
    std::string_view name;
    std::string_view module; //!< innermost nn.Module slice, empty if none
    int64_t ts = 0;
    int step = 0;
    int64_t fwdGpuEvents = 0;
    int64_t fwdGpuNs = 0;
    int64_t bwdGpuEvents = 0;
    int64_t bwdGpuNs = 0;
    //! Launched by recomputed ops (activation checkpointing) inside this row's nodes.
    int64_t recomputeGpuEvents = 0;
    int64_t recomputeGpuNs = 0;
    int64_t recomputedGpuNs = 0; //!< GPU time of the recomputation of this forward op
    bool recomputed = false; //!< the forward op is re-run during backward (checkpointed)
    // With --memory: bytes of [memory] allocations inside the forward op's subtree, those still
    // allocated when the backward pass starts (saved tensors), and inside its nodes.
    int64_t fwdAllocBytes = 0;
    int64_t heldBytes = 0;
    int64_t bwdAllocBytes = 0;
    std::vector<std::string_view> bwdNames; //!< node events in time order
    std::vector<int64_t> sequenceNumbers; //!< same order as bwdNames
};

/*!
 * Simulates one profiled training process: a main thread, the autograd engine thread and two
 * CUDA streams. The model code opens nested slices through RAII scopes; the simulator assigns
 * times (children strictly inside parents), ids, sequence numbers, flows and GPU timing, buffers
 * one step and streams it out in a kineto-like order, keeping memory bounded for any trace size.
 * Section marks (§4.1 ...) in comments refer to docs/linking.md.
 */
class Simulator {
public:
    //! Closes the slices it opened when it goes out of scope.
    class Scope {
    public:
        Scope(Simulator *sim, int depth)
            : m_sim(sim)
            , m_depth(depth)
        {
        }
        Scope(Scope &&other) noexcept
            : m_sim(other.m_sim)
            , m_depth(other.m_depth)
        {
            other.m_sim = nullptr;
        }
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;
        Scope &operator=(Scope &&) = delete;
        ~Scope() { close(); }
        void close();
        //! Leaves the slices open; the caller closes them by other means.
        void release() { m_sim = nullptr; }

    private:
        Simulator *m_sim;
        int m_depth;
    };

    Simulator(EventWriter &writer, uint64_t seed);

    void writeHeader();
    void writeTrailer();

    void beginStep(int number);
    //! Closes the ProfilerStep, writes the step's events and collects its truth rows.
    void endStep();
    const std::vector<PairRow> &stepRows() const { return m_finishedRows; }

    // Host slices on the current thread.
    //! \a concrete: its `Concrete Inputs` (JSON), for the ops perf models read them from.
    [[nodiscard]] Scope op(std::string_view name,
        std::string dims = {},
        std::string types = {},
        Seq seq = Seq::None,
        const std::string &concrete = {});
    //! An op without children; \a workNs of CPU time inside it.
    void leaf(std::string_view name,
        std::string dims = {},
        std::string types = {},
        Seq seq = Seq::None,
        int64_t workNs = 0);
    [[nodiscard]] Scope annotation(std::string_view name);
    //! A python_function frame of the Python tracer (with_stack=True).
    [[nodiscard]] Scope pythonFrame(std::string_view name);
    //! nn.Module slice plus its _call_impl and forward frames (with_stack=True layout).
    [[nodiscard]] Scope module(
        std::string_view moduleName, int moduleId, std::string_view forwardFrame);
    //! CPU time spent between events on the current thread.
    void work(int64_t minNs, int64_t maxNs);
    //! A [memory] instant for an allocation (bytes > 0) or free (bytes < 0).
    void memoryEvent(int64_t bytes, bool onDevice);
    /*!
     * profile_memory=True as the caching allocator reports it (--memory): each leaf op allocates
     * and frees a workspace, each autograd node saves tensors in forward (freed when it runs)
     * and allocates its gradients in backward.
     */
    void recordMemory() { m_recordMemory = true; }
    /*!
     * The shapes Kineto writes since 2026 (--kineto-2026; pytorch/kineto 114171df,
     * libkineto/src/output_json.cpp): Stream Sync on the row tid = stream + 1000000, Stream Wait
     * Events naming their cudaEventRecord, GPU hardware counters under "GPU 0 Counters", CUPTI
     * overhead on pid -1, and graphReplay()'s `graph id` / `graph node id`.
     */
    void writeKineto2026() { m_kineto2026 = true; }
    bool kineto2026() const { return m_kineto2026; }

    // CUDA runtime calls from the current thread.
    void launchKernel(
        const KernelSpec &kernel, int stream = kComputeStream, int64_t durationNs = 0);
    void memcpyHostToDevice(int64_t bytes, int stream = kComputeStream);
    void memcpyDeviceToHost(int64_t bytes, int stream = kComputeStream);
    void memsetAsync(int64_t bytes, int stream = kComputeStream);
    void streamSynchronize(int stream);
    void deviceSynchronize();
    //! cudaEventRecord on \a producer then cudaStreamWaitEvent on \a waiter.
    void streamWaitStream(int waiter, int producer);
    //! cudaGraphLaunch replaying \a kernels as graph \a graphId (node ids from 1) on one stream.
    void graphReplay(int graphId, const std::vector<KernelSpec> &kernels);

    /*!
     * Records that the innermost open op (which must record the current sequence number)
     * creates autograd node \a name, whose event gets Input Dims \a gradShapes. \a body runs inside
     * the node event during backward, \a afterNode inside its evaluate_function wrapper; one
     * AccumulateGrad per shape in \a gradients follows the node.
     */
    void createNode(std::string_view name,
        std::vector<Shape> gradShapes,
        std::function<void()> body,
        std::vector<Shape> gradients = {},
        std::function<void()> afterNode = {});
    //! Runs the step's nodes in reverse creation order on the autograd thread.
    void runBackward();
    /*!
     * Non-reentrant activation checkpointing (torch.utils.checkpoint.checkpoint(fn, x,
     * use_reentrant=False)) of the forward code in \a region: runs it under checkpoint's Python
     * frames; in backward, the first of its nodes that unpacks a saved tensor runs \a region
     * again inside its node event, with grad mode on (see docs/recompute.md).
     */
    void checkpoint(std::function<void()> region);

    int64_t flowPairs() const { return m_flowPairs; }
    int64_t recomputeGpuNs() const { return m_recomputeGpuNs; }
    int stepsWritten() const { return m_steps; }
    //! Stable storage for generated names (events keep string_views).
    std::string_view intern(std::string text);

private:
    struct OpenSlice {
        std::vector<TraceEvent> *buffer = nullptr;
        size_t index = 0;
        Category category = Category::CpuOp;
        int64_t externalId = 0;
        int64_t pythonId = 0;
        int64_t sequenceNumber = -1;
        std::string_view moduleName;
        int fwdOwner = -1; //!< PairRow index credited with forward GPU time
        int bwdOwner = -1; //!< PairRow index credited with backward GPU time
        int recomputeOwner = -1; //!< PairRow index whose node runs this recompute
        int recomputedOwner = -1; //!< PairRow index of the forward op being recomputed
    };

    struct HostThread {
        int tid = 0;
        int64_t now = 0;
        std::vector<OpenSlice> stack;
        std::vector<TraceEvent> events; //!< cpu_op, user_annotation, fwdbwd, [memory]
        std::vector<TraceEvent> python; //!< written after the ops, as kineto does
        int openCpuOps = 0;
        // Autograd state is thread-local (§4.1).
        int64_t sequenceNumber = 0;
        bool gradMode = false;
    };

    struct Node {
        std::string_view name;
        std::string_view wrapperName;
        int64_t sequenceNumber = 0;
        size_t flowStartIndex = 0;
        int owner = -1;
        std::string gradDims;
        std::string gradTypes;
        std::function<void()> body;
        std::function<void()> afterNode;
        std::vector<Shape> gradients;
        int region = -1; //!< CheckpointRegion this node recomputes before its body
        int64_t savedBytes = 0; //!< with --memory: the tensors it saved in forward
        int64_t savedAddress = 0;
    };

    //! A device allocation of --memory, until its free.
    struct LiveAllocation {
        int64_t bytes = 0;
        int fwdOwner = -1; //!< the row of the forward op it was allocated in, this step only
    };

    struct CheckpointRegion {
        size_t firstRow = 0; //!< the region's display-level ops, in m_rows
        size_t endRow = 0;
        std::function<void()> forward;
    };

    //! While a node re-runs a checkpointed region.
    struct Recompute {
        bool active = false;
        int baseOps = 0; //!< open cpu_ops (wrapper and node) around the recomputed ops
        size_t nextRow = 0; //!< the row the next outermost recomputed op repeats
        size_t endRow = 0;
    };

    struct Launch {
        int64_t ts = 0;
        int64_t correlation = 0;
        int64_t externalId = 0;
        int fwdOwner = -1;
        int bwdOwner = -1;
        int recomputeOwner = -1;
        int recomputedOwner = -1;
    };

    enum class RuntimeFlow : uint8_t { Launch, LoneStart, LoneEnd };

    OpenSlice &openSlice(Category category,
        std::string_view name,
        std::vector<TraceEvent> &buffer,
        std::string args);
    void closeSlice();
    OpenSlice &openCpuOp(std::string_view name, std::string args);
    std::string cpuOpArgs(int64_t externalId,
        int64_t sequenceNumber,
        int fwdThreadId,
        const std::string &dims,
        const std::string &types,
        const std::string &concrete = {});
    int64_t innermostExternalId() const;
    int64_t innermostPythonId() const;
    std::string_view innermostModule() const;

    Launch runtimeCall(std::string_view name, int cbid, int64_t durationNs, RuntimeFlow flow);
    void gpuEvent(Category category,
        std::string_view name,
        const Launch &launch,
        int stream,
        int64_t durationNs,
        const std::string &specificArgs);
    void memcpy(std::string_view name, int64_t bytes, int64_t bytesPerUs, int stream);
    void accumulateGrad(const Shape &shape);
    //! A device allocation at a fresh address, credited to the rows around it; its address.
    int64_t allocate(int64_t bytes);
    void release(int64_t address);
    void deviceMemoryEvent(int64_t bytes, int64_t address);
    void recompute(const CheckpointRegion &region, int owner);
    int64_t &streamFree(int stream);
    void flushStep();
    //! --kineto-2026: a cuda_sync event of \a kind on \a tid, for the call \a launch.
    void syncEvent(std::string_view kind,
        const Launch &launch,
        int tid,
        int64_t durationNs,
        const std::string &args);
    void counterSample(int64_t ts, int64_t value);
    void writeMetadata(std::string_view name, int pid, int tid, std::string_view args);

    EventWriter &m_writer;
    Rng m_rng;
    HostThread m_main;
    HostThread m_autograd;
    HostThread *m_current = &m_main;
    std::vector<TraceEvent> m_device; //!< runtime calls, GPU events and ac2g flows
    std::vector<Node> m_nodes;
    std::vector<CheckpointRegion> m_regions;
    Recompute m_recompute;
    std::vector<PairRow> m_rows;
    std::vector<PairRow> m_finishedRows;
    std::unordered_set<std::string> m_strings;
    std::array<int64_t, 2> m_streamFree {};

    std::string m_stepName; //!< ProfilerStep#N, referenced until the step is written
    int m_stepNumber = 0;
    int m_steps = 0;
    int64_t m_traceStart = 0;
    int64_t m_externalId = 0;
    int64_t m_recordFunctionId = 0;
    int64_t m_correlation = 0;
    int64_t m_pythonId = 0;
    int64_t m_fwdbwdId = 0;
    int64_t m_flowPairs = 0;
    int64_t m_recomputeGpuNs = 0;
    std::array<int64_t, 2> m_allocated {}; //!< [memory] totals: host, device
    std::array<int64_t, 2> m_reserved {};
    bool m_recordMemory = false;
    bool m_kineto2026 = false;
    std::unordered_set<int> m_syncRows; //!< streams whose Stream Sync row was used
    int64_t m_memoryAddress = 0; //!< the next memoryEvent's Addr, 0: derived from its size
    int64_t m_nextAddress = int64_t(1) << 56; //!< far above memoryEvent()'s derived addresses
    std::unordered_map<int64_t, LiveAllocation> m_live; //!< by address
    std::vector<int64_t> m_liveForward; //!< per row of the step: its live bytes
};

} // namespace ks::gentrace
