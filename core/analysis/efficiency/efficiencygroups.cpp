// SPDX-License-Identifier: MIT
#include "analysis/efficiency/efficiencygroups.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ks {

std::optional<double> EfficiencyGroup::pctRoofline() const
{
    if (!rooflineUs)
        return std::nullopt;
    return *rooflineUs / (double(kernelTime) / 1e3) * 100;
}

std::vector<EfficiencyGroup> efficiencyGroups(
    const OpEfficiency &efficiency, const TraceModel &model)
{
    std::vector<EfficiencyGroup> groups;
    std::map<std::tuple<StringId, StringId, OpSide>, size_t> byKey;
    const std::vector<OpInstance> &instances = efficiency.instances();
    for (size_t i = 0; i < instances.size(); ++i) {
        const OpInstance &in = instances[i];
        if (!in.outermost || !in.work.bytes || *in.work.bytes <= 0 || in.kernelTime <= 0)
            continue;
        const StringId name = model.slices.name[in.op];
        // A backward worked out from forward shapes has the forward op's dims: keep it apart.
        const auto key = std::make_tuple(name, model.slices.inputDims[in.op], in.side);
        auto [it, added] = byKey.try_emplace(key, groups.size());
        if (added) {
            EfficiencyGroup g;
            g.name = name;
            g.inputDims = std::get<1>(key);
            g.side = in.side;
            g.firstInstance = i;
            g.rooflineUs = 0;
            groups.push_back(g);
        }
        EfficiencyGroup &g = groups[it->second];
        ++g.count;
        g.flops += in.work.flops;
        g.bytes += *in.work.bytes;
        g.kernelTime += in.kernelTime;
        const OpEfficiency::Device *device
            = in.device >= 0 ? &efficiency.devices()[size_t(in.device)] : nullptr;
        const std::optional<Roofline> r = rooflineOf(in.work, 0, device ? device->peaks : nullptr);
        g.rooflineUs
            = r && g.rooflineUs ? std::optional<double>(*g.rooflineUs + r->us) : std::nullopt;
        g.computeBound = r && r->computeBound;
    }
    return groups;
}

RooflineCeilings rooflineCeilings(
    const OpEfficiency &efficiency, const std::vector<EfficiencyGroup> &groups)
{
    RooflineCeilings out;
    std::map<int, TimeNs> timeOnDevice;
    std::map<std::string, TimeNs> timeOfSpec;
    for (const EfficiencyGroup &g : groups) {
        const OpInstance &in = efficiency.instances()[g.firstInstance];
        timeOnDevice[in.device] += g.kernelTime;
        timeOfSpec[computeSpecOf(in.work.unit, in.work.dtype)] += g.kernelTime;
    }
    if (timeOnDevice.empty() || efficiency.devices().empty())
        return out;
    const auto busiest = std::max_element(timeOnDevice.begin(), timeOnDevice.end(),
        [](const auto &a, const auto &b) { return a.second < b.second; });
    const int device = std::max(busiest->first, 0);
    out.deviceName = efficiency.devices()[size_t(device)].trace.name;
    out.device = efficiency.devices()[size_t(device)].peaks;
    if (!out.device)
        return out;
    out.memGBps = out.device->memGBps;
    for (const auto &[spec, time] : timeOfSpec) {
        const auto peak = out.device->tflops.find(spec);
        if (peak != out.device->tflops.end())
            out.compute.push_back({spec, peak->second});
    }
    std::sort(out.compute.begin(), out.compute.end(),
        [](const RooflineCeiling &a, const RooflineCeiling &b) { return a.tflops > b.tflops; });
    return out;
}

std::vector<SpeedupCandidate> speedupCandidates(const OpEfficiency &efficiency, size_t top)
{
    std::vector<SpeedupCandidate> out;
    const std::vector<PairEfficiency> &pairs = efficiency.pairs();
    for (uint32_t r = 0; r < pairs.size(); ++r) {
        SpeedupCandidate c;
        c.row = r;
        for (const SideEfficiency *side : {&pairs[r].forward, &pairs[r].backward}) {
            if (!side->rooflineUs || side->kernelTime <= 0)
                continue;
            c.kernelTime += side->kernelTime;
            c.rooflineUs += *side->rooflineUs;
        }
        c.availableUs = double(c.kernelTime) / 1e3 - c.rooflineUs;
        if (c.kernelTime > 0 && c.availableUs > 0)
            out.push_back(c);
    }
    std::sort(out.begin(), out.end(), [](const SpeedupCandidate &a, const SpeedupCandidate &b) {
        return a.availableUs != b.availableUs ? a.availableUs > b.availableUs : a.row < b.row;
    });
    if (out.size() > top)
        out.resize(top);
    return out;
}

} // namespace ks
