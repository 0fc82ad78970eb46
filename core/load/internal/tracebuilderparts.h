// SPDX-License-Identifier: MIT
// The builder's inner records, shared by tracebuilder.cpp (one text) and tracebuilderappend.cpp
// (a segment's builder taken into the one before it).
#pragma once

#include "base/podvector.h"
#include "tracebuilder.h"

#include <limits>

namespace ks {

//! Where the lane keys of non-numeric pids and tids begin: the key is this plus the text's id.
constexpr int64_t kTextKeyBase = std::numeric_limits<int64_t>::min() / 2;

constexpr const char *kUnmatchedEndMessage = "E event without a matching B: skipped";

/*
 * Shared columns, not columns per lane: a trace may hold 100 000 threads with one op each, and
 * 13 small arrays per lane cost about 1 KB per lane, ten times the one event each held.
 * finish() groups them by lane.
 */
struct TraceBuilder::Columns {
    PodVector<TimeNs> start, dur;
    PodVector<StringId> name, cat;
    PodVector<EventKind> kind;
    PodVector<uint8_t> flags;
    PodVector<int64_t> externalId, correlation, sequence, fwdThread;
    PodVector<StringId> inputDims;
    PodVector<uint32_t> extra;
    PodVector<uint64_t> offset;
    PodVector<uint32_t> lane; //!< builder lane index

    PodVector<TimeNs> instantTime;
    PodVector<StringId> instantName;
    PodVector<uint64_t> instantOffset;
    PodVector<uint32_t> instantLane;
};

//! A few bytes per lane: one op on each of 100 000 threads must cost about one op each.
struct TraceBuilder::LaneState {
    LaneKey key;
    //! pid then tid as written, at m_writtenIds[writtenAt]: interned at finish(), because
    //! strings belong to the parser
    uint64_t writtenAt = 0;
    uint32_t pidLength = 0, tidLength = 0;
    LaneId finalId = kNoLane;
};

struct TraceBuilder::MetadataEntry {
    StringId what; //!< process_name, thread_name, …
    int64_t pid, tid;
    StringId value;
    bool hasValue;
    StringId labels;
    int64_t sortIndex;
    uint64_t offset;
};

struct TraceBuilder::PendingEnd {
    LaneKey key; //!< the E's own side
    bool laneHere; //!< its lane existed in the segment when the E came
    TimeNs ts;
    int decimals;
    int64_t externalId, correlation;
    uint64_t offset;
};

} // namespace ks
