// SPDX-License-Identifier: MIT
#pragma once

#include "base/diagnostics.h"
#include "base/podvector.h"
#include "base/stringpool.h"
#include "base/tracetypes.h"

#include <map>
#include <string>
#include <vector>

namespace ks {

/*!
 * One host thread or one GPU stream: the (pid, tid) of its events. Host and device events can
 * share a (pid, tid) — ROCm traces use pid 1 for both the process and GPU 1 — so the lane key
 * includes which side the events belong to, decided by their category.
 */
struct Lane {
    int64_t pid = 0; //!< numeric pid, or a key derived from a non-numeric one
    int64_t tid = 0; //!< numeric tid, or a key derived from a non-numeric one
    StringId pidText = 0; //!< pid exactly as written in the file
    StringId tidText = 0; //!< tid exactly as written in the file
    bool device = false; //!< GPU stream lane (kernels, memcpys, …) rather than a host thread
    StringId threadName = 0; //!< from `thread_name` metadata
    int64_t sortIndex = kNoValue; //!< from `thread_sort_index` metadata
    SliceId sliceBegin = 0; //!< this lane's slices are [sliceBegin, sliceEnd) of the slice table
    SliceId sliceEnd = 0;
    uint32_t maxDepth = 0;
    uint32_t instantBegin = 0; //!< instants [instantBegin, instantEnd)
    uint32_t instantEnd = 0;
};

//! Metadata of a process (pid); host and device sides are separate as for lanes.
struct Process {
    int64_t pid = 0;
    StringId pidText = 0;
    bool device = false;
    StringId name = 0; //!< `process_name`
    StringId labels = 0; //!< `process_labels`, e.g. "CPU" or "GPU 0"
    int64_t sortIndex = kNoValue;
};

//! Extra columns of GPU events and of a stream's sync events (hasGpuInfo()).
struct GpuInfo {
    int32_t device = -1;
    int32_t stream = -1;
    int32_t grid[3] = {0, 0, 0};
    int32_t block[3] = {0, 0, 0};
    StringId collective = 0; //!< `Collective name` of a communication kernel, 0 if absent
    StringId processGroup = 0; //!< `Process Group Name`, 0 if absent
    StringId commsId = 0; //!< `Comms Id` as written, 0 if absent
    int64_t seq = kNoValue; //!< `Seq`, the collective's number in its process group
    int64_t graphId = kNoValue; //!< `graph id`: the CUDA/HIP graph it was replayed from
    int64_t graphNodeId = kNoValue; //!< `graph node id` in that graph
    //! A cuda_sync wait's `wait_on_cuda_event_record_corr_id`: the cudaEventRecord it waits on.
    int64_t waitOnRecord = kNoValue;
    //! Its `wait_on_stream`: the stream that cudaEventRecord recorded on, -1 if absent.
    int32_t waitOnStream = -1;
    /*!
     * PyTorch's annotation of a graph node (torch.cuda.graph_annotations, baked in by its
     * exporter: `"cudaGraphInlineAnnotated": true`): the kernel's `args.name`, 0 if none.
     */
    StringId annotation = 0;
    //! Where the exporter moved an annotated kernel to a lane: the stream it ran on, else -1.
    int32_t originalStream = -1;
};

/*!
 * All slices (X events and matched B/E pairs) as struct-of-arrays. Slices are grouped by lane;
 * within a lane they are sorted by (start ascending, duration descending, file order), which is
 * the pre-order of the nesting tree: a slice's descendants are exactly [id + 1, subtreeEnd[id]).
 * The columns are PodVectors: the loader's own columns become them, reordered in place, instead
 * of being copied into new memory (every new page is a page fault).
 */
struct SliceTable {
    enum Flag : uint8_t {
        Unfinished = 1, //!< a B event without its E: closed at the end of the trace
        TsDecimalsMask = 0x6, //!< decimals of ts as written (0–3), bits 1–2
        DurDecimalsMask = 0x18, //!< decimals of dur as written (0–3), bits 3–4
        //! dur was missing, not a number or negative: taken as 0, and a load warning says so
        DurRepaired = 0x20,
    };

