// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opefficiency.h"
#include "export/table.h"

namespace ks {

/*!
 * `--export-efficiency` (docs/cli.md): one row per instance of a modelled op, wherever it runs,
 * plus one `side=backward` row keyed by each attention op whose backward nodes hold no modelled
 * op (OpEfficiency). Rates and roofline empty where there is no GPU time or no known peak.
 */
class EfficiencyTable : public Table {
public:
    enum Column {
        Name,
        Ts,
        InputDims,
        Side,
        PairFwdName,
        PairFwdTs,
        Flops,
        Bytes,
        KernelUs,
        TflopsPerS,
        TbPerS,
        Intensity,
        RooflineUs,
        PctRoofline,
        Bound,
        Device,
        Dtype,
        Model,
        ColumnCount
    };
    EfficiencyTable(const OpGraph &graph, const OpEfficiency &efficiency);

    size_t rowCount() const override { return m_efficiency.instances().size(); }
    std::span<const ColumnSpec> columns() const override;
    std::string text(size_t row, size_t column) const override;
    double number(size_t row, size_t column) const override;

private:
    SliceId pairForward(const OpInstance &in) const;

    const OpGraph &m_graph;
    const OpEfficiency &m_efficiency;
};

//! A number as the shortest text that reads back to it ("0.003030528", "1.5e-07").
std::string shortestText(double v);

} // namespace ks
