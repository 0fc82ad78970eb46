// SPDX-License-Identifier: MIT
#include "load/tracereader.h"

#include "base/jsonwrite.h"
#include "base/numbertext.h"
#include "eventsink.h"
#include "inputfile.h"
#include "jsoncapture.h"
#include "rawevent.h"
#include "repairstream.h"
#include "tracebuilder.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <map>

namespace ks {

namespace {

constexpr size_t kMaxNumericArgs = 256; // counter series per C event

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

enum class Arg : uint8_t {
    Other,
    ExternalId,
    Correlation,
    Sequence,
    FwdThread,
    InputDims,
    InputTypes,
    RecordFunctionId,
    EvIdx,
    Stream,
    Device,
    Grid,
    Block,
    Name,
    Labels,
    SortIndex,
};

template<size_t N> bool is(const char *s, size_t n, const char (&lit)[N])
{
    return n == N - 1 && std::memcmp(s, lit, N - 1) == 0;
}

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
    case 4:
        if (is(s, n, "grid"))
            return Arg::Grid;
        if (is(s, n, "name"))
            return Arg::Name;
        return Arg::Other;
    case 5:
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
    case 10:
        if (is(s, n, "Input Dims") || is(s, n, "Input dims"))
            return Arg::InputDims;
        if (is(s, n, "Input type"))
            return Arg::InputTypes;
        if (is(s, n, "sort_index"))
            return Arg::SortIndex;
        return Arg::Other;
    case 11:
        if (is(s, n, "External id") || is(s, n, "external id") || is(s, n, "correlation"))
            return s[0] == 'c' ? Arg::Correlation : Arg::ExternalId;
        return Arg::Other;
    case 13:
        return is(s, n, "Fwd thread id") ? Arg::FwdThread : Arg::Other;
    case 15:
        return is(s, n, "Sequence number") ? Arg::Sequence : Arg::Other;
    case 18:
        return is(s, n, "Record function id") ? Arg::RecordFunctionId : Arg::Other;
    case 20:
        return is(s, n, "Profiler Event Index") ? Arg::EvIdx : Arg::Other;
    default:
        return Arg::Other;
    }
}

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
    // so tell() is the offset of the bracket itself.
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
    //! Where the first traceEvents entry starts (the offset named when none is an event).
    uint64_t firstEntryOffset() const { return m_firstEntryOffset; }
    bool insideEvent() const { return m_inEvent; }
    uint64_t eventOffset() const { return m_event->offset; }
    //! What the handler found odd (the builder keeps its own until the parse is over).
    Diagnostics &diagnostics() { return m_diag; }
    //! Writes what the file says outside traceEvents into \a model.
    void applyTopLevel(TraceModel &model)
    {
        model.arrayLayout = m_arrayLayout;
        model.baseTimeNs = m_baseTimeNs;
        for (auto &[key, value] : m_metadata)
            model.metadata[key] = std::move(value);
    }

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

    bool Key(const char *s, rapidjson::SizeType n, bool)
    {
        if (m_capturing) {
            m_capture.key(std::string_view(s, n));
            return true;
        }
        if (m_inEvent && m_depth == m_eventDepth) {
            m_field = fieldOf(s, n);
        } else if (m_inArgs && m_depth == m_eventDepth + 1) {
            m_arg = argOf(s, n);
            // Counters plot every arg under its name; RapidJSON reuses its buffer for the value.
            if (m_event->ph == 'C' || m_event->ph == 0)
                m_argKey.assign(s, n);
        } else if (m_rootObject && m_depth == 1) {
            m_topKey.assign(s, n);
        }
        return true;
    }

    bool StartObject() { return open('{'); }
    bool StartArray() { return open('['); }
    bool EndObject(rapidjson::SizeType) { return close('}'); }
    bool EndArray(rapidjson::SizeType) { return close(']'); }

