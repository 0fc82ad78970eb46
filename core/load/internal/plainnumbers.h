// SPDX-License-Identifier: MIT
// The loader takes numbers as text (exact times, no double conversion). RapidJSON reads a number
// digit by digit, works out its value all the same, and copies its text twice before handing it
// over; a plain number (plainNumberEnd(), textscan.h) is handed over from the stream's own text.
#pragma once

#include "eventhandler.h"
#include "inputfile.h"
#include "textstream.h"

#include <rapidjson/reader.h>

namespace ks {

constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag
    | rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseTrailingCommasFlag
    | rapidjson::kParseNanAndInfFlag;

//! \a Stream under another name, so that RapidJSON reads a number from it its own way.
template<typename Stream> struct Unscanned {
    using Ch = char;
    Stream &stream;
    Ch Peek() const { return stream.Peek(); }
    Ch Take() { return stream.Take(); }
    size_t Tell() const { return stream.Tell(); }
    Ch *PutBegin() { return nullptr; }
    void Put(Ch) { }
    void Flush() { }
    size_t PutEnd(Ch *) { return 0; }
};

enum class PlainNumber { None, Taken, Refused };

/*!
 * Hands \a handler the plain number at \a stream's position, as RapidJSON hands a number over,
 * and moves past it: Taken, or Refused when the handler stops the parse; None when no plain
 * number is there, nothing read. While the handler runs (its offsets), the stream stands where
 * RapidJSON's reading leaves it then: past the number, or at its start for a stream RapidJSON
 * reads through a copy (StreamTraits::copyOptimization), which it moves on only afterwards.
 */
template<typename Stream> PlainNumber takePlainNumber(Stream &stream, EventHandler &handler)
{
    const char *begin = stream.scanBegin();
    const char *end = plainNumberEnd(begin, stream.scanEnd());
    if (!end)
        return PlainNumber::None;
    constexpr bool throughCopy = rapidjson::StreamTraits<Stream>::copyOptimization;
    if (!throughCopy)
        stream.skipTo(end);
    const bool taken = handler.RawNumber(begin, rapidjson::SizeType(end - begin), true);
    if (throughCopy)
        stream.skipTo(end);
    return taken ? PlainNumber::Taken : PlainNumber::Refused;
}

} // namespace ks

namespace rapidjson {

//! A number in a chunk: plain, from the chunk; else as RapidJSON reads it.
template<>
template<>
inline void Reader::ParseNumber<ks::kParseFlags>(ks::ChunkStream &is, ks::EventHandler &handler)
{
    const size_t start = is.Tell();
    const ks::PlainNumber plain = ks::takePlainNumber(is, handler);
    if (plain == ks::PlainNumber::None) {
        ks::Unscanned<ks::ChunkStream> own {is};
        ParseNumber<ks::kParseFlags>(own, handler);
    } else if (plain == ks::PlainNumber::Refused) {
        RAPIDJSON_PARSE_ERROR_NORETURN(kParseErrorTermination, start);
    }
}

//! The same in a text in memory.
template<>
template<>
inline void Reader::ParseNumber<ks::kParseFlags>(ks::TextStream &is, ks::EventHandler &handler)
{
    const size_t start = is.Tell();
    const ks::PlainNumber plain = ks::takePlainNumber(is, handler);
    if (plain == ks::PlainNumber::None) {
        ks::Unscanned<ks::TextStream> own {is};
        ParseNumber<ks::kParseFlags>(own, handler);
    } else if (plain == ks::PlainNumber::Refused) {
        RAPIDJSON_PARSE_ERROR_NORETURN(kParseErrorTermination, start);
    }
}

} // namespace rapidjson
