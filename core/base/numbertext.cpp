// SPDX-License-Identifier: MIT
#include "base/numbertext.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace ks {

namespace {

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

} // namespace

bool parseMicros(std::string_view text, MicrosText &out)
{
    text = trimmed(text);
    if (text.empty())
        return false;
    size_t i = 0;
    const bool negative = text[0] == '-';
    if (negative || text[0] == '+')
        ++i;
    // Fast path: digits, optional '.', digits. Exponents fall through to the slow path.
    constexpr int64_t kMaxUs = std::numeric_limits<int64_t>::max() / 1000 - 1;
    int64_t us = 0;
    size_t intDigits = 0;
    for (; i < text.size() && isDigit(text[i]); ++i, ++intDigits) {
        if (us > (kMaxUs - 9) / 10)
            return false;
        us = us * 10 + (text[i] - '0');
    }
    int64_t frac = 0; // nanoseconds from the first three fraction digits
    uint8_t decimals = 0;
    bool roundUp = false;
    if (i < text.size() && text[i] == '.') {
        ++i;
        size_t fracDigits = 0;
        for (; i < text.size() && isDigit(text[i]); ++i, ++fracDigits) {
            if (fracDigits < 3)
                frac = frac * 10 + (text[i] - '0');
            else if (fracDigits == 3)
                roundUp = text[i] >= '5';
        }
        if (fracDigits == 0 && intDigits == 0)
            return false;
        for (size_t k = fracDigits; k < 3; ++k)
            frac *= 10;
        decimals = uint8_t(fracDigits > 255 ? 255 : fracDigits);
    } else if (intDigits == 0) {
        return false;
    }
    if (i == text.size()) {
        int64_t ns = us * 1000 + frac + (roundUp ? 1 : 0);
        out.ns = negative ? -ns : ns;
        out.decimals = decimals;
        return true;
    }
    if (text[i] != 'e' && text[i] != 'E')
        return false;
    // Exponent notation is rare in traces; a double is exact enough for it.
    double v;
    if (!parseDouble(text, v))
        return false;
    const double ns = v * 1000.0;
    if (!std::isfinite(ns) || std::fabs(ns) > 9.2e18)
        return false;
    out.ns = std::llround(ns);
    out.decimals = 3;
    return true;
}

bool parseInteger(std::string_view text, int64_t &out)
{
    // Fast path for what traces almost always hold: a plain run of at most 18 digits.
    if (!text.empty() && text.size() <= 18) {
        const bool negative = text[0] == '-';
        size_t i = negative ? 1 : 0;
        int64_t v = 0;
        for (; i < text.size() && isDigit(text[i]); ++i)
            v = v * 10 + (text[i] - '0');
        if (i == text.size() && i > size_t(negative)) {
            out = negative ? -v : v;
            return true;
        }
    }
    text = trimmed(text);
    if (text.empty())
        return false;
    const char *first = text.data();
    const char *last = first + text.size();
    if (*first == '+' && last - first > 1 && first[1] != '-')
        ++first;
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr == first)
        return false;
    if (ptr != last) {
        // Accept "42.0" and "42.000" but not "42.5" or "42abc".
        if (*ptr != '.')
            return false;
        for (++ptr; ptr != last; ++ptr)
            if (*ptr != '0')
                return false;
    }
    out = v;
    return true;
}

bool parseDouble(std::string_view text, double &out)
{
    text = trimmed(text);
    if (text.empty() || text.size() > 400)
        return false;
    std::string buffer(text); // strtod needs a terminated string
    char *end = nullptr;
    const double v = std::strtod(buffer.c_str(), &end);
    if (end != buffer.c_str() + buffer.size())
        return false;
    if (std::isnan(v))
        return false;
    out = v;
    return true;
}

void appendMicros(std::string &out, int64_t ns, int decimals)
{
    if (decimals > 3)
        decimals = 3;
    const bool negative = ns < 0;
    const uint64_t mag = negative ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    uint64_t us = mag / 1000;
    uint64_t frac = mag % 1000;
    if (decimals < 3) {
        // Round what the reduced precision cannot show (only happens for derived values).
        static constexpr uint64_t kDiv[] = {1000, 100, 10};
        const uint64_t div = kDiv[decimals];
        const uint64_t step = 1000 / div;
        uint64_t scaled = (frac + div / 2) / div;
        if (scaled >= step) {
            us += 1;
            scaled = 0;
        }
        frac = scaled;
    }
    if (negative && (us != 0 || frac != 0))
        out += '-';
    char buf[32];
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, us);
    out.append(buf, p);
    if (decimals > 0) {
        out += '.';
        char digits[3];
        for (int k = decimals - 1; k >= 0; --k) {
            digits[k] = char('0' + frac % 10);
            frac /= 10;
        }
        out.append(digits, size_t(decimals));
    }
}

} // namespace ks
