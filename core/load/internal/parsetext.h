// SPDX-License-Identifier: MIT
// One parse of a text (a whole trace, or a segment of one) into a builder: the part every load
// shares, whatever stream the text comes from.
#pragma once

#include "base/jsonallocator.h"
#include "eventhandler.h"
#include "eventsink.h"
#include "load/tracereader.h"
#include "loadverdict.h"
#include "readerhooks.h"
#include "tracebuilder.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <new>

namespace ks {

inline double secondsSince(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

inline bool repairable(rapidjson::ParseErrorCode code)
{
    return code == rapidjson::kParseErrorStringEscapeInvalid
        || code == rapidjson::kParseErrorStringUnicodeEscapeInvalidHex
        || code == rapidjson::kParseErrorStringUnicodeSurrogateInvalid
        || code == rapidjson::kParseErrorStringInvalidEncoding
        || code == rapidjson::kParseErrorNumberTooBig;
}

/*!
 * Where a stream's text lies in the file: a segment's stream reads \a head synthetic bytes, then
 * the file's text from \a begin, then perhaps a synthetic tail; offsets in messages are the
 * file's, the synthetic bytes standing at the ends of the segment.
 */
struct TextPlace {
    uint64_t begin = 0;
    uint64_t head = 0;
    uint64_t length = ~uint64_t(0);

    uint64_t fileOffset(uint64_t tell) const
    {
        const uint64_t in = tell < head ? 0 : tell - head;
        return begin + (in < length ? in : length);
    }
};

//! What a parse found: the outcome decideLoad() judges, and what the handler kept apart.
struct PassResult {
    ParseOutcome outcome;
    bool repairable = false;
    Diagnostics handlerDiagnostics; //!< added to the builder's after them, as one pass does
    TopLevel top;
    uint64_t eventsClosedAt = ~uint64_t(0); //!< file offset where traceEvents closed
    bool needsEarlierText = false; //!< see EventHandler::continueEarlierText()
    //! The parses the text was read in, one after the other (segmentedparse.h).
    unsigned pieces = 1;
    LoadPhases phases; //!< split, parse and join, when segmented
};

template<typename Stream> struct PlacedStream {
    const Stream *stream;
    TextPlace place;
    static size_t tell(const void *p)
    {
        const auto *self = static_cast<const PlacedStream *>(p);
        return size_t(self->place.fileOffset(self->stream->Tell()));
    }
};

/*!
 * Parses \a s into \a builder. \a checkpoint runs every few thousand events (progress, releasing
 * consumed pages). The handler's diagnostics and top-level keys are returned, not applied.
 */
template<typename Stream>
PassResult parseText(Stream &s,
    const TextPlace &place,
    TraceBuilder &builder,
    bool builderThread,
    const std::function<void()> &checkpoint,
    const std::atomic<bool> *cancel)
{
    PassResult pass;
    ParseOutcome &out = pass.outcome;
    const PlacedStream<Stream> placed {&s, place};
    try {
        EventSink sink(builder, builderThread);
        EventHandler handler(sink, builder.strings(), &placed, &PlacedStream<Stream>::tell);
        if (builder.continuesEarlierText())
            handler.continueEarlierText();
        bool cancelled = false;
        handler.onCheckpoint = [&] {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                cancelled = true;
                return false;
            }
            if (checkpoint)
                checkpoint();
            return true;
        };
        JsonReader reader;
        const rapidjson::ParseResult result = reader.Parse<kParseFlags>(s, handler);
        sink.finish();
        pass.handlerDiagnostics = std::move(handler.diagnostics());
        pass.top = handler.takeTopLevel();
        pass.eventsClosedAt = handler.eventsClosedAt();
        pass.needsEarlierText = handler.needsEarlierText();
        out.parseError = result.IsError();
        if (out.parseError) {
            out.errorOffset = place.fileOffset(result.Offset());
            out.errorMessage = rapidjson::GetParseError_En(result.Code());
            pass.repairable = repairable(result.Code());
        }
        out.events = handler.events();
        out.phasedEvents = handler.phasedEvents();
        out.firstEntryOffset = handler.firstEntryOffset();
        out.cancelled = cancelled;
        out.sawRoot = handler.sawRoot();
        out.rootIsTrace = handler.rootIsTrace();
        out.sawEventsArray = handler.sawEventsArray();
        out.insideEvent = handler.insideEvent();
        out.eventOffset = handler.eventOffset();
        out.notATrace = handler.notATraceReason();
    } catch (const std::bad_alloc &) {
        // Thrown here, in a progress callback, or on the builder thread (the sink carries it
        // over): the sink has joined that thread while unwinding.
        pass = PassResult();
        out.outOfMemory = true;
        out.stoppedAt = place.fileOffset(s.Tell());
    }
    out.charAtError = s.Peek();
    out.tellAtError = place.fileOffset(s.Tell());
    return pass;
}

} // namespace ks