private:
    enum class Kind { Null, Bool, Number, String };

    uint64_t tell() const { return m_tell(m_stream); }

    bool open(char c)
    {
        if (m_capturing) {
            m_capture.open(c);
            ++m_depth;
            return true;
        }
        if (m_intArray) {
            ++m_depth; // nested array inside grid: ignored
            return true;
        }
        const uint32_t depth = m_depth;
        ++m_depth;
        if (depth == 0) {
            m_sawRoot = true;
            if (c == '[') {
                m_rootIsTrace = true;
                m_arrayLayout = true;
                enterEvents();
            } else {
                m_rootIsTrace = true;
                m_rootObject = true;
            }
            return true;
        }
        if (m_rootObject && depth == 1) {
            if (m_topKey == "traceEvents" && c == '[' && !m_sawEventsArray) {
                enterEvents();
                return true;
            }
            if (m_topKey == "traceEvents")
                m_diag.add(Diag::BadTraceEvents, tell(), "traceEvents is not an array");
            startCapture(&m_metadataText, depth);
            m_capture.open(c);
            return true;
        }
        if (m_inEvents && depth == m_eventsDepth) {
            noteEntry();
            if (c != '{') {
                ++m_events; // counted when it starts: it is skipped whole
                m_diag.add(Diag::EventNotObject, tell(), "traceEvents entry is not an object");
                return true;
            }
            m_inEvent = true;
            m_eventDepth = m_depth;
            m_event = &m_sink.next();
            m_event->reset();
            m_event->offset = tell();
            m_field = Field::None;
            return true;
        }
        if (m_inEvent && depth == m_eventDepth) {
            if (m_field == Field::Args && c == '{')
                m_inArgs = true;
            else if (m_field != Field::None)
                wrongType();
            m_field = Field::None;
            return true;
        }
        if (m_inArgs && depth == m_eventDepth + 1) {
            switch (m_arg) {
            case Arg::InputDims:
            case Arg::InputTypes:
                startCapture(&m_captureText, depth);
                m_captureArg = m_arg;
                m_capture.open(c);
                break;
            case Arg::Grid:
            case Arg::Block:
                if (c == '[') {
                    m_intArray = m_arg == Arg::Grid ? m_event->grid : m_event->block;
                    m_intArrayIndex = 0;
                    m_intArrayDepth = m_depth;
                    m_event->hasGrid = true;
                }
                break;
            default:
                break;
            }
            m_arg = Arg::Other;
            return true;
        }
        return true;
    }

    bool close(char c)
    {
        --m_depth;
        if (m_capturing) {
            m_capture.close(c);
            if (m_depth == m_captureDepth)
                finishCapture();
            return true;
        }
        if (m_intArray) {
            if (m_depth + 1 == m_intArrayDepth)
                m_intArray = nullptr;
            return true;
        }
        if (m_inArgs && m_depth == m_eventDepth) {
            m_inArgs = false;
            return true;
        }
        if (m_inEvent && m_depth + 1 == m_eventDepth) {
            // An event counts once complete: one cut off by the end of the file was not read.
            ++m_events;
            m_phasedEvents += m_event->ph != 0;
            m_inEvent = false;
            m_inArgs = false;
            nameCounterSeries();
            if (!m_sink.commit())
                return false; // the builder failed: the load throws what it threw
            if (m_events % kCheckInterval == 0 && onCheckpoint && !onCheckpoint())
                return false;
            return true;
        }
        if (m_inEvents && m_depth + 1 == m_eventsDepth) {
            m_inEvents = false;
            return true;
        }
        return true;
    }

    void noteEntry()
    {
        if (m_firstEntryOffset == ~uint64_t(0))
            m_firstEntryOffset = tell();
    }

    void enterEvents()
    {
        m_inEvents = true;
        m_sawEventsArray = true;
        m_eventsDepth = m_depth;
    }

    void startCapture(std::string *out, uint32_t depth)
    {
        m_capturing = true;
        m_captureDepth = depth;
        // A value too large is reported at its event, or where it starts outside traceEvents.
        m_captureOffset = depth == 1 ? tell() : m_event->offset;
        m_capture.start(out);
    }

    void finishCapture()
    {
        m_capturing = false;
        if (m_capture.overflow())
            m_diag.add(Diag::ValueTooLarge, m_captureOffset, "a value over 1 MB was cut");
        if (m_captureDepth == 1) {
            m_metadata[m_topKey] = std::move(m_metadataText);
            m_metadataText.clear();
            return;
        }
        const StringId id = m_strings.intern(m_captureText);
        if (m_captureArg == Arg::InputDims)
            m_event->inputDims = id;
        else
            m_event->inputTypes = id;
    }

    /*!
     * A counter event plots one series per numeric arg, named "event.arg", or after the event
     * alone when it has a single numeric arg. Named here, on the thread that owns the strings.
     */
    void nameCounterSeries()
    {
        if (m_event->ph != 'C' || m_event->numericArgs.empty())
            return;
        const std::string base(m_strings.view(m_event->name));
        for (auto &series : m_event->numericArgs) {
            series.first = m_event->numberArgs == 1
                ? m_event->name
                : m_strings.intern(base + '.' + std::string(m_strings.view(series.first)));
        }
    }

    void wrongType()
    {
        static constexpr const char *kNames[]
            = {"", "ph", "cat", "name", "pid", "tid", "ts", "dur", "id", "bp", "s", "args"};
        m_diag.add(Diag::WrongType, m_event->offset,
            std::string("field '") + kNames[int(m_field)] + "' has the wrong type");
    }

    bool scalar(Kind kind, std::string_view text)
    {
        if (m_capturing) {
            if (kind == Kind::String)
                m_capture.string(text);
            else
                m_capture.raw(kind == Kind::Null ? std::string_view("null") : text);
            return true;
        }
        if (m_intArray) {
            int64_t v;
            if (m_depth == m_intArrayDepth && m_intArrayIndex < 3 && kind == Kind::Number
                && parseInteger(text, v))
                m_intArray[m_intArrayIndex++] = int32_t(v);
            return true;
        }
        if (m_inEvent && m_depth == m_eventDepth) {
            eventField(kind, text);
            m_field = Field::None;
            return true;
        }
        if (m_inArgs && m_depth == m_eventDepth + 1) {
            eventArg(kind, text);
            m_arg = Arg::Other;
            return true;
        }
        if (m_inEvents && m_depth == m_eventsDepth) {
            noteEntry();
            ++m_events;
            m_diag.add(Diag::EventNotObject, tell(), "traceEvents entry is not an object");
            return true;
        }
        if (m_depth == 0) {
            m_sawRoot = true;
            m_notATrace = kind == Kind::String
                ? "the top-level value is a string, not a trace"
                : "the top-level value is a single value, not a trace";
            return true;
        }
        if (m_rootObject && m_depth == 1) {
            if (m_topKey == "traceEvents")
                m_diag.add(Diag::BadTraceEvents, tell(), "traceEvents is not an array");
            std::string text2;
            if (kind == Kind::String)
                appendJsonString(text2, text);
            else
                text2 = kind == Kind::Null ? "null" : std::string(text);
            if (m_topKey == "baseTimeNanoseconds") {
                int64_t base;
                if (parseInteger(text, base))
                    m_baseTimeNs = base;
            }
            m_metadata[m_topKey] = std::move(text2);
        }
        return true;
    }

    static void readId(std::string_view text, RawId &id, StringPool &strings)
    {
        // Ids are mostly numbers, unique per flow: interning them all would grow the pool
        // with every correlation id. Only non-numeric ids need an interned key.
        id.present = true;
        id.numeric = parseInteger(text, id.num);
        id.written.assign(text);
        id.text = id.numeric ? 0 : strings.intern(text);
    }

    void eventField(Kind kind, std::string_view text)
    {
        const bool number = kind == Kind::Number;
        const bool string = kind == Kind::String;
        switch (m_field) {
        case Field::None:
            return;
        case Field::Ph:
            if (string && text.size() == 1)
                m_event->ph = text[0];
            else if (string)
                m_event->ph = text.empty() ? '?' : '?';
            else
                wrongType();
            return;
        case Field::Cat:
            if (!string)
                return wrongType();
            // A handful of categories alternate over millions of events: remember the last one.
            if (text != m_lastCat) {
                m_lastCat.assign(text);
                m_lastCatId = m_strings.intern(text);
                m_lastCatKind = kindFromCategory(text);
            }
            m_event->cat = m_lastCatId;
            m_event->kind = m_lastCatKind;
            m_event->hasCat = true;
            return;
        case Field::Name: {
            if (!string)
                return wrongType();
            const size_t known = m_strings.size();
            m_event->name = m_strings.intern(text);
            m_event->hasName = true;
            // Checked once per distinct name: the UI and exports show such bytes as U+FFFD.
            if (m_strings.size() != known && !isValidUtf8(text))
                m_diag.add(Diag::InvalidUtf8Names, m_event->offset, "a name is not valid UTF-8");
            return;
        }
        case Field::Pid:
        case Field::Tid:
        case Field::Id:
            if (!number && !string)
                return wrongType();
            readId(text,
                m_field == Field::Pid       ? m_event->pid
                    : m_field == Field::Tid ? m_event->tid
                                            : m_event->id,
                m_strings);
            return;
        case Field::Ts:
        case Field::Dur: {
            const bool ts = m_field == Field::Ts;
            (ts ? m_event->hasTs : m_event->hasDur) = true;
            if (!number && !string) {
                wrongType();
                return;
            }
            (ts ? m_event->tsValid : m_event->durValid)
                = parseMicros(text, ts ? m_event->ts : m_event->dur);
            return;
        }
        case Field::Bp:
            if (string && !text.empty())
                m_event->bp = text[0];
            return;
        case Field::Scope:
            if (string && !text.empty())
                m_event->scope = text[0];
            return;
        case Field::Args:
            wrongType();
            return;
        }
    }

    void eventArg(Kind kind, std::string_view text)
    {
        int64_t v = kNoValue;
        const bool integer
            = (kind == Kind::Number || kind == Kind::String) && parseInteger(text, v);
        switch (m_arg) {
        case Arg::ExternalId:
            if (integer)
                m_event->externalId = v;
            break;
        case Arg::Correlation:
            if (integer)
                m_event->correlation = v;
            break;
        case Arg::Sequence:
            if (integer)
                m_event->sequence = v;
            else
                m_diag.add(
                    Diag::BadSequenceNumber, m_event->offset, "Sequence number is not an integer");
            break;
        case Arg::FwdThread:
            if (integer)
                m_event->fwdThread = v;
            break;
        case Arg::RecordFunctionId:
            if (integer)
                m_event->recordFunctionId = v;
            break;
        case Arg::EvIdx:
            if (integer)
                m_event->evIdx = v;
            break;
        case Arg::Stream:
            if (integer)
                m_event->stream = v;
            break;
        case Arg::Device:
            if (integer)
                m_event->device = v;
            break;
        case Arg::SortIndex:
            if (integer)
                m_event->sortIndex = v;
            break;
        case Arg::Name:
            if (kind == Kind::String) {
                m_event->argName = m_strings.intern(text);
                m_event->hasArgName = true;
            }
            break;
        case Arg::Labels:
            if (kind == Kind::String)
                m_event->argLabels = m_strings.intern(text);
            break;
        case Arg::InputDims:
        case Arg::InputTypes: {
            // A scalar where an array was expected: keep it as written.
            std::string json;
            if (kind == Kind::String)
                appendJsonString(json, text);
            else
                json = kind == Kind::Null ? "null" : std::string(text);
            (m_arg == Arg::InputDims ? m_event->inputDims : m_event->inputTypes)
                = m_strings.intern(json);
            break;
        }
        case Arg::Grid:
        case Arg::Block:
        case Arg::Other:
            break;
        }
        // Counter events plot every numeric arg; they are rare, so only they pay for this.
        if (kind == Kind::Number)
            ++m_event->numberArgs;
        if (kind == Kind::Number && (m_event->ph == 'C' || m_event->ph == 0)
            && m_event->numericArgs.size() < kMaxNumericArgs) {
            double d;
            if (parseDouble(text, d) && std::isfinite(d))
                m_event->numericArgs.emplace_back(m_strings.intern(m_argKey), d);
        }
    }

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
    bool m_arrayLayout = false;
    int64_t m_baseTimeNs = 0;
    std::map<std::string, std::string> m_metadata;
    uint64_t m_events = 0;
    uint64_t m_phasedEvents = 0;
    uint64_t m_firstEntryOffset = ~uint64_t(0);

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

