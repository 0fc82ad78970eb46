// SPDX-License-Identifier: MIT
#include "analysis/opshapes.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace ks {

namespace {

//! An array of integers, else nullopt (a scalar, a nested list, a float).
std::optional<std::vector<int64_t>> shapeOf(const rapidjson::Value &v)
{
    if (!v.IsArray())
        return std::nullopt;
    std::vector<int64_t> shape;
    for (const rapidjson::Value &d : v.GetArray()) {
        if (!d.IsInt64())
            return std::nullopt;
        shape.push_back(d.GetInt64());
    }
    return shape;
}

} // namespace

OpShapes parseOpShapes(std::string_view dims, std::string_view types)
{
    OpShapes out;
    rapidjson::Document doc;
    if (!dims.empty() && !doc.Parse(dims.data(), dims.size()).HasParseError() && doc.IsArray()) {
        for (const rapidjson::Value &v : doc.GetArray())
            out.dims.push_back(shapeOf(v));
    }
    if (!types.empty() && !doc.Parse(types.data(), types.size()).HasParseError() && doc.IsArray()) {
        for (const rapidjson::Value &v : doc.GetArray())
            out.types.emplace_back(v.IsString() ? v.GetString() : "");
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
