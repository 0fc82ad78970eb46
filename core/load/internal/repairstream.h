// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace ks {

/*!
 * Wraps a RapidJSON input stream and repairs what real traces get wrong, so that RapidJSON
 * accepts them: inside strings, raw control characters (escaped as \u00XX), invalid escapes
 * such as "\q" (the backslash is escaped) and lone UTF-16 surrogates (replaced by U+FFFD);
 * outside strings, numbers beyond the range of a double ("1e400", 400 digits), which become
 * strings so that the event keeps its other fields and the value is reported as unusable.
 * Used only for a second pass after strict parsing failed on such a string: it costs a state
 * check per character. repairs() counts what was changed; firstRepairAt() says where.
 */
template<typename In> class RepairStream {
public:
    using Ch = char;
    explicit RepairStream(In &in)
        : m_in(in)
    {
    }

    Ch Peek()
    {
        if (m_pos == m_len)
            fill();
        return m_buf[m_pos];
    }
    Ch Take()
    {
        if (m_pos == m_len)
            fill();
        const Ch c = m_buf[m_pos];
        if (c != 0 || m_pos < m_len)
            ++m_pos;
        return c;
    }
    size_t Tell() const { return m_tell; }
    Ch *PutBegin() { return nullptr; }
    void Put(Ch) { }
    void Flush() { }
    size_t PutEnd(Ch *) { return 0; }

    uint64_t repairs() const { return m_repairs; }
    uint64_t firstRepairAt() const { return m_firstRepairAt; }

private:
    static bool isHex(char c)
    {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
    static unsigned hexValue(char c)
    {
        return c <= '9' ? unsigned(c - '0') : unsigned((c | 0x20) - 'a' + 10);
    }
    void emit(char c) { m_buf[m_len++] = c; }
    void emit(const char *s)
    {
        while (*s)
            emit(*s++);
    }
    void repaired()
    {
        if (m_repairs++ == 0)
            m_firstRepairAt = m_tell;
    }
    //! Reads 4 hex digits after "\u"; returns false (having emitted nothing) if they are not.
    bool readHex4(unsigned &value, char digits[4])
    {
        value = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = m_in.Peek();
            if (!isHex(c)) {
                for (int j = 0; j < k; ++j)
                    emit(digits[j]);
                return false;
            }
            digits[k] = m_in.Take();
            value = value * 16 + hexValue(c);
        }
        return true;
    }

    static bool isNumberChar(char c)
    {
        return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
    }

    /*!
     * Copies a number token, or turns it into a string when RapidJSON would reject it as too
     * big: more than kMaxNumber characters, or a decimal exponent beyond ±300.
     */
    void readNumber()
    {
        char token[kMaxNumber];
        size_t n = 0;
        while (n < kMaxNumber && isNumberChar(m_in.Peek()))
            token[n++] = m_in.Take();
        if (n == kMaxNumber && isNumberChar(m_in.Peek())) {
            repaired();
            emit('"');
            for (size_t k = 0; k < n; ++k)
                emit(token[k]);
            m_longNumber = true; // the rest streams through, then the closing quote
            return;
        }
        int exponent = 0;
        bool negative = false;
        for (size_t k = 0; k < n; ++k) {
            if (token[k] == 'e' || token[k] == 'E') {
                size_t j = k + 1;
                if (j < n && (token[j] == '+' || token[j] == '-'))
                    negative = token[j++] == '-';
                // Digits only ("--e--" is a token too), capped: only "beyond ±300" matters.
                for (; j < n && token[j] >= '0' && token[j] <= '9'; ++j)
                    exponent = std::min(exponent * 10 + (token[j] - '0'), 100000);
                break;
            }
        }
        const bool tooBig = exponent > 300 && !negative; // tiny values just round to zero
        if (tooBig) {
            repaired();
            emit('"');
        }
        for (size_t k = 0; k < n; ++k)
            emit(token[k]);
        if (tooBig)
            emit('"');
    }

    void fill()
    {
        m_pos = m_len = 0;
        m_tell = m_in.Tell();
        const char c = m_in.Peek();
        if (c == 0) {
            m_buf[0] = 0; // end of input: Peek() keeps answering the zero
            return;
        }
        if (m_longNumber) {
            if (isNumberChar(c)) {
                emit(m_in.Take());
                return;
            }
            m_longNumber = false;
            emit('"');
            return;
        }
        if (!m_inString && (c == '-' || (c >= '0' && c <= '9'))) {
            readNumber();
            return;
        }
        m_in.Take();
        if (!m_inString) {
            if (c == '"')
                m_inString = true;
            emit(c);
            return;
        }
        if (c == '"') {
            m_inString = false;
            emit(c);
            return;
        }
        if (uint8_t(c) < 0x20) {
            static constexpr char kHex[] = "0123456789abcdef";
            repaired();
            emit("\\u00");
            emit(kHex[uint8_t(c) >> 4]);
            emit(kHex[c & 15]);
            return;
        }
        if (c != '\\') {
            emit(c);
            return;
        }
        readEscape();
    }

    //! After a backslash inside a string: an escape RapidJSON accepts, or its repair.
    void readEscape()
    {
        const char e = m_in.Peek();
        switch (e) {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
            emit('\\');
            emit(m_in.Take());
            return;
        case 'u':
            break;
        case 0:
            // The text ends after the backslash: a cut-off file, not something to repair.
            emit('\\');
            return;
        default:
            // "\q": keep both characters by escaping the backslash.
            repaired();
            emit("\\\\");
            return;
        }
        m_in.Take(); // 'u'
        readUnicodeEscape();
    }

    //! After a backslash and 'u': four hex digits, a surrogate pair, or what repairs them.
    void readUnicodeEscape()
    {
        char digits[4];
        unsigned cp;
        if (!readHex4(cp, digits)) {
            // "\u12" followed by junk: an escaped backslash, then the text as it was.
            repaired();
            char partial[8];
            const size_t n = m_len;
            for (size_t k = 0; k < n; ++k)
                partial[k] = m_buf[k];
            m_len = 0;
            emit("\\\\u");
            for (size_t k = 0; k < n; ++k)
                emit(partial[k]);
            return;
        }
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            readLowSurrogate(digits);
            return;
        }
        if (cp >= 0xDC00 && cp <= 0xDFFF) {
            repaired();
            emit("\\ufffd");
            return;
        }
        emit("\\u");
        for (char d : digits)
            emit(d);
    }

    //! After a high surrogate (\a digits): an escaped low surrogate must follow.
    void readLowSurrogate(const char (&digits)[4])
    {
        if (m_in.Peek() == '\\') {
            m_in.Take();
            if (m_in.Peek() == 'u') {
                m_in.Take();
                char low[4];
                unsigned lo;
                const size_t before = m_len;
                if (readHex4(lo, low) && lo >= 0xDC00 && lo <= 0xDFFF) {
                    emit("\\u");
                    for (char d : digits)
                        emit(d);
                    emit("\\u");
                    for (char d : low)
                        emit(d);
                    return;
                }
                // Not a pair: replace the high one, keep what followed as escaped text.
                char rest[4];
                const size_t n = m_len - before;
                for (size_t k = 0; k < n; ++k)
                    rest[k] = m_buf[before + k];
                m_len = 0;
                repaired();
                emit("\\ufffd");
                if (n == 4) {
                    // A valid \u escape (a lone low surrogate or any other character).
                    const bool lone = lo >= 0xDC00 && lo <= 0xDFFF;
                    if (lone) {
                        emit("\\ufffd");
                    } else {
                        emit("\\u");
                        for (char d : low)
                            emit(d);
                    }
                } else {
                    emit("\\\\u");
                    for (size_t k = 0; k < n; ++k)
                        emit(rest[k]);
                }
                return;
            }
            // "\uD800\x": replacement, then handle the backslash like any other.
            repaired();
            emit("\\ufffd");
            const char e2 = m_in.Peek();
            if (e2 == '"' || e2 == '\\' || e2 == '/' || e2 == 'b' || e2 == 'f' || e2 == 'n'
                || e2 == 'r' || e2 == 't') {
                emit('\\');
                emit(m_in.Take());
            } else {
                emit("\\\\");
            }
            return;
        }
        repaired();
        emit("\\ufffd");
    }

    static constexpr size_t kMaxNumber = 64;

    In &m_in;
    char m_buf[kMaxNumber + 16] = {0};
    bool m_longNumber = false;
    size_t m_pos = 0;
    size_t m_len = 0;
    size_t m_tell = 0;
    bool m_inString = false;
    uint64_t m_repairs = 0;
    uint64_t m_firstRepairAt = 0;
};

} // namespace ks
