// SPDX-License-Identifier: MIT
#pragma once

#include "eventkeys.h"
#include "eventsink.h"
#include "jsoncapture.h"
#include "model/tracemodel.h"

#include <rapidjson/rapidjson.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace ks {

//! What a trace says outside traceEvents.
struct TopLevel {
    bool arrayLayout = false; //!< the file is a bare array of events
    bool sawBaseTime = false;
    int64_t baseTimeNs = 0; //!< `baseTimeNanoseconds`, when sawBaseTime
    std::map<std::string, std::string> metadata; //!< every other key, its value as compact JSON

    //! What \a later, the next segment's (segmentedparse.h), says over this.
    void append(TopLevel &&later);
    void applyTo(TraceModel &model);
};

/*!
 * The SAX handler: a small state machine over container depth that fills one RawEvent per
 * traceEvents entry and hands it to the builder. Values it does not need are skipped without
 * copying. Numbers arrive as text (kParseNumbersAsStringsFlag) so times convert exactly.
 */
class EventHandler {
public:
    using TellFn = size_t (*)(const void *);

    //! Interns into \a strings, which no one else touches until the parse is over.
    EventHandler(EventSink &sink, StringPool &strings, const void *stream, TellFn tell)
        : m_sink(sink)
        , m_strings(strings)
        , m_stream(stream)
        , m_tell(tell)
    {
    }

    // In iterative mode RapidJSON calls StartObject/StartArray before consuming the bracket,
    // so tell() is the offset of the bracket itself; every stream stands past a single value
    // while it is handed over (readerhooks.h).
    // Called every kCheckInterval events so that the driver can report progress and cancel.
    std::function<bool()> onCheckpoint;
    static constexpr uint32_t kCheckInterval = 4096;

    bool sawRoot() const { return m_sawRoot; }
    bool rootIsTrace() const { return m_rootIsTrace; }
    bool sawEventsArray() const { return m_sawEventsArray; }
    const std::string &notATraceReason() const { return m_notATrace; }
    uint64_t events() const { return m_events; }
    //! Complete event objects that have a phase: what makes a file a trace.
    uint64_t phasedEvents() const { return m_phasedEvents; }
    //! Where the first traceEvents entry was read (the offset named when none is an event): an
    //! object's or array's opening bracket, the end of a single value (tell() in its callback).
    uint64_t firstEntryOffset() const { return m_firstEntryOffset; }
    bool insideEvent() const { return m_inEvent; }
    /*!
     * Parses a later segment of the text (segmentedparse.h): a name that is new to this
     * segment's pool may not be new to the whole text's, and whether it is counted as invalid
     * UTF-8 depends on that, so such a segment needs the earlier text (needsEarlierText()).
     */
    void continueEarlierText() { m_continues = true; }
    bool needsEarlierText() const { return m_needsEarlierText; }
    //! Where the traceEvents array was closed, ~0 while it is open (tells a segment's end).
    uint64_t eventsClosedAt() const { return m_eventsClosedAt; }
    uint64_t eventOffset() const { return m_event->offset; }
    //! What the handler found odd (the builder keeps its own until the parse is over).
    Diagnostics &diagnostics() { return m_diag; }
    //! What the file says outside traceEvents; moved out, once the parse is over.
    TopLevel takeTopLevel() { return std::move(m_top); }

    // RapidJSON's handler interface; the number callbacks are unused (numbers come as text).
    bool Null() { return scalar(Kind::Null, {}); }
    bool Bool(bool b) { return scalar(Kind::Bool, b ? "true" : "false"); }
    bool Int(int) { return true; }
    bool Uint(unsigned) { return true; }
    bool Int64(int64_t) { return true; }
    bool Uint64(uint64_t) { return true; }
    bool Double(double) { return true; }
    bool RawNumber(const char *s, rapidjson::SizeType n, bool)
    {
        return scalar(Kind::Number, std::string_view(s, n));
    }
    bool String(const char *s, rapidjson::SizeType n, bool)
    {
        return scalar(Kind::String, std::string_view(s, n));
    }
    bool Key(const char *s, rapidjson::SizeType n, bool);
    bool StartObject() { return open('{'); }
    bool StartArray() { return open('['); }
    bool EndObject(rapidjson::SizeType) { return close('}'); }
    bool EndArray(rapidjson::SizeType) { return close(']'); }

private:
    enum class Kind { Null, Bool, Number, String };

    uint64_t tell() const { return m_tell(m_stream); }

    bool open(char c);
    bool close(char c);
    void noteEntry();
    void enterEvents();
    void startCapture(std::string *out, uint32_t depth);
    void finishCapture();
    //! The event's field that keeps shape arg \a arg (Input Dims, Input type, Concrete Inputs).
    StringId *shapeArg(Arg arg) const;
    void nameCounterSeries();
    void wrongType();
    bool scalar(Kind kind, std::string_view text);
    static void readId(std::string_view text, RawId &id, StringPool &strings);
    //! The field of the current event that a `[memory]` arg goes to.
    int64_t &memoryArg(Arg arg);
    void eventField(Kind kind, std::string_view text);
    void eventArg(Kind kind, std::string_view text);

    EventSink &m_sink;
    StringPool &m_strings;
    Diagnostics m_diag;
    const void *m_stream;
    TellFn m_tell;

    uint32_t m_depth = 0;
    bool m_sawRoot = false;
    bool m_rootIsTrace = false;
    bool m_rootObject = false;
    bool m_sawEventsArray = false;
    std::string m_notATrace;
    std::string m_topKey;

    bool m_inEvents = false;
    uint32_t m_eventsDepth = 0;
    bool m_inEvent = false;
    uint32_t m_eventDepth = 0;
    bool m_inArgs = false;
    Field m_field = Field::None;
    Arg m_arg = Arg::Other;
    std::string m_argKey;
    std::string m_lastCat;
    StringId m_lastCatId = m_strings.intern({});
    EventKind m_lastCatKind = EventKind::Other;
    RawEvent *m_event = &m_sink.next();
    TopLevel m_top;
    uint64_t m_events = 0;
    uint64_t m_phasedEvents = 0;
    uint64_t m_firstEntryOffset = ~uint64_t(0);
    uint64_t m_eventsClosedAt = ~uint64_t(0);
    bool m_continues = false;
    bool m_needsEarlierText = false;

    bool m_capturing = false;
    uint32_t m_captureDepth = 0;
    uint64_t m_captureOffset = 0;
    Arg m_captureArg = Arg::Other;
    JsonCapture m_capture;
    std::string m_captureText;
    std::string m_metadataText;

    int32_t *m_intArray = nullptr;
    int m_intArrayIndex = 0;
    uint32_t m_intArrayDepth = 0;
};

} // namespace ks