template<typename Stream> size_t tellOf(const void *stream)
{
    return static_cast<const Stream *>(stream)->Tell();
}

constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag
    | rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseTrailingCommasFlag
    | rapidjson::kParseNanAndInfFlag;

//! What one pass over the text found, for the decisions in finishLoad().
struct ParseOutcome {
    rapidjson::ParseResult result;
    uint64_t events = 0;
    uint64_t phasedEvents = 0; //!< complete event objects with a phase
    uint64_t firstEntryOffset = 0;
    bool cancelled = false;
    bool sawRoot = false;
    bool rootIsTrace = false;
    bool sawEventsArray = false;
    bool insideEvent = false;
    uint64_t eventOffset = 0;
    std::string notATrace;
    uint64_t repairs = 0;
    uint64_t firstRepairAt = 0;
    uint64_t textSize = 0; //!< decompressed bytes; ~0 when the parse stopped before the end
    std::string gzipProblem;
    bool gzipCutOff = false;
    char charAtError = 0; //!< the character the parser stopped on
    uint64_t tellAtError = 0; //!< where the stream was when the parser stopped
};

bool repairable(rapidjson::ParseErrorCode code)
{
    return code == rapidjson::kParseErrorStringEscapeInvalid
        || code == rapidjson::kParseErrorStringUnicodeEscapeInvalidHex
        || code == rapidjson::kParseErrorStringUnicodeSurrogateInvalid
        || code == rapidjson::kParseErrorStringInvalidEncoding
        || code == rapidjson::kParseErrorNumberTooBig;
}

