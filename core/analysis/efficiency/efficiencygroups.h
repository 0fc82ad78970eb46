// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opefficiency.h"

namespace ks {

/*!
 * The outermost modelled op instances of a trace gathered by op, input dims and side: one point
 * of the roofline chart each. Their rate is total FLOPs over total kernel time.
 */
struct EfficiencyGroup {
    StringId name = 0;
    StringId inputDims = 0;
    OpSide side = OpSide::Other;
    uint32_t count = 0;
    size_t firstInstance = 0; //!< index into OpEfficiency::instances()
    double flops = 0;
    double bytes = 0; //!< groups are only made of instances with bytes and GPU time
    TimeNs kernelTime = 0;
    std::optional<double> rooflineUs; //!< none when the device has no peak for its spec
    bool computeBound = false;

    double tflopsPerS() const { return flops / 1e12 / (double(kernelTime) / 1e9); }
    double intensity() const { return flops / bytes; }
    std::optional<double> pctRoofline() const;
};
std::vector<EfficiencyGroup> efficiencyGroups(
    const OpEfficiency &efficiency, const TraceModel &model);

//! A ceiling of the roofline chart: a compute spec's peak on the trace's main device.
struct RooflineCeiling {
    std::string spec; //!< "matrix_bf16"
    double tflops = 0;
};
struct RooflineCeilings {
    const DevicePeaks *device = nullptr; //!< null: the device is unknown (no ceilings)
    std::string deviceName; //!< as the trace names it
    double memGBps = 0;
    std::vector<RooflineCeiling> compute; //!< the specs the groups use, highest first
};
//! The ceilings of the device most of \a groups ran on, for the specs they use.
RooflineCeilings rooflineCeilings(
    const OpEfficiency &efficiency, const std::vector<EfficiencyGroup> &groups);

/*!
 * "Where speed-up is available": pair rows by the kernel time they spend above their roofline
 * (kernel time − roofline time, both sides where the side has a roofline), largest first.
 */
struct SpeedupCandidate {
    uint32_t row = 0;
    TimeNs kernelTime = 0; //!< of the sides that have a roofline
    double rooflineUs = 0;
    double availableUs = 0; //!< kernel time − roofline time
};
std::vector<SpeedupCandidate> speedupCandidates(const OpEfficiency &efficiency, size_t top);

} // namespace ks
