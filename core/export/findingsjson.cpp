// SPDX-License-Identifier: MIT
#include "export/findingsjson.h"

#include "base/jsonwrite.h"
#include "base/numbertext.h"
#include "base/unitstext.h"

namespace ks {

namespace {

void appendEvidence(std::string &out, const CriticalPathAnalysis &path, const FindingEvidence &e)
{
    const TraceModel &m = path.ranks()[e.rank].graph->model();
    out += "{\"name\": ";
    appendJsonString(out, m.sliceName(e.event));
    out += ", \"rank\": " + std::to_string(path.ranks()[e.rank].rank);
    out += ", \"ts_us\": ";
    appendMicros(out, m.slices.start[e.event], 3);
    out += ", \"dur_us\": ";
    appendMicros(out, m.slices.dur[e.event], 3);
    out += '}';
}

void appendField(std::string &out, std::string_view name, std::string_view text)
{
    out += ", ";
    appendJsonString(out, name);
    out += ": ";
    appendJsonString(out, text);
}

} // namespace

void appendFindingsJson(
    std::string &out, const CriticalPathAnalysis &path, const std::vector<StepFinding> &findings)
{
    const TimeNs length = path.path().length;
    out += '[';
    for (size_t i = 0; i < findings.size(); ++i) {
        const StepFinding &f = findings[i];
        out += i ? ",\n    {\"rule\": " : "\n    {\"rule\": ";
        appendJsonString(out, f.rule);
        appendField(out, "title", f.title);
        out += ", \"saving_us\": ";
        if (f.saving)
            appendMicros(out, *f.saving, 3);
        else
            out += "null";
        out += ", \"saving_pct\": ";
        out += f.saving && length > 0 ? percentText(double(*f.saving), double(length), 2)
                                      : std::string("null");
        appendField(out, "how", f.how);
        out += ", \"evidence\": [";
        for (size_t e = 0; e < f.evidence.size(); ++e) {
            out += e ? ", " : "";
            appendEvidence(out, path, f.evidence[e]);
        }
        out += ']';
        appendField(out, "fix", f.fix);
        appendField(out, "doc", f.doc);
        out += '}';
    }
    out += findings.empty() ? "]" : "\n  ]";
}

std::string findingsDocument(
    const CriticalPathAnalysis &path, const std::vector<StepFinding> &findings)
{
    std::string out = "{\n  \"step\": ";
    out += path.path().step == kNoValue ? std::string("null") : std::to_string(path.path().step);
    out += ",\n  \"path_us\": ";
    appendMicros(out, path.path().length, 3);
    out += ",\n  \"findings\": ";
    appendFindingsJson(out, path, findings);
    out += "\n}\n";
    return out;
}

} // namespace ks
