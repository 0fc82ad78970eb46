// SPDX-License-Identifier: MIT
#include "base/kernelname.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace ks {

namespace {

//! \a s without what comes from its first '<' or '(' on.
std::string_view beforeArguments(std::string_view s)
{
    return s.substr(0, std::min(s.find_first_of("<("), s.size()));
}

//! The last "::"-separated part of \a qualified.
std::string_view lastPart(std::string_view qualified)
{
    const size_t colons = qualified.rfind("::");
    return colons == std::string_view::npos ? qualified : qualified.substr(colons + 2);
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

//! The template arguments of the list opening at \a open ('<'), split at its own commas.
std::vector<std::string_view> templateArguments(std::string_view s, size_t open)
{
    std::vector<std::string_view> args;
    int depth = 0;
    size_t from = open + 1;
    for (size_t i = open; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '<' || c == '(')
            ++depth;
        else if (c == '>' || c == ')')
            --depth;
        if ((c == ',' && depth == 1) || depth == 0) {
            args.push_back(trimmed(s.substr(from, i - from)));
            from = i + 1;
        }
        if (depth == 0)
            break;
    }
    return args;
}

//! A value rather than a type: "4", "512u", "true".
bool isValue(std::string_view arg)
{
    return arg.empty() || arg == "true" || arg == "false"
        || std::isdigit(static_cast<unsigned char>(arg.front())) || arg.front() == '-';
}

std::string capped(std::string s)
{
    if (s.size() <= kShortKernelNameMostChars)
        return s;
    size_t cut = kShortKernelNameMostChars - 3;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
        --cut; // not inside a UTF-8 sequence
    s.resize(cut);
    return s + "…";
}

} // namespace

std::string shortKernelName(std::string_view name)
{
    constexpr std::string_view kVoid = "void ", kAnonymous = "(anonymous namespace)::";
    if (!name.starts_with(kVoid) && name.find("::") == std::string_view::npos)
        return capped(std::string(name));
    std::string s(name.starts_with(kVoid) ? name.substr(kVoid.size()) : name);
    for (size_t at; (at = s.find(kAnonymous)) != std::string::npos;)
        s.erase(at, kAnonymous.size());
    const std::string_view sv = s;
    std::string shortName(lastPart(beforeArguments(sv)));
    const size_t open = sv.find_first_of("<(");
    if (open != std::string_view::npos && sv[open] == '<') {
        for (std::string_view arg : templateArguments(sv, open)) {
            if (!isValue(arg)) {
                shortName.append("<").append(lastPart(beforeArguments(arg))).append(">");
                break;
            }
        }
    }
    return capped(std::move(shortName));
}

} // namespace ks
