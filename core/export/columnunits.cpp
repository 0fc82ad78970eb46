// SPDX-License-Identifier: MIT
#include "export/columnunits.h"

namespace ks {

std::string_view columnUnit(std::string_view name, Cell cell)
{
    auto ends = [name](std::string_view suffix) { return name.ends_with(suffix); };
    if (cell == Cell::Timestamp || name == "ts" || ends("_ts"))
        return "µs, file clock";
    if (cell == Cell::Bytes || ends("bytes"))
        return "bytes";
    if (ends("_ns"))
        return "ns";
    if (ends("_us") || name == "dur" || name.starts_with("fwd_dur") || name.starts_with("bwd_dur")
        || name.find("_us_") != std::string_view::npos)
        return "µs";
    if (name.find("tflops") != std::string_view::npos)
        return "TFLOP/s";
    if (ends("tb_per_s"))
        return "TB/s";
    if (name.find("pct") != std::string_view::npos || name == "percent" || name == "share")
        return "%";
    if (name == "flops")
        return "FLOP";
    if (name == "intensity")
        return "FLOP/byte";
    return "";
}

std::string nameWithUnit(std::string_view name, Cell cell)
{
    const std::string_view unit = columnUnit(name, cell);
    const std::string_view suffix = unit.starts_with("µs") ? "_us"
        : unit == "bytes"                                  ? "_bytes"
                                                           : "";
    // A name that says its unit already, at its end or inside ("fwd_us_per_call"), stays.
    if (suffix.empty() || name.ends_with(suffix.substr(1))
        || name.find(std::string(suffix) + "_") != std::string_view::npos)
        return std::string(name);
    return std::string(name) + std::string(suffix);
}

} // namespace ks