/*!
 * One parse pass over \a stream into \a builder, optionally through the repairing stream.
 * \a checkpoint runs every few thousand events (progress, releasing consumed pages).
 */
template<typename Stream>
ParseOutcome parsePass(Stream &stream,
    bool repair,
    TraceBuilder &builder,
    bool builderThread,
    const std::function<void()> &checkpoint,
    const std::atomic<bool> *cancel)
{
    auto run = [&](auto &s) {
        using S = std::remove_reference_t<decltype(s)>;
        EventSink sink(builder, builderThread);
        EventHandler handler(sink, builder.strings(), &s, &tellOf<S>);
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
        rapidjson::Reader reader;
        ParseOutcome out;
        out.result = reader.Parse<kParseFlags>(s, handler);
        sink.finish();
        builder.diagnostics().merge(handler.diagnostics());
        handler.applyTopLevel(builder.model());
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
        out.charAtError = s.Peek();
        out.tellAtError = s.Tell();
        return out;
    };
    if (!repair)
        return run(stream);
    RepairStream<Stream> repaired(stream);
    ParseOutcome out = run(repaired);
    out.repairs = repaired.repairs();
    out.firstRepairAt = repaired.firstRepairAt();
    return out;
}

std::string failure(const std::string &path, uint64_t offset, const std::string &reason)
{
    return path + ": byte " + std::to_string(offset) + ": " + reason;
}

