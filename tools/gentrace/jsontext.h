// SPDX-License-Identifier: MIT
#pragma once

#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace ks::gentrace {

//! Appends a decimal integer; the hot path of the writer, so no streams.
inline void appendInt(std::string &out, int64_t value)
{
    char buffer[24];
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    out.append(buffer, result.ptr);
}

//! Appends nanoseconds as microseconds with exactly three decimals, as kineto writes since 2024.
inline void appendMicros(std::string &out, int64_t ns)
{
    if (ns < 0) {
        out += '-';
        ns = -ns;
    }
    appendInt(out, ns / 1000);
    const int64_t fraction = ns % 1000;
    out += '.';
    out += char('0' + fraction / 100);
    out += char('0' + fraction / 10 % 10);
    out += char('0' + fraction % 10);
}

inline std::string microsText(int64_t ns)
{
    std::string text;
    appendMicros(text, ns);
    return text;
}

//! Appends a double with fixed decimals; to_chars is exact, so output is platform independent.
inline void appendFixed(std::string &out, double value, int decimals)
{
    char buffer[64];
    auto result
        = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::fixed, decimals);
    out.append(buffer, result.ptr);
}

//! Appends \a text as a JSON string literal (names are ASCII, but quote and escape anyway).
inline void appendQuoted(std::string &out, std::string_view text)
{
    out += '"';
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    out += '"';
}

//! A tensor shape as profiled ("Input Dims" entry); empty for scalars and non-tensors.
using Shape = std::vector<int64_t>;

inline int64_t numel(const Shape &shape)
{
    int64_t count = 1;
    for (int64_t dim : shape)
        count *= dim;
    return count;
}

//! Renders an "Input Dims" value such as [[32, 3, 32, 32], [32], []].
inline std::string dimsJson(const std::vector<Shape> &shapes)
{
    std::string out = "[";
    bool firstShape = true;
    for (const Shape &shape : shapes) {
        if (!firstShape)
            out += ", ";
        firstShape = false;
        out += '[';
        for (size_t i = 0; i < shape.size(); ++i) {
            if (i)
                out += ", ";
            appendInt(out, shape[i]);
        }
        out += ']';
    }
    out += ']';
    return out;
}

//! Renders an "Input type" value such as ["float", "Scalar", ""].
inline std::string typesJson(std::initializer_list<std::string_view> types)
{
    std::string out = "[";
    bool first = true;
    for (std::string_view type : types) {
        if (!first)
            out += ", ";
        first = false;
        appendQuoted(out, type);
    }
    out += ']';
    return out;
}

} // namespace ks::gentrace
