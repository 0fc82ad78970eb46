// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/devicepeaks.h"
#include "analysis/efficiency/oprates.h"

#include <memory>
#include <vector>

namespace ks {

//! Where an op instance ran, in pair terms.
enum class OpSide : uint8_t { Forward, Backward, Recompute, Other };
std::string_view sideName(OpSide side);

//! The roofline of one piece of work on one device (TraceLens tree_perf.py l. 475–505).
struct Roofline {
    double us = 0; //!< max(FLOPs / peak FLOP/s, bytes / bandwidth)
    std::optional<double> pct; //!< roofline time / kernel time · 100; none without GPU time
    bool computeBound = false;
};
//! nullopt when \a peaks is null or lacks the op's compute spec, or bytes are unknown.
std::optional<Roofline> rooflineOf(const OpWork &work, TimeNs kernelTime, const DevicePeaks *peaks);

//! One instance of a modelled op, wherever it runs.
struct OpInstance {
    SliceId op = kNoSlice; //!< the op (for a backward from forward shapes: the forward op)
    OpSide side = OpSide::Other;
    bool fromForwardShapes = false; //!< an attention backward worked out from its forward op
    bool outermost = true; //!< no modelled op around it: what the pair roll-ups add up
    int row = -1; //!< its pair row, -1 if none
    int device = -1; //!< index into OpEfficiency::devices(), -1 when unknown
    OpWork work;
    TimeNs kernelTime = 0; //!< union of its GPU events (TraceLens's busy kernel time)
    OpRates rates;
    std::optional<Roofline> roofline;
};

//! A pair row's roll-up, per side: the outermost modelled ops' work against the side's time.
struct SideEfficiency {
    double flops = 0;
    std::optional<double> bytes;
    TimeNs kernelTime = 0; //!< all the side's GPU work, modelled or not
    std::optional<double> rooflineUs; //!< summed over its ops; none when one has none
    bool modelled = false; //!< it holds at least one modelled op
    std::optional<double> tflopsPerS() const;
    std::optional<double> pctRoofline() const;
    //! "compute" or "memory": which bound holds the larger part of its roofline time.
    std::string_view bound() const { return computeUs >= memoryUs ? "compute" : "memory"; }
    double computeUs = 0, memoryUs = 0;
};
struct PairEfficiency {
    SideEfficiency forward, backward;
};

/*!
 * FLOPs, bytes, kernel time, achieved rates and roofline of every modelled op instance of a
 * trace, and their roll-up per pair row (issue #34; docs/efficiency.md). Built once, read-only.
 */
class OpEfficiency {
public:
    OpEfficiency(const OpGraph &graph, std::shared_ptr<const PeakTable> peaks);

    const std::vector<OpInstance> &instances() const { return m_instances; }
    //! The instances keyed by op \a op (its own, and the backward worked out from it).
    std::vector<const OpInstance *> instancesOf(SliceId op) const;
    //! By pair row, as OpGraph::rows().
    const std::vector<PairEfficiency> &pairs() const { return m_pairs; }
    //! The trace's devices and the peaks found for each (null: unknown to the table).
    struct Device {
        TraceDevice trace;
        const DevicePeaks *peaks = nullptr;
    };
    const std::vector<Device> &devices() const { return m_devices; }
    const PeakTable &peakTable() const { return *m_peaks; }

private:
    void collectInstances(const OpGraph &graph);
    void addAttentionBackwards(const OpGraph &graph);
    void rollUp(const OpGraph &graph);
    int deviceOf(const OpGraph &graph, SliceId op) const;

    std::shared_ptr<const PeakTable> m_peaks;
    std::vector<Device> m_devices;
    std::vector<OpInstance> m_instances;
    std::vector<std::pair<SliceId, size_t>> m_byOp; //!< (op, instance index), sorted
    std::vector<PairEfficiency> m_pairs;
};

} // namespace ks
