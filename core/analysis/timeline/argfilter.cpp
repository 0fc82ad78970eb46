// SPDX-License-Identifier: MIT
#include "analysis/timeline/argfilter.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace ks {

namespace {

struct KeyName {
    std::string_view name; //!< lower case, as the file writes it otherwise
    ArgFilter::Key key;
};

constexpr std::array<KeyName, 16> kKeys {{
    {"input dims", ArgFilter::Key::InputDims},
    {"external id", ArgFilter::Key::ExternalId},
    {"correlation", ArgFilter::Key::Correlation},
    {"sequence number", ArgFilter::Key::SequenceNumber},
    {"fwd thread id", ArgFilter::Key::FwdThreadId},
    {"device", ArgFilter::Key::Device},
    {"stream", ArgFilter::Key::Stream},
    {"grid", ArgFilter::Key::Grid},
    {"block", ArgFilter::Key::Block},
    {"collective name", ArgFilter::Key::CollectiveName},
    {"process group name", ArgFilter::Key::ProcessGroup},
    {"seq", ArgFilter::Key::Seq},
    {"graph id", ArgFilter::Key::GraphId},
    {"graph node id", ArgFilter::Key::GraphNodeId},
    {"cat", ArgFilter::Key::Category},
    {"category", ArgFilter::Key::Category},
}};

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(
        out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && std::isspace((unsigned char)s.front()))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace((unsigned char)s.back()))
        s.remove_suffix(1);
    return s;
}

std::optional<double> numberOf(std::string_view s)
{
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && end == s.data() + s.size() ? std::optional(v) : std::nullopt;
}

//! One `KEY OP VALUE`; nullopt when its key is none of kKeys.
std::optional<ArgFilter> parseOne(std::string_view term, std::string &error)
{
    const size_t at = term.find_first_of("=~<>");
    if (at == std::string_view::npos)
        return std::nullopt;
    std::string key = lower(trimmed(term.substr(0, at)));
    if (key.starts_with("args."))
        key.erase(0, 5);
    const auto known
        = std::find_if(kKeys.begin(), kKeys.end(), [&](const KeyName &k) { return k.name == key; });
    if (known == kKeys.end())
        return std::nullopt;
    ArgFilter f;
    f.key = known->key;
    const char op = term[at];
    f.op = op == '=' ? ArgFilter::Op::Equal
        : op == '~'  ? ArgFilter::Op::Contains
        : op == '<'  ? ArgFilter::Op::Less
                     : ArgFilter::Op::Greater;
    f.value = lower(trimmed(term.substr(at + 1)));
    f.number = numberOf(f.value);
    if ((f.op == ArgFilter::Op::Less || f.op == ArgFilter::Op::Greater) && !f.number)
        error = std::string(known->name) + ": " + op + " needs a number";
    return f;
}

//! The numeric value of \a key for \a s, if it has one.
std::optional<double> numberArg(const TraceModel &m, SliceId s, ArgFilter::Key key)
{
    const SliceTable &t = m.slices;
    auto known = [](int64_t v) { return v == kNoValue ? std::nullopt : std::optional(double(v)); };
    const GpuInfo *gpu = m.gpu(s);
    auto product = [](const int32_t(&v)[3]) { return double(v[0]) * double(v[1]) * double(v[2]); };
    switch (key) {
    case ArgFilter::Key::ExternalId:
        return known(t.externalId[s]);
    case ArgFilter::Key::Correlation:
        return known(t.correlation[s]);
    case ArgFilter::Key::SequenceNumber:
        return known(t.sequence[s]);
    case ArgFilter::Key::FwdThreadId:
        return known(t.fwdThread[s]);
    case ArgFilter::Key::Device:
        return gpu && gpu->device >= 0 ? std::optional(double(gpu->device)) : std::nullopt;
    case ArgFilter::Key::Stream:
        return gpu && gpu->stream >= 0 ? std::optional(double(gpu->stream)) : std::nullopt;
    case ArgFilter::Key::Grid:
        return gpu ? std::optional(product(gpu->grid)) : std::nullopt;
    case ArgFilter::Key::Block:
        return gpu ? std::optional(product(gpu->block)) : std::nullopt;
    case ArgFilter::Key::Seq:
        return gpu ? known(gpu->seq) : std::nullopt;
    case ArgFilter::Key::GraphId:
        return gpu ? known(gpu->graphId) : std::nullopt;
    case ArgFilter::Key::GraphNodeId:
        return gpu ? known(gpu->graphNodeId) : std::nullopt;
    default:
        return std::nullopt;
    }
}

//! The text of \a key for \a s (numbers as the file writes them), nullopt when it has none.
std::optional<std::string> textArg(const TraceModel &m, SliceId s, ArgFilter::Key key)
{
    const SliceTable &t = m.slices;
    const GpuInfo *gpu = m.gpu(s);
    auto text
        = [&](StringId id) { return id == 0 ? std::nullopt : std::optional(lower(m.str(id))); };
    auto triple = [](const int32_t(&v)[3]) { // appended: GCC 12 -O3 -Wrestrict on "[" + …
        std::string out = "[";
        for (int i = 0; i < 3; ++i) {
            out += std::to_string(v[i]);
            out += i < 2 ? "," : "]";
        }
        return out;
    };
    switch (key) {
    case ArgFilter::Key::InputDims:
        return text(t.inputDims[s]);
    case ArgFilter::Key::CollectiveName:
        return gpu ? text(gpu->collective) : std::nullopt;
    case ArgFilter::Key::ProcessGroup:
        return gpu ? text(gpu->processGroup) : std::nullopt;
    case ArgFilter::Key::Category:
        return text(t.category[s]);
    case ArgFilter::Key::Grid:
        return gpu ? std::optional(triple(gpu->grid)) : std::nullopt;
    case ArgFilter::Key::Block:
        return gpu ? std::optional(triple(gpu->block)) : std::nullopt;
    default:
        break;
    }
    const std::optional<double> n = numberArg(m, s, key);
    return n ? std::optional(std::to_string(int64_t(*n))) : std::nullopt;
}

bool meets(const TraceModel &m, SliceId s, const ArgFilter &f)
{
    if (f.op == ArgFilter::Op::Less || f.op == ArgFilter::Op::Greater) {
        const std::optional<double> n = numberArg(m, s, f.key);
        return n && f.number && (f.op == ArgFilter::Op::Less ? *n < *f.number : *n > *f.number);
    }
    const std::optional<std::string> text = textArg(m, s, f.key);
    if (!text)
        return false;
    if (f.op == ArgFilter::Op::Contains)
        return text->find(f.value) != std::string::npos;
    if (const std::optional<double> n = numberArg(m, s, f.key);
        n && f.number && f.key != ArgFilter::Key::Grid && f.key != ArgFilter::Key::Block)
        return *n == *f.number;
    return *text == f.value;
}

} // namespace

std::optional<std::vector<ArgFilter>> parseArgFilters(std::string_view text, std::string &error)
{
    std::vector<ArgFilter> out;
    std::string_view rest = text;
    while (true) {
        const size_t join = rest.find(" and ");
        const std::optional<ArgFilter> f = parseOne(rest.substr(0, join), error);
        if (!f)
            return std::nullopt; // a term of no known key: the text is a name pattern
        out.push_back(*f);
        if (join == std::string_view::npos)
            return out;
        rest.remove_prefix(join + 5);
    }
}

bool meetsArgFilters(const TraceModel &model, SliceId s, const std::vector<ArgFilter> &filters)
{
    return std::all_of(
        filters.begin(), filters.end(), [&](const ArgFilter &f) { return meets(model, s, f); });
}

} // namespace ks
