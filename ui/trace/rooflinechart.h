// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/efficiencygroups.h"

#include <QString>

#include <vector>

class QChart;
class QScatterSeries;

namespace ks {

/*!
 * The roofline chart (issue #34), log–log: achieved TFLOP/s over arithmetic intensity, one point
 * per op group (op, input dims, side; its total FLOPs over its total kernel time), forward and
 * backward in their colours, under the ceilings of the trace's main device (bandwidth slope, and
 * one flat peak per compute spec the ops use). Numbers come from core (efficiencyGroups()).
 */
struct RooflinePlot {
    QChart *chart = nullptr; //!< owned by whoever shows it
    std::vector<EfficiencyGroup> groups;
    //! Per point series (forward, backward, other): the group behind each point.
    std::vector<std::pair<QScatterSeries *, std::vector<size_t>>> points;
    QString headline, message; //!< set when there is nothing to plot
};
RooflinePlot buildRooflinePlot(const OpEfficiency &efficiency, const TraceModel &model);

//! "aten::mm [[1024,1024],[1024,1024]] backward ×24 — 214.7 TFLOP/s, 2.0 FLOP/B, 21.7 % of
//! roofline (compute-bound)".
QString rooflineTooltip(const EfficiencyGroup &group, const TraceModel &model);

} // namespace ks
