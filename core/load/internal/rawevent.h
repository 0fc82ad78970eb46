// SPDX-License-Identifier: MIT
#pragma once

#include "base/numbertext.h"
#include "base/stringpool.h"
#include "base/tracetypes.h"

#include <string>
#include <utility>
#include <vector>

namespace ks {

//! A pid, tid or flow id as written: a number, or a string that may or may not be numeric.
struct RawId {
    bool present = false;
    bool numeric = false; //!< a number, or a string holding an integer ("25738")
    int64_t num = 0;
    StringId text = 0; //!< interned text of a non-numeric id ("stream 7", "Spans"), else 0
    std::string written; //!< the text as written; interned only where it is kept (new lanes)
    static constexpr size_t kKeptCapacity = 64;

    void reset()
    {
        present = numeric = false;
        num = 0;
        text = 0;
        if (written.capacity() > kKeptCapacity)
            std::string().swap(written); // thousands of slots must not each keep a long id
        else
            written.clear();
    }
};

//! The plain fields of a RawEvent, reset in one assignment.
struct RawEventFields {
    uint64_t offset = 0; //!< byte offset of the event's '{' in the decompressed text
    char ph = 0;
    bool hasName = false;
    bool hasCat = false;
    StringId name = 0;
    StringId cat = 0;
    EventKind kind = EventKind::Other; //!< from the category, by the reader
    bool hasTs = false, tsValid = false;
    bool hasDur = false, durValid = false;
    MicrosText ts, dur;
    char bp = 0; //!< flow binding point: 'e' = enclosing slice
    char scope = 0; //!< instant scope: 'g', 'p', 't'

    int64_t externalId = kNoValue;
    int64_t correlation = kNoValue;
    int64_t sequence = kNoValue;
    int64_t fwdThread = kNoValue;
    int64_t evIdx = kNoValue;
    int64_t recordFunctionId = kNoValue;
    int64_t stream = kNoValue;
    int64_t device = kNoValue;
    int64_t sortIndex = kNoValue; //!< metadata `sort_index`
    int32_t grid[3] = {0, 0, 0};
    int32_t block[3] = {0, 0, 0};
    bool hasGrid = false;
    StringId inputDims = 0;
    StringId inputTypes = 0;
    StringId concreteInputs = 0; //!< `Concrete Inputs`
    StringId argName = 0; //!< metadata `args.name` (thread and process names)
    StringId argLabels = 0; //!< metadata `args.labels`
    StringId collective = 0; //!< `Collective name`
    StringId processGroup = 0; //!< `Process Group Name`
    StringId commsId = 0; //!< `Comms Id`, as written (an unsigned 64-bit hash)
    int64_t commsSeq = kNoValue; //!< `Seq`
    int64_t graphId = kNoValue; //!< `graph id`
    int64_t graphNodeId = kNoValue; //!< `graph node id`
    int64_t waitOnRecord = kNoValue; //!< `wait_on_cuda_event_record_corr_id`
    int64_t waitOnStream = kNoValue; //!< `wait_on_stream`
    int64_t originalStream = kNoValue; //!< `original_stream`
    // `[memory]` instant args, kNoValue when absent
    int64_t memDeviceType = kNoValue;
    int64_t memDeviceId = kNoValue;
    int64_t memAddr = kNoValue;
    int64_t memBytes = kNoValue;
    int64_t memTotalAllocated = kNoValue;
    int64_t memTotalReserved = kNoValue;
    bool hasArgName = false;
    //! Its name is `[memory]` or `[OutOfMemory]`: told by the reader, which owns the strings (the
    //! builder thread may not read them while the reader interns).
    enum class MemoryName : uint8_t { None, Memory, OutOfMemory } memoryName = MemoryName::None;
    uint32_t numberArgs = 0; //!< number-valued args, usable or not (NaN, Infinity)
};

/*!
 * One entry of traceEvents after the JSON layer, before it is placed in the model. The reader
 * fills it field by field (keys come in any order) and hands it to the TraceBuilder at the
 * closing brace.
 */
struct RawEvent : RawEventFields {
    RawId pid, tid, id;
    std::vector<std::pair<StringId, double>> numericArgs; //!< for counter (`C`) events

    void reset()
    {
        // Each RawEvent (a slot of the EventSink) serves many events: the plain fields are reset
        // in one assignment, the strings and the vector are cleared and keep a small capacity.
        static_cast<RawEventFields &>(*this) = RawEventFields();
        pid.reset();
        tid.reset();
        id.reset();
        if (numericArgs.capacity() > 16)
            decltype(numericArgs)().swap(numericArgs);
        else
            numericArgs.clear();
    }
};

} // namespace ks
