// SPDX-License-Identifier: MIT
#include "export/rangetext.h"

#include "base/unitstext.h"

namespace ks {

namespace {

std::string percentWithSign(TimeNs part, TimeNs whole)
{
    return percentText(double(part), double(whole), 1) + " %";
}

void addLine(std::string &out,
    const std::string &label,
    const std::string &value,
    const std::string &detail = {})
{
    out += "  " + label + '\t' + value;
    if (!detail.empty())
        out += '\t' + detail;
    out += '\n';
}

void addNamed(
    std::string &out, const char *title, const std::vector<RangeStats::NamedTime> &list, size_t top)
{
    out += title;
    out += " (time inside the range, count)\n";
    for (size_t i = 0; i < std::min(top, list.size()); ++i)
        addLine(out, std::string(list[i].name), durationText(double(list[i].time)),
            "×" + std::to_string(list[i].count));
    if (list.size() > top)
        out += "  … " + std::to_string(list.size() - top) + " more\n";
}

} // namespace

std::string laneName(const TraceModel &model, LaneId lane)
{
    const Lane &l = model.lanes[lane];
    if (!l.device)
        return model.laneLabel(lane);
    return "GPU " + std::string(model.str(l.pidText)) + " · " + model.laneLabel(lane);
}

std::string rangeStatsText(const TraceModel &model, const RangeStats &stats, size_t top)
{
    const TimeNs length = stats.end - stats.begin;
    std::string out = "Range " + durationText(double(stats.begin - model.minTime)) + " – "
        + durationText(double(stats.end - model.minTime)) + " (" + durationText(double(length))
        + ")\n";
    out += "Busy per lane\n";
    for (const RangeStats::LaneBusy &b : stats.lanes)
        addLine(out, laneName(model, b.lane), durationText(double(b.busy)),
            percentWithSign(b.busy, length));
    if (stats.gpu) {
        out += "GPU time\n";
        for (size_t c = 0; c < kStepCategories; ++c) {
            if (stats.gpuParts[c] > 0)
                addLine(out, std::string(workPartName(WorkPart(c))),
                    durationText(double(stats.gpuParts[c])),
                    percentWithSign(stats.gpuParts[c], length));
        }
        addLine(out, "idle", durationText(double(stats.gpuIdle())),
            percentWithSign(stats.gpuIdle(), length));
    }
    addNamed(out, "Top kernels", stats.kernels, top);
    addNamed(out, "Top ops", stats.ops, top);
    return out;
}

} // namespace ks
