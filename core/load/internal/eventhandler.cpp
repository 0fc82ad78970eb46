// SPDX-License-Identifier: MIT
#include "eventhandler.h"

#include "base/jsonwrite.h"
#include "base/numbertext.h"

#include <cmath>

namespace ks {

namespace {
constexpr size_t kMaxNumericArgs = 256; // counter series per C event
} // namespace

void TopLevel::append(TopLevel &&later)
{
    arrayLayout = later.arrayLayout;
    if (later.sawBaseTime) {
        sawBaseTime = true;
        baseTimeNs = later.baseTimeNs;
    }
    for (auto &[key, value] : later.metadata)
        metadata[key] = std::move(value); // a key written twice: the later value, as one text
}

void TopLevel::applyTo(TraceModel &model)
{
    model.arrayLayout = arrayLayout;
    model.baseTimeNs = baseTimeNs;
    for (auto &[key, value] : metadata)
        model.metadata[key] = std::move(value);
}

bool EventHandler::Key(const char *s, rapidjson::SizeType n, bool)
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

bool EventHandler::open(char c)
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
            m_top.arrayLayout = true;
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
        case Arg::ConcreteInputs:
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

bool EventHandler::close(char c)
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
        m_eventsClosedAt = tell();
        return true;
    }
    return true;
}

void EventHandler::noteEntry()
{
    if (m_firstEntryOffset == ~uint64_t(0))
        m_firstEntryOffset = tell();
}

void EventHandler::enterEvents()
{
    m_inEvents = true;
    m_sawEventsArray = true;
    m_eventsDepth = m_depth;
}

void EventHandler::startCapture(std::string *out, uint32_t depth)
{
    m_capturing = true;
    m_captureDepth = depth;
    // A value too large is reported at its event, or where it starts outside traceEvents.
    m_captureOffset = depth == 1 ? tell() : m_event->offset;
    m_capture.start(out);
}

void EventHandler::finishCapture()
{
    m_capturing = false;
    if (m_capture.overflow())
        m_diag.add(Diag::ValueTooLarge, m_captureOffset, "a value over 1 MB was cut");
    if (m_captureDepth == 1) {
        m_top.metadata[m_topKey] = std::move(m_metadataText);
        m_metadataText.clear();
        return;
    }
    *shapeArg(m_captureArg) = m_strings.intern(m_captureText);
}

StringId *EventHandler::shapeArg(Arg arg) const
{
    return arg == Arg::InputDims ? &m_event->inputDims
        : arg == Arg::InputTypes ? &m_event->inputTypes
                                 : &m_event->concreteInputs;
}

/*!
 * A counter event plots one series per numeric arg, named "event.arg", or after the event
 * alone when it has a single numeric arg. Named here, on the thread that owns the strings.
 */
void EventHandler::nameCounterSeries()
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

void EventHandler::wrongType()
{
    m_diag.add(Diag::WrongType, m_event->offset,
        std::string("field '") + fieldName(m_field) + "' has the wrong type");
}

bool EventHandler::scalar(Kind kind, std::string_view text)
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
        m_notATrace = kind == Kind::String ? "the top-level value is a string, not a trace"
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
            if (parseInteger(text, base)) {
                m_top.baseTimeNs = base;
                m_top.sawBaseTime = true;
            }
        }
        m_top.metadata[m_topKey] = std::move(text2);
    }
    return true;
}

int64_t &EventHandler::memoryArg(Arg arg)
{
    switch (arg) {
    case Arg::DeviceType:
        return m_event->memDeviceType;
    case Arg::DeviceId:
        return m_event->memDeviceId;
    case Arg::Addr:
        return m_event->memAddr;
    case Arg::Bytes:
        return m_event->memBytes;
    case Arg::TotalAllocated:
        return m_event->memTotalAllocated;
    default:
        return m_event->memTotalReserved;
    }
}

void EventHandler::readId(std::string_view text, RawId &id, StringPool &strings)
{
    // Ids are mostly numbers, unique per flow: interning them all would grow the pool
    // with every correlation id. Only non-numeric ids need an interned key.
    id.present = true;
    id.numeric = parseInteger(text, id.num);
    id.written.assign(text);
    id.text = id.numeric ? 0 : strings.intern(text);
}

void EventHandler::eventField(Kind kind, std::string_view text)
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
            m_event->ph = '?'; // none, or several characters: an unknown phase
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
        m_event->memoryName = text == "[memory]" ? RawEventFields::MemoryName::Memory
            : text == "[OutOfMemory]"            ? RawEventFields::MemoryName::OutOfMemory
                                                 : RawEventFields::MemoryName::None;
        // Checked once per distinct name: the UI and exports show such bytes as U+FFFD.
        if (m_strings.size() != known && !isValidUtf8(text)) {
            m_diag.add(Diag::InvalidUtf8Names, m_event->offset, "a name is not valid UTF-8");
            m_needsEarlierText = m_continues;
        }
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

void EventHandler::eventArg(Kind kind, std::string_view text)
{
    int64_t v = kNoValue;
    const bool integer = (kind == Kind::Number || kind == Kind::String) && parseInteger(text, v);
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
    case Arg::DeviceType:
    case Arg::DeviceId:
    case Arg::Addr:
    case Arg::Bytes:
    case Arg::TotalAllocated:
    case Arg::TotalReserved:
        if (integer)
            memoryArg(m_arg) = v;
        break;
    case Arg::CollectiveSeq:
        if (integer)
            m_event->commsSeq = v;
        break;
    case Arg::GraphId:
    case Arg::GraphNodeId:
        if (integer)
            (m_arg == Arg::GraphId ? m_event->graphId : m_event->graphNodeId) = v;
        break;
    case Arg::WaitOnStream:
        if (integer)
            m_event->waitOnStream = v;
        break;
    case Arg::WaitOnRecord:
    case Arg::OriginalStream:
        if (integer)
            (m_arg == Arg::WaitOnRecord ? m_event->waitOnRecord : m_event->originalStream) = v;
        break;
    case Arg::CommsId:
        // Kept as written: a 64-bit unsigned hash may not fit an int64_t.
        if (kind == Kind::String || kind == Kind::Number)
            m_event->commsId = m_strings.intern(text);
        break;
    case Arg::CollectiveName:
    case Arg::ProcessGroupName:
        // A few distinct values per trace ("allreduce", "0"): interning them costs nothing.
        if (kind == Kind::String || kind == Kind::Number)
            (m_arg == Arg::CollectiveName ? m_event->collective : m_event->processGroup)
                = m_strings.intern(text);
        break;
    case Arg::InputDims:
    case Arg::InputTypes:
    case Arg::ConcreteInputs: {
        // A scalar where an array was expected: keep it as written.
        std::string json;
        if (kind == Kind::String)
            appendJsonString(json, text);
        else
            json = kind == Kind::Null ? "null" : std::string(text);
        *shapeArg(m_arg) = m_strings.intern(json);
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

} // namespace ks
