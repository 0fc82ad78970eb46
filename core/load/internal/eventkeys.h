// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>

namespace ks {

//! The fields of an event object that the loader reads; None for every other key.
enum class Field : uint8_t {
    None,
    Ph,
    Cat,
    Name,
    Pid,
    Tid,
    Ts,
    Dur,
    Id,
    Bp,
    Scope,
    Args,
};

//! The keys of an event's args that the loader keeps; Other for the rest.
enum class Arg : uint8_t {
    Other,
    ExternalId,
    Correlation,
    Sequence,
    FwdThread,
    InputDims,
    InputTypes,
    ConcreteInputs,
    RecordFunctionId,
    EvIdx,
    Stream,
    Device,
    Grid,
    Block,
    Name,
    Labels,
    SortIndex,
    CollectiveName, //!< `Collective name` of NCCL kernels (2.x)
    ProcessGroupName, //!< `Process Group Name`
    CollectiveSeq, //!< `Seq` of NCCL kernels (kineto#1296): the collective's number in its group
    CommsId, //!< `Comms Id` (kineto#1286): one collective's identity on every rank
    GraphId, //!< `graph id` of a kernel replayed from a CUDA graph (kineto#1276)
    GraphNodeId, //!< `graph node id` (kineto#1277)
    WaitOnRecord, //!< `wait_on_cuda_event_record_corr_id` of a cuda_sync event
    WaitOnStream, //!< `wait_on_stream` of a cuda_sync event: the stream the record was on
    OriginalStream, //!< `original_stream`: the stream an annotated graph kernel really ran on
    // `[memory]` instants (profile_memory=True)
    DeviceType, //!< `Device Type`: 0 CPU, 1 CUDA, …
    DeviceId, //!< `Device Id`, -1 for the CPU
    Addr,
    Bytes, //!< negative for a free
    TotalAllocated,
    TotalReserved,
};

//! The field that the key \a s (\a n bytes, not zero-terminated) names.
Field fieldOf(const char *s, size_t n);
//! The arg that the key \a s names; the spellings of every PyTorch version map to one Arg.
Arg argOf(const char *s, size_t n);
//! The key of \a field as written in the file ("ph", "args"), for messages; "" for None.
const char *fieldName(Field field);

} // namespace ks
