// SPDX-License-Identifier: MIT
#include "analysis/efficiency/opshapes.h"

#include "base/jsonallocator.h"
#include "model/tracemodel.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <utility>

namespace ks {

namespace {

//! An array of integers, else nullopt (a scalar, a nested list, a float).
std::optional<std::vector<int64_t>> shapeOf(const JsonValue &v)
{
    if (!v.IsArray())
        return std::nullopt;
    std::vector<int64_t> shape;
    for (const JsonValue &d : v.GetArray()) {
        if (!d.IsInt64())
            return std::nullopt;
        shape.push_back(d.GetInt64());
    }
    return shape;
}

//! The entries of JSON array \a text as strings ("" for a non-string), empty when no array.
std::vector<std::string> stringsOf(std::string_view text, JsonDocument &doc)
{
    std::vector<std::string> out;
    if (!text.empty() && !doc.Parse(text.data(), text.size()).HasParseError() && doc.IsArray()) {
        for (const JsonValue &v : doc.GetArray())
            out.emplace_back(v.IsString() ? v.GetString() : "");
    }
    return out;
}

} // namespace

double OpShapes::elementsOf(size_t i) const
{
    const std::vector<int64_t> *shape = dimsOf(i);
    if (!shape)
        return 0;
    double n = 1;
    for (int64_t d : *shape)
        n *= double(d);
    return n;
}

OpShapes parseOpShapes(std::string_view dims, std::string_view types, std::string_view concrete)
{
    OpShapes out;
    JsonDocument doc;
    if (!dims.empty() && !doc.Parse(dims.data(), dims.size()).HasParseError() && doc.IsArray()) {
        for (const JsonValue &v : doc.GetArray())
            out.dims.push_back(shapeOf(v));
    }
    out.types = stringsOf(types, doc);
    out.concrete = stringsOf(concrete, doc);
    return out;
}

OpShapes shapesOf(const TraceModel &model, SliceId op)
{
    const CpuInfo *info = model.cpu(op);
    return parseOpShapes(model.str(model.slices.inputDims[op]),
        info ? model.str(info->inputTypes) : "", info ? model.str(info->concreteInputs) : "");
}

std::optional<std::vector<int64_t>> parseConcreteList(std::string_view text)
{
    if (text.size() < 2 || text.front() != '[' || text.back() != ']')
        return std::nullopt;
    std::vector<int64_t> out;
    size_t i = 1;
    while (i < text.size() - 1) {
        while (text[i] == ' ' || text[i] == ',')
            ++i;
        const size_t end = std::min(text.find(',', i), text.size() - 1);
        const std::string_view item = text.substr(i, end - i);
        if (item == "True" || item == "False") {
            out.push_back(item == "True" ? 1 : 0);
        } else if (!item.empty()) {
            int64_t v = 0;
            const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
            if (ec != std::errc() || ptr != item.data() + item.size())
                return std::nullopt;
            out.push_back(v);
        }
        i = end + 1;
    }
    return out;
}

std::optional<int> bytesPerElement(std::string_view dtype)
{
    static constexpr std::array<std::pair<std::string_view, int>, 16> kSizes = {{
        {"double", 8},
        {"long int", 8},
        {"float", 4},
        {"scalar", 4},
        {"int", 4},
        {"c10::half", 2},
        {"c10::bfloat16", 2},
        {"c10::float8_e4m3fnuz", 1},
        {"c10::float8_e4m3fn", 1},
        {"c10::float8_e5m2", 1},
        {"c10::float8_e8m0fnu", 1},
        {"unsigned char", 1},
        {"signed char", 1},
        {"fp8", 1},
        {"c10::float4_e2m1fn_x2", 1}, // two fp4 values a byte, as the shapes count them
        {"fp4", 1},
    }};
    std::string lower(dtype);
    std::transform(lower.begin(), lower.end(), lower.begin(),
        [](unsigned char c) { return char(std::tolower(c)); });
    const auto it = std::find_if(kSizes.begin(), kSizes.end(),
        [&](const std::pair<std::string_view, int> &entry) { return entry.first == lower; });
    return it == kSizes.end() ? std::nullopt : std::optional<int>(it->second);
}

} // namespace ks