    PodVector<TimeNs> start;
    PodVector<TimeNs> dur;
    PodVector<StringId> name;
    PodVector<StringId> category; //!< category as written
    PodVector<EventKind> kind;
    PodVector<uint8_t> flags;
    PodVector<LaneId> lane;
    PodVector<uint32_t> depth;
    PodVector<SliceId> parent; //!< kNoSlice for top-level slices
    PodVector<SliceId> subtreeEnd;
    PodVector<int64_t> externalId; //!< `External id` / `external id`
    PodVector<int64_t> correlation; //!< `correlation`
    PodVector<int64_t> sequence; //!< `Sequence number`
    PodVector<int64_t> fwdThread; //!< `Fwd thread id`
    PodVector<StringId> inputDims; //!< `Input Dims` as compact JSON, 0 if absent
    PodVector<uint32_t> extra; //!< index into TraceModel::gpuInfo / cpuInfo by kind, or ~0
    PodVector<uint64_t> offset; //!< byte offset of the event in the decompressed text

    size_t size() const { return start.size(); }
    TimeNs end(SliceId s) const { return start[s] + dur[s]; }
    int tsDecimals(SliceId s) const { return (flags[s] & TsDecimalsMask) >> 1; }
    int durDecimals(SliceId s) const { return (flags[s] & DurDecimalsMask) >> 3; }
};

//! Extra columns of host ops.
struct CpuInfo {
    int64_t evIdx = kNoValue; //!< `Ev Idx` / `Profiler Event Index`
    int64_t recordFunctionId = kNoValue; //!< `Record function id`
    StringId inputTypes = 0; //!< `Input type` as compact JSON
    StringId concreteInputs = 0; //!< `Concrete Inputs` as compact JSON (a conv's stride, …)
};

//! Instant events (`i`/`I`), grouped by lane like slices and sorted by time.
struct InstantTable {
    std::vector<TimeNs> time;
    std::vector<StringId> name;
    std::vector<LaneId> lane; //!< kNoLane for global-scope instants
    std::vector<uint64_t> offset;
    size_t size() const { return time.size(); }
};

/*!
 * The allocator's events (`[memory]` instants of profile_memory=True traces, `[OutOfMemory]` on
 * a failed allocation), in time order (file order on ties), whatever their thread. Each is also
 * an instant of InstantTable. Absent args are kNoValue; the oldest traces (1.9) have only
 * `Device Type`, `Device Id` and `Bytes`.
 */
struct MemoryTable {
    std::vector<TimeNs> time;
    std::vector<LaneId> lane; //!< the host thread that allocated or freed
    std::vector<int64_t> deviceType; //!< `Device Type`: 0 CPU, 1 CUDA, …
    std::vector<int64_t> deviceId; //!< `Device Id`, -1 for the CPU
    std::vector<int64_t> addr; //!< `Addr`
    std::vector<int64_t> bytes; //!< `Bytes`: > 0 an allocation, < 0 a free
    std::vector<int64_t> totalAllocated; //!< `Total Allocated` after the event
    std::vector<int64_t> totalReserved; //!< `Total Reserved` after the event
    std::vector<uint8_t> outOfMemory; //!< 1 for `[OutOfMemory]`
    std::vector<uint64_t> offset;
    size_t size() const { return time.size(); }
};

//! One counter track: the values of one `C` event arg over time.
struct CounterSeries {
    int64_t pid = 0;
    StringId pidText = 0; //!< the pid as written: "GPU 0 Counters" for a device's counters
    StringId name = 0; //!< "<event name>.<arg name>", or the event name for a single arg
    std::vector<TimeNs> time;
    std::vector<double> value;
};

enum class FlowKind : uint8_t {
    FwdBwd, //!< `fwdbwd` (2.1+), `forward_backward` (1.10)
    LaunchToGpu, //!< `ac2g`, `async_cpu_to_gpu`, `async` (≤1.9): runtime launch → GPU event
    Other,
};

FlowKind flowKindFromCategory(std::string_view category);

//! One flow (s → f, with any t steps as further edges), bound to slices as viewers bind them.
struct FlowEdge {
    FlowKind kind = FlowKind::Other;
    StringId category = 0;
    SliceId from = kNoSlice;
    SliceId to = kNoSlice;
    LaneId fromLane = kNoLane;
    LaneId toLane = kNoLane;
    TimeNs fromTime = 0; //!< ts of the `s` event
    TimeNs toTime = 0; //!< ts of the `f` event
    int64_t id = kNoValue; //!< numeric id, kNoValue for string ids
};

//! The library that inflates a gzip file: zlib, the reference, or ISA-L, 3-4x faster.
enum class Inflater : uint8_t { Zlib, Isal };

/*!
 * A place in a gzip file to start inflating other than its start (the idea of zlib's
 * examples/zran.c): where the deflate stream is, and what inflating on from there needs. The
 * loader records them, the details reader starts at them; this layer only keeps them.
 */
struct SeekPoint {
    uint64_t compressedOffset = 0; //!< file byte where inflating goes on
    uint64_t textOffset = 0; //!< decompressed offset (of the whole text, all members) there
    uint8_t bits = 0; //!< zlib: the next block starts in the top \a bits bits of that byte
    uint64_t memberStart = 0; //!< file byte where the point's member starts (its header)
    uint64_t memberText = 0; //!< decompressed offset where that member's text starts
    /*!
     * zlib (at a block boundary): up to 32 KiB of the member's text before textOffset, which the
     * next blocks may refer back to. ISA-L (anywhere): its whole state there, which holds them.
     */
    std::vector<uint8_t> state;
};

//! Seek points into a gzip trace's text, in text order; empty for plain files.
struct GzipIndex {
    Inflater inflater = Inflater::Zlib; //!< which recorded the points: they resume only with it
    std::vector<SeekPoint> points;

