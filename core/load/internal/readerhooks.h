// SPDX-License-Identifier: MIT
// Where the loader's reader departs from RapidJSON's own reading.
// - Numbers are taken as text (exact times, no double conversion). RapidJSON reads a number digit
//   by digit, works out its value all the same, and copies its text twice before handing it over;
//   a plain number (plainNumberEnd(), textscan.h) is handed over from the stream's own text.
// - Every stream stands past a string or number while the handler runs, as a ChunkStream does.
//   RapidJSON reads a TextStream's through a copy (copyOptimization) that it writes back only
//   after the handler ran, so the handler's offsets (EventHandler::tell()) would stand at their
//   start, and the same file would name other bytes split in segments than read whole.
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

//! \a Stream read in place, through a reference: under another name, so that RapidJSON reads a
//! value from it its own way, and moves the stream itself as it reads.
template<typename Stream> struct InPlace {
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
 * reading, given the stream InPlace). False when the handler refused a plain number, which stops
 * the parse. The stream stands past the number while the handler runs.
 */
template<typename Stream, typename OwnWay>
bool readNumber(Stream &stream, EventHandler &handler, const OwnWay &ownWay)
{
    const char *begin = stream.scanBegin();
    const char *end = plainNumberEnd(begin, stream.scanEnd());
    if (!end) {
        InPlace<Stream> own {stream};
        ownWay(own);
        return true;
    }
    stream.skipTo(end);
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

// A TextStream's strings are read InPlace (above); RapidJSON calls this before each character of
// one that it would copy alone, and the plain run from there is copied at once (textscan.h).

template<>
template<>
inline void ks::JsonReader::ScanCopyUnescapedString(
    ks::InPlace<ks::TextStream> &is, ks::JsonReader::StackStream<char> &os)
{
    ks::copyPlainRun(is.stream, os);
}

template<>
template<>
inline void ks::JsonReader::ParseString<ks::kParseFlags>(
    ks::TextStream &is, ks::EventHandler &handler, bool isKey)
{
    ks::InPlace<ks::TextStream> inPlace {is};
    ParseString<ks::kParseFlags>(inPlace, handler, isKey);
}

} // namespace rapidjson