using PassFn = std::function<ParseOutcome(TraceBuilder &, bool repair)>;

/*!
 * Runs the strict pass and, when it stops on a string RapidJSON rejects (raw control
 * characters, bad escapes), a repairing pass; then decides between loaded, truncated,
 * failed and cancelled, and freezes the model.
 */
LoadResult finishLoad(
    const std::string &path, const PassFn &pass, bool compressed, uint64_t fileSize)
{
    const auto started = std::chrono::steady_clock::now();
    LoadResult result;
    auto builder = std::make_unique<TraceBuilder>();
    ParseOutcome outcome = pass(*builder, false);
    if (outcome.result.IsError() && repairable(outcome.result.Code()) && !outcome.cancelled) {
        builder = std::make_unique<TraceBuilder>();
        outcome = pass(*builder, true);
    }
    if (outcome.cancelled) {
        result.status = LoadResult::Status::Cancelled;
        result.error = path + ": cancelled";
        return result;
    }

    Diagnostics &diag = builder->diagnostics();
    if (outcome.repairs > 0) {
        diag.add(Diag::RepairedStrings, outcome.firstRepairAt,
            "invalid characters or escapes in strings were repaired");
        diag.addCount(Diag::RepairedStrings, outcome.repairs - 1);
    }
    if (!outcome.gzipProblem.empty())
        diag.add(outcome.gzipCutOff ? Diag::GzipCutOff : Diag::GzipCorrupt, outcome.textSize,
            outcome.gzipProblem);

    const bool parseError = outcome.result.IsError();
    const uint64_t at = parseError ? outcome.result.Offset() : 0;
    // At the end also when the parser stopped on the last character because the text ran out
    // (a backslash at the very end is reported as an invalid escape at the backslash).
    const bool atEnd = parseError
        && (at >= outcome.textSize
            || (outcome.charAtError == 0 && outcome.tellAtError >= outcome.textSize));
    // RapidJSON reads a zero byte as the end of input; inside the file it means binary data.
    const auto parseReason = [&]() -> std::string {
        if (!atEnd && outcome.charAtError == 0)
            return "a zero byte: this is not JSON text";
        return rapidjson::GetParseError_En(outcome.result.Code());
    };
    if (outcome.textSize == 0) {
        result.error
            = failure(path, 0, outcome.gzipProblem.empty() ? "empty file" : outcome.gzipProblem);
        return result;
    }
    if (!outcome.sawRoot || (parseError && !outcome.sawEventsArray && !outcome.rootIsTrace)) {
        result.error = failure(path, at, parseError ? parseReason() : "not a JSON document");
        return result;
    }
    if (!outcome.rootIsTrace) {
        result.error
            = failure(path, 0, outcome.notATrace.empty() ? "not a trace" : outcome.notATrace);
        return result;
    }
    if (outcome.events == 0) {
        std::string reason = !outcome.sawEventsArray ? "no traceEvents array: not a trace"
                                                     : "the trace contains no events";
        if (parseError)
            reason = atEnd ? "the file ends before the first event" : parseReason();
        result.error = failure(path, at, reason);
        return result;
    }
    if (outcome.phasedEvents == 0) {
        // Entries, but not one complete event with a phase ("[[[[…", "[1, 2]", "[{}]"): whatever
        // this is, it is not a trace, and a "loaded" trace with nothing in it would hide that.
        std::string reason = "no complete trace event (an object with \"ph\") in traceEvents";
        if (parseError && !atEnd)
            reason = parseReason() + " before any complete trace event";
        else if (parseError)
            reason = "the file ends before the first complete trace event";
        result.error = failure(path, parseError && !atEnd ? at : outcome.firstEntryOffset, reason);
        return result;
    }

    bool truncated = false;
    if (parseError) {
        const std::string reason = parseReason();
        if (atEnd) {
            truncated = true;
            diag.add(Diag::Truncated, std::max<uint64_t>(at, outcome.textSize),
                "the file ends in the middle of the JSON");
        } else {
            diag.add(Diag::SyntaxError, at, reason + ": the rest of the file was not read");
        }
        if (outcome.insideEvent)
            diag.add(
                Diag::IncompleteEvent, outcome.eventOffset, "the last event is incomplete: skipped");
    }

    auto model = builder->finish();
    model->path = path;
    model->compressed = compressed;
    model->fileSize = fileSize;
    model->textSize = outcome.textSize == ~uint64_t(0) ? at : outcome.textSize;
    model->truncated = truncated;
    model->eventCount = outcome.events;
    model->loadSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    result.model = std::move(model);
    result.status = LoadResult::Status::Loaded;
    return result;
}

} // namespace

