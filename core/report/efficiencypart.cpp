// SPDX-License-Identifier: MIT
#include "report/efficiencypart.h"

#include "analysis/efficiency/efficiencygroups.h"
#include "report/reportcells.h"
#include "session/loadedtrace.h"

#include <cmath>

namespace ks {

namespace {

constexpr size_t kCandidates = 10;

//! Four significant digits: the pair table's number, rounded for a person.
std::string rounded(const std::string &cell)
{
    if (cell.empty())
        return cell;
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", std::stod(cell));
    return text;
}

std::string devicesText(const OpEfficiency &e)
{
    std::string known, unknown;
    for (const OpEfficiency::Device &d : e.devices()) {
        std::string &list = d.peaks ? known : unknown;
        if (list.find(d.trace.name) != std::string::npos)
            continue;
        list += (list.empty() ? "" : "; ") + d.trace.name;
        if (d.peaks)
            list += " (" + d.peaks->source + ")";
    }
    std::string text = known.empty() ? std::string() : "Peaks: " + known + ". ";
    if (!unknown.empty())
        text += "Not in the peak table: " + unknown
            + " — add it with --peaks FILE.json or File ▸ GPU Peaks File… (docs/efficiency.md). ";
    return text;
}

} // namespace

void addEfficiency(const LoadedTrace &trace, const PairTable &pairs, ReportContent &out)
{
    const OpEfficiency &e = trace.efficiency();
    if (e.instances().empty())
        return;
    const std::vector<SpeedupCandidate> top = speedupCandidates(e, kCandidates);
    ReportPart part;
    part.id = "speed-up";
    part.title = "Where speed-up is available";
    part.text = "The pairs whose GPU time lies furthest above their roofline — the time the "
                "hardware's peaks say their modelled ops (matmuls, convolutions, attention, "
                "elementwise, norms…) need at least — largest first. "
        + devicesText(e);
    if (top.empty()) {
        part.text += "No pair has a roofline to compare with.";
        out.parts.push_back(std::move(part));
        return;
    }
    std::vector<size_t> rows;
    rows.reserve(top.size());
    for (const SpeedupCandidate &c : top)
        rows.push_back(c.row);
    const std::vector<size_t> columns = {PairTable::FwdName, PairTable::Module, PairTable::FwdTs,
        PairTable::FwdTflops, PairTable::BwdTflops, PairTable::FwdPctRoofline,
        PairTable::BwdPctRoofline, PairTable::Bound};
    CellTable selected = select(pairs, rows, columns, trace.model->minTime);
    ReportTable t;
    t.caption = "kernel µs: GPU time of the pair's sides that have a roofline; roofline µs: what "
                "their modelled ops need at the device's peaks; above: the difference. TFLOP/s "
                "and % of roofline as --export-pairs writes them, to four digits.";
    for (const ColumnSpec &c : selected.columns())
        t.table.addColumn(c.name, c.cell, c.title);
    t.table.addColumn("kernel_us", Cell::Number, "kernel µs");
    t.table.addColumn("roofline_us", Cell::Number, "roofline µs");
    t.table.addColumn("above_us", Cell::Number, "above roofline µs");
    for (size_t i = 0; i < top.size(); ++i) {
        t.table.addRow();
        for (size_t c = 0; c < columns.size(); ++c) {
            const bool rate = columns[c] >= PairTable::FwdTflops && columns[c] != PairTable::Bound;
            t.table.add(rate ? rounded(selected.text(i, c)) : selected.text(i, c));
        }
        char text[32];
        std::snprintf(text, sizeof text, "%.3f", double(top[i].kernelTime) / 1e3);
        t.table.add(text);
        std::snprintf(text, sizeof text, "%.3f", top[i].rooflineUs);
        t.table.add(text);
        std::snprintf(text, sizeof text, "%.3f", top[i].availableUs);
        t.table.add(text);
    }
    part.tables.push_back(std::move(t));
    out.parts.push_back(std::move(part));
}

} // namespace ks