    //! The last point at or before decompressed offset \a textOffset; null if none.
    const SeekPoint *pointAtOrBefore(uint64_t textOffset) const;
    size_t memoryUsage() const;
};

/*!
 * A loaded trace, frozen: the loader fills it once on its worker thread and afterwards it is
 * only read (shared between threads through a shared_ptr<const TraceModel>).
 */
struct TraceModel {
    std::string path;
    bool compressed = false;
    uint64_t fileSize = 0;
    uint64_t textSize = 0; //!< decompressed bytes parsed
    bool truncated = false; //!< the file ended before the JSON was complete
    uint64_t eventCount = 0; //!< entries of traceEvents read, all phases
    double loadSeconds = 0;

    StringPool strings;
    std::vector<Process> processes;
    std::vector<Lane> lanes; //!< host lanes, then device lanes, each by (pid, tid)
    SliceTable slices;
    PodVector<GpuInfo> gpuInfo; //!< grown where it is built, never copied (SliceTable)
    PodVector<CpuInfo> cpuInfo;
    InstantTable instants;
    MemoryTable memory;
    std::vector<CounterSeries> counters;
    std::vector<FlowEdge> flows;
    uint64_t flowKeysWithBothEnds = 0; //!< distinct (cat, name, id) with a start and a finish
    //! Kernels whose name the loader demangled (ROCm's `_Z…`), by slice: the name as the file
    //! writes it. Demangling can shorten two kernels to one name; this tells them apart.
    std::vector<std::pair<SliceId, StringId>> writtenKernelNames;

    //! Top-level keys other than traceEvents, each as compact JSON text.
    std::map<std::string, std::string> metadata;
    int64_t baseTimeNs = 0; //!< `baseTimeNanoseconds`, 0 if absent
    bool arrayLayout = false; //!< the file is a bare event array
    GzipIndex gzipIndex; //!< where reading an event's details may start inflating

    TimeNs minTime = 0; //!< earliest slice/instant time, the origin of the timeline
    TimeNs maxTime = 0;

    Diagnostics diagnostics;

    std::string_view str(StringId id) const { return strings.view(id); }
    std::string_view sliceName(SliceId s) const { return strings.view(slices.name[s]); }
    //! \a s's name as the file writes it (a demangled kernel's mangled name, else its name).
    StringId writtenName(SliceId s) const;
    const GpuInfo *gpu(SliceId s) const;
    const CpuInfo *cpu(SliceId s) const;

    //! Innermost slice on \a lane that is open at \a t (start <= t < end, or a zero-length
    //! slice starting at t); kNoSlice if none.
    SliceId innermostAt(LaneId lane, TimeNs t) const;
    /*!
     * The slice on \a lane that owns an instant at \a t (a `[memory]` event, an
     * `[OutOfMemory]`, any marker): the innermost slice with start <= t <= end, both ends
     * included, since Kineto's whole-µs stamps put an op's last event on its end. Where one slice
     * ends at t and another starts there, the deeper owns it (the one starting, on a tie).
     */
    SliceId instantOwner(LaneId lane, TimeNs t) const;
    //! First slice on \a lane that starts at or after \a t; kNoSlice if none.
    SliceId firstStartingAtOrAfter(LaneId lane, TimeNs t) const;
    //! The lane of (pid, tid) on the host or device side, kNoLane if none.
    LaneId findLane(int64_t pid, int64_t tid, bool device) const;
    //! Host lane's display label: thread name or "thread <tid>"; device lanes "stream <tid>".
    std::string laneLabel(LaneId lane) const;
    //! Bytes held by the model's tables (not counting the allocator's own overhead).
    size_t memoryUsage() const;
};

} // namespace ks