LoadResult loadTrace(const std::string &path, const LoadOptions &options)
{
    std::string error;
    auto file = InputFile::open(path, error);
    if (!file) {
        LoadResult r;
        r.error = failure(path, 0, error);
        return r;
    }
    int lastPermille = -1;
    auto report = [&](uint64_t done, uint64_t total) {
        if (!options.progress || total == 0)
            return;
        const int permille = int(std::min<uint64_t>(1000, done * 1000 / total));
        // Monotonic: a repairing second pass restarts from the beginning of the file.
        if (permille > lastPermille) {
            lastPermille = permille;
            options.progress(permille);
        }
    };

    PassFn pass = [&](TraceBuilder &builder, bool repair) {
        ChunkedText text(*file); // each pass reads (and inflates) the file again from its start
        ChunkStream stream(text);
        auto checkpoint = [&] { report(stream.compressedOffset(), file->size()); };
        ParseOutcome out = parsePass(stream, repair, builder, true, checkpoint, options.cancel);
        out.textSize = stream.atEnd() ? stream.textSeen() : ~uint64_t(0);
        if (!stream.atEnd()) {
            // Stopped early (cancel or a syntax error): the reader may still be running.
        } else if (!text.corruptReason().empty()) {
            out.gzipProblem = "corrupt gzip data at compressed byte "
                + std::to_string(text.corruptAt()) + " (" + text.corruptReason() + ")";
        } else if (text.cutOff()) {
            out.gzipProblem = "the gzip stream is cut off";
            out.gzipCutOff = true;
        }
        if (stream.atEnd() && text.trailingGarbage())
            builder.diagnostics().add(
                Diag::GzipTrailingGarbage, out.textSize, "data after the gzip stream ignored");
        return out;
    };
    LoadResult r = finishLoad(path, pass, file->compressed(), file->size());
    report(1, 1);
    return r;
}

LoadResult loadTraceText(std::string_view text, const std::string &name, bool builderThread)
{
    const std::string copy(text); // zero-terminated, as StringStream needs
    PassFn pass = [&](TraceBuilder &builder, bool repair) {
        rapidjson::StringStream stream(copy.c_str());
        ParseOutcome out = parsePass(stream, repair, builder, builderThread, {}, nullptr);
        out.textSize = copy.size();
        return out;
    };
    return finishLoad(name, pass, false, copy.size());
}

} // namespace ks
