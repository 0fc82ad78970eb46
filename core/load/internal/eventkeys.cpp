// SPDX-License-Identifier: MIT
#include "eventkeys.h"

#include <cstring>

namespace ks {

namespace {

template<size_t N> bool is(const char *s, size_t n, const char (&lit)[N])
{
    return n == N - 1 && std::memcmp(s, lit, N - 1) == 0;
}

} // namespace

// Both lookups switch on the length first: most keys are then rejected or found with one
// comparison, which matters at several keys per event.
Field fieldOf(const char *s, size_t n)
{
    switch (n) {
    case 1:
        return s[0] == 's' ? Field::Scope : Field::None;
    case 2:
        if (is(s, n, "ph"))
            return Field::Ph;
        if (is(s, n, "ts"))
            return Field::Ts;
        if (is(s, n, "id"))
            return Field::Id;
        if (is(s, n, "bp"))
            return Field::Bp;
        return Field::None;
    case 3:
        if (is(s, n, "cat"))
            return Field::Cat;
        if (is(s, n, "pid"))
            return Field::Pid;
        if (is(s, n, "tid"))
            return Field::Tid;
        if (is(s, n, "dur"))
            return Field::Dur;
        return Field::None;
    case 4:
        if (is(s, n, "name"))
            return Field::Name;
        if (is(s, n, "args"))
            return Field::Args;
        return Field::None;
    default:
        return Field::None;
    }
}

Arg argOf(const char *s, size_t n)
{
    switch (n) {
    case 3:
        return is(s, n, "Seq") ? Arg::CollectiveSeq : Arg::Other;
    case 4:
        if (is(s, n, "Addr"))
            return Arg::Addr;
        if (is(s, n, "grid"))
            return Arg::Grid;
        if (is(s, n, "name"))
            return Arg::Name;
        return Arg::Other;
    case 5:
        if (is(s, n, "Bytes"))
            return Arg::Bytes;
        return is(s, n, "block") ? Arg::Block : Arg::Other;
    case 6:
        if (is(s, n, "stream"))
            return Arg::Stream;
        if (is(s, n, "device"))
            return Arg::Device;
        if (is(s, n, "labels"))
            return Arg::Labels;
        if (is(s, n, "Ev Idx"))
            return Arg::EvIdx;
        return Arg::Other;
    case 8:
        if (is(s, n, "graph id"))
            return Arg::GraphId;
        return is(s, n, "Comms Id") ? Arg::CommsId : Arg::Other;
    case 9:
        return is(s, n, "Device Id") ? Arg::DeviceId : Arg::Other;
    case 10:
        if (is(s, n, "Input Dims") || is(s, n, "Input dims"))
            return Arg::InputDims;
        if (is(s, n, "Input type"))
            return Arg::InputTypes;
        if (is(s, n, "sort_index"))
            return Arg::SortIndex;
        return Arg::Other;
    case 11:
        if (is(s, n, "Device Type"))
            return Arg::DeviceType;
        if (is(s, n, "External id") || is(s, n, "external id") || is(s, n, "correlation"))
            return s[0] == 'c' ? Arg::Correlation : Arg::ExternalId;
        return Arg::Other;
    case 13:
        if (is(s, n, "graph node id"))
            return Arg::GraphNodeId;
        return is(s, n, "Fwd thread id") ? Arg::FwdThread : Arg::Other;
    case 14:
        if (is(s, n, "wait_on_stream"))
            return Arg::WaitOnStream;
        return is(s, n, "Total Reserved") ? Arg::TotalReserved : Arg::Other;
    case 15:
        if (is(s, n, "Concrete Inputs"))
            return Arg::ConcreteInputs;
        if (is(s, n, "original_stream"))
            return Arg::OriginalStream;
        if (is(s, n, "Collective name"))
            return Arg::CollectiveName;
        if (is(s, n, "Total Allocated"))
            return Arg::TotalAllocated;
        return is(s, n, "Sequence number") ? Arg::Sequence : Arg::Other;
    case 18:
        if (is(s, n, "Process Group Name"))
            return Arg::ProcessGroupName;
        return is(s, n, "Record function id") ? Arg::RecordFunctionId : Arg::Other;
    case 20:
        return is(s, n, "Profiler Event Index") ? Arg::EvIdx : Arg::Other;
    case 33:
        return is(s, n, "wait_on_cuda_event_record_corr_id") ? Arg::WaitOnRecord : Arg::Other;
    default:
        return Arg::Other;
    }
}

const char *fieldName(Field field)
{
    static constexpr const char *kNames[]
        = {"", "ph", "cat", "name", "pid", "tid", "ts", "dur", "id", "bp", "s", "args"};
    return kNames[int(field)];
}

} // namespace ks
