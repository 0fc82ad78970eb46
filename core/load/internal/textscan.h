// SPDX-License-Identifier: MIT
#pragma once

#include <rapidjson/rapidjson.h>

#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace ks {

// What the loader's streams let RapidJSON's reader skip over at once. It copies a string's
// characters one at a time through its stream unless the stream has a scanner of its own, which
// it ships for its in-memory streams only, and with SSE only (reading past a short buffer's end);
// and it reads a number digit by digit, working out its value, to hand over its text copied
// twice. ChunkStream and TextStream find a string's plain characters (plainRunEnd) and a plain
// number's end (plainNumberEnd) in the text, each within what they know to be there.

//! The first of [\a p, \a end) that is '"', '\\' or a control character; \a end when none is.
inline const char *plainRunEnd(const char *p, const char *end)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i lastControl = _mm_set1_epi8(0x1f);
    for (; end - p >= 16; p += 16) {
        const __m128i s = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        // s < 0x20 (unsigned) exactly where max(s, 0x1f) == 0x1f
        const __m128i special
            = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(s, quote), _mm_cmpeq_epi8(s, backslash)),
                _mm_cmpeq_epi8(_mm_max_epu8(s, lastControl), lastControl));
        if (const int mask = _mm_movemask_epi8(special))
            return p + __builtin_ctz(unsigned(mask));
    }
#endif
    for (; p != end; ++p)
        if (*p == '"' || *p == '\\' || static_cast<unsigned char>(*p) < 0x20)
            return p;
    return end;
}

/*!
 * The end of the JSON number at \a p when it is one of the plain kind every trace is full of: an
 * optional '-', an integer part of at most 300 digits (so no double overflows) without a leading
 * zero, an optional fraction of at least one digit, no exponent, followed within [\a p, \a end)
 * by what may follow a value (',', '}', ']' or whitespace). Null for any other: RapidJSON's own
 * reading decides those (exponents, NaN, what it finds wrong).
 */
inline const char *plainNumberEnd(const char *p, const char *end)
{
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    if (p != end && *p == '-')
        ++p;
    const char *integer = p;
    if (p != end && *p == '0')
        ++p;
    else
        while (p != end && digit(*p))
            ++p;
    if (p == integer || p - integer > 300)
        return nullptr;
    if (p != end && *p == '.') {
        const char *fraction = ++p;
        while (p != end && digit(*p))
            ++p;
        if (p == fraction)
            return nullptr;
    }
    if (p == end)
        return nullptr;
    switch (*p) {
    case ',':
    case '}':
    case ']':
    case ' ':
    case '\n':
    case '\r':
    case '\t':
        return p;
    default:
        return nullptr;
    }
}

/*!
 * Copies the plain characters of a string ahead in \a stream to \a out (RapidJSON's stack) at
 * once; what ends them ('"', '\\', a control character, what the stream lets no scan read)
 * RapidJSON's own loop then takes.
 */
template<typename Stream, typename Out> void copyPlainRun(Stream &stream, Out &out)
{
    const char *begin = stream.scanBegin();
    const char *run = plainRunEnd(begin, stream.scanEnd());
    if (run == begin)
        return;
    std::memcpy(out.Push(rapidjson::SizeType(run - begin)), begin, size_t(run - begin));
    stream.skipTo(run);
}

} // namespace ks
