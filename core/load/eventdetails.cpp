// SPDX-License-Identifier: MIT
#include "load/eventdetails.h"

#include "base/jsonallocator.h"
#include "inputfile.h"
#include "jsoncapture.h"
#include "repairstream.h"
#include "seekingtext.h"
#include "textstream.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <new>

namespace ks {

namespace {

/*!
 * Captures the top-level fields of one event object and each key of its args separately.
 * Parsing stops at the end of the object (kParseStopWhenDoneFlag).
 */
class DetailsHandler {
public:
    explicit DetailsHandler(EventDetails &out)
        : m_out(out)
    {
    }

    bool Null()
    {
        return value([](JsonCapture &c) { c.raw("null"); });
    }
    bool Bool(bool b)
    {
        return value([b](JsonCapture &c) { c.raw(b ? "true" : "false"); });
    }
    bool Int(int) { return true; }
    bool Uint(unsigned) { return true; }
    bool Int64(int64_t) { return true; }
    bool Uint64(uint64_t) { return true; }
    bool Double(double) { return true; }
    bool RawNumber(const char *s, rapidjson::SizeType n, bool)
    {
        return value([&](JsonCapture &c) { c.raw(std::string_view(s, n)); });
    }
    bool String(const char *s, rapidjson::SizeType n, bool)
    {
        return value([&](JsonCapture &c) { c.string(std::string_view(s, n)); });
    }
    bool Key(const char *s, rapidjson::SizeType n, bool)
    {
        if (m_capturing) {
            m_capture.key(std::string_view(s, n));
        } else {
            m_key.assign(s, n);
        }
        return true;
    }
    bool StartObject() { return open('{'); }
    bool StartArray() { return open('['); }
    bool EndObject(rapidjson::SizeType) { return close('}'); }
    bool EndArray(rapidjson::SizeType) { return close(']'); }

private:
    // depth 1: inside the event; 2: inside args (when m_inArgs).
    template<typename F> bool value(F &&emit)
    {
        if (!m_capturing)
            startCapture();
        emit(m_capture);
        if (m_depth == m_captureDepth)
            finishCapture();
        return true;
    }
    bool open(char c)
    {
        if (m_depth == 1 && !m_capturing && m_key == "args" && c == '{') {
            m_inArgs = true;
            ++m_depth;
            return true;
        }
        if (m_depth >= 1 && !m_capturing)
            startCapture();
        if (m_capturing)
            m_capture.open(c);
        ++m_depth;
        return true;
    }
    bool close(char c)
    {
        --m_depth;
        if (m_capturing) {
            m_capture.close(c);
            if (m_depth == m_captureDepth)
                finishCapture();
        } else if (m_inArgs && m_depth == 1) {
            m_inArgs = false;
        }
        return true;
    }
    void startCapture()
    {
        m_capturing = true;
        m_captureDepth = m_depth;
        m_capture.start(&m_text);
    }
    void finishCapture()
    {
        m_capturing = false;
        (m_inArgs ? m_out.args : m_out.fields).emplace_back(m_key, m_text);
    }

    EventDetails &m_out;
    JsonCapture m_capture;
    std::string m_key;
    std::string m_text;
    uint32_t m_depth = 0;
    uint32_t m_captureDepth = 0;
    bool m_capturing = false;
    bool m_inArgs = false;
};

constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag
    | rapidjson::kParseStopWhenDoneFlag | rapidjson::kParseNanAndInfFlag;

template<typename Stream> bool parseEvent(Stream &stream, EventDetails &out, std::string &error)
{
    if (stream.Peek() != '{') {
        error = "no event at this offset (the file changed?)";
        return false;
    }
    RepairStream<Stream> repaired(stream);
    DetailsHandler handler(out);
    JsonReader reader;
    const rapidjson::ParseResult r = reader.Parse<kFlags>(repaired, handler);
    if (r.IsError()) {
        error = rapidjson::GetParseError_En(r.Code());
        return !out.fields.empty();
    }
    return true;
}

} // namespace

bool readEventDetailsText(
    std::string_view text, uint64_t offset, EventDetails &out, std::string &error)
{
    if (offset >= text.size()) {
        error = "offset beyond the end of the text";
        return false;
    }
    const std::string copy(text.substr(offset)); // zero-terminated
    TextStream stream(copy);
    return parseEvent(stream, out, error);
}

bool readEventDetails(
    const TraceModel &model, uint64_t offset, EventDetails &out, std::string &error)
{
    try {
        auto file = InputFile::open(model.path, error);
        if (!file)
            return false;
        // The seek points fit only the file they were recorded from.
        const GzipIndex none;
        const bool sameFile = file->size() == model.fileSize;
        SeekingText text(*file, sameFile ? model.gzipIndex : none, offset);
        if (text.atEnd()) {
            out.inflatedBytes = text.inflated();
            error = "the file changed since it was loaded";
            return false;
        }
        const bool read = parseEvent(text, out, error);
        out.inflatedBytes = text.inflated();
        return read;
    } catch (const std::bad_alloc &) {
        error = "not enough memory to read this event";
        return false;
    }
}

} // namespace ks
