// SPDX-License-Identifier: MIT
#include "export/checkreport.h"

#include "base/jsonwrite.h"
#include "base/numbertext.h"

namespace ks {

void CheckReport::add(const std::vector<Finding> &findings, const std::string &file, int rank)
{
    for (const Finding &f : findings) {
        const CheckInfo &c = info(f.check);
        m_warnings += f.severity == Severity::Warning;
        m_items += m_items.empty() ? "\n    {" : ",\n    {";
        auto key = [&](std::string_view name, bool first = false) {
            if (!first)
                m_items += ", ";
            appendJsonString(m_items, name);
            m_items += ": ";
        };
        auto text = [&](std::string_view name, std::string_view value) {
            key(name);
            appendJsonString(m_items, value);
        };
        key("check", true);
        appendJsonString(m_items, c.name);
        text("severity", f.severity == Severity::Warning ? "warning" : "info");
        key("count");
        m_items += std::to_string(f.count);
        if (!file.empty())
            text("file", file);
        if (rank >= 0) {
            key("rank");
            m_items += std::to_string(rank);
        }
        text("explanation", c.explanation);
        if (!c.source.empty())
            text("source", std::string(kValidatorFile) + ": " + std::string(c.source));
        text("first", f.example);
        if (f.firstStart != kNoValue) {
            key("first_ts_us");
            appendMicros(m_items, f.firstStart, 3);
        }
        m_items += "}";
    }
}

std::string CheckReport::json() const
{
    std::string out = "{\n  \"warnings\": " + std::to_string(m_warnings) + ",\n  \"findings\": [";
    out += m_items;
    out += m_items.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

} // namespace ks
