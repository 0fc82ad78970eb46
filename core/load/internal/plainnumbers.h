// SPDX-License-Identifier: MIT
// The loader takes numbers as text (exact times, no double conversion). RapidJSON reads a number
// digit by digit, works out its value all the same, and copies its text twice before handing it
// over; a plain number (plainNumberEnd(), textscan.h) is handed over from the stream's own text.
#pragma once

#include "base/jsonallocator.h"
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

/*!
 * Reads the number at \a stream's position for \a handler: a plain one from the stream's own
 * text, handed over as RapidJSON hands a number over; any other by \a ownWay (RapidJSON's own
 * reading, given the stream under another name, Unscanned). False when the handler refused a
 * plain number, which stops the parse. Read as RapidJSON reads a number, through its
 * StreamLocalCopy, so the stream stands where RapidJSON's would while the handler runs (its
 * offsets): past the number, or at its start for a stream it reads through a copy.
 */
template<typename Stream, typename OwnWay>
bool readNumber(Stream &stream, EventHandler &handler, const OwnWay &ownWay)
{
    rapidjson::internal::StreamLocalCopy<Stream> local(stream);
    const char *begin = local.s.scanBegin();
    const char *end = plainNumberEnd(begin, local.s.scanEnd());
    if (!end) {
        Unscanned<Stream> own {local.s};
        ownWay(own);
        return true;
    }
    local.s.skipTo(end);
    return handler.RawNumber(begin, rapidjson::SizeType(end - begin), true);
}

} // namespace ks

namespace rapidjson {

// Each number of the loader's streams (ChunkStream, a file's or inflated text in chunks;
// TextStream, a text in memory) is read as above.

template<>
template<>
inline void ks::JsonReader::ParseNumber<ks::kParseFlags>(
    ks::ChunkStream &is, ks::EventHandler &handler)
{
    const size_t start = is.Tell();
    if (!ks::readNumber(
            is, handler, [&](auto &own) { ParseNumber<ks::kParseFlags>(own, handler); }))
        RAPIDJSON_PARSE_ERROR_NORETURN(kParseErrorTermination, start);
}

template<>
template<>
inline void ks::JsonReader::ParseNumber<ks::kParseFlags>(
    ks::TextStream &is, ks::EventHandler &handler)
{
    const size_t start = is.Tell();
    if (!ks::readNumber(
            is, handler, [&](auto &own) { ParseNumber<ks::kParseFlags>(own, handler); }))
        RAPIDJSON_PARSE_ERROR_NORETURN(kParseErrorTermination, start);
}

} // namespace rapidjson
