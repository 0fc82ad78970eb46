// SPDX-License-Identifier: MIT
#include "export/efficiencytable.h"

#include "export/pairtable.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace ks {

namespace {
constexpr ColumnSpec kEfficiencyColumns[] = {
    {"name", Cell::Text, "Op"},
    {"ts", Cell::Timestamp, "Start"},
    {"input_dims", Cell::Json, "Input dims"},
    {"side", Cell::Text, "Side"},
    {"pair_fwd_name", Cell::Text, "Pair (forward op)"},
    {"pair_fwd_ts", Cell::Timestamp, "Pair start"},
    {"flops", Cell::Number, "FLOPs"},
    {"bytes", Cell::Bytes, "Bytes moved"},
    {"kernel_us", Cell::Number, "Kernel time (µs)"},
    {"tflops_per_s", Cell::Number, "TFLOP/s"},
    {"tb_per_s", Cell::Number, "TB/s"},
    {"intensity", Cell::Number, "FLOP/byte"},
    {"roofline_us", Cell::Number, "Roofline (µs)"},
    {"pct_roofline", Cell::Number, "% of roofline"},
    {"bound", Cell::Text, "Bound"},
    {"device", Cell::Text, "Device"},
    {"dtype", Cell::Text, "Dtype"},
    {"model", Cell::Text, "Model"},
};
static_assert(std::size(kEfficiencyColumns) == EfficiencyTable::ColumnCount);
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::optional<double> valueOf(const OpInstance &in, size_t column)
{
    switch (EfficiencyTable::Column(column)) {
    case EfficiencyTable::Flops:
        return in.work.flops;
    case EfficiencyTable::Bytes:
        return in.work.bytes;
    case EfficiencyTable::KernelUs:
        return in.kernelTime > 0 ? std::optional<double>(double(in.kernelTime) / 1e3)
                                 : std::nullopt;
    case EfficiencyTable::TflopsPerS:
        return in.rates.tflopsPerS;
    case EfficiencyTable::TbPerS:
        return in.rates.tbPerS;
    case EfficiencyTable::Intensity:
        return in.rates.flopsPerByte;
    case EfficiencyTable::RooflineUs:
        return in.roofline ? std::optional<double>(in.roofline->us) : std::nullopt;
    case EfficiencyTable::PctRoofline:
        return in.roofline ? in.roofline->pct : std::nullopt;
    default:
        return std::nullopt;
    }
}
} // namespace

std::string shortestText(double v)
{
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, result.ptr);
}

EfficiencyTable::EfficiencyTable(const OpGraph &graph, const OpEfficiency &efficiency)
    : m_graph(graph)
    , m_efficiency(efficiency)
{
}

std::span<const ColumnSpec> EfficiencyTable::columns() const
{
    return kEfficiencyColumns;
}

SliceId EfficiencyTable::pairForward(const OpInstance &in) const
{
    return in.row < 0 ? kNoSlice : m_graph.rows()[size_t(in.row)].forward;
}

std::string EfficiencyTable::text(size_t row, size_t column) const
{
    const OpInstance &in = m_efficiency.instances()[row];
    const TraceModel &m = m_graph.model();
    switch (Column(column)) {
    case Name:
        return std::string(m.sliceName(in.op));
    case Ts:
        return writtenTs(m, in.op);
    case InputDims:
        return std::string(m.str(m.slices.inputDims[in.op]));
    case Side:
        return std::string(sideName(in.side));
    case PairFwdName:
        return pairForward(in) == kNoSlice ? std::string()
                                           : std::string(m.sliceName(pairForward(in)));
    case PairFwdTs:
        return pairForward(in) == kNoSlice ? std::string() : writtenTs(m, pairForward(in));
    case Bound:
        return !in.roofline ? std::string() : in.roofline->computeBound ? "compute" : "memory";
    case Device:
        return in.device < 0 ? std::string() : m_efficiency.devices()[size_t(in.device)].trace.name;
    case Dtype:
        return in.work.dtype;
    case Model:
        return std::string(in.work.model);
    default: {
        const std::optional<double> v = valueOf(in, column);
        return v && std::isfinite(*v) ? shortestText(*v) : std::string();
    }
    }
}

double EfficiencyTable::number(size_t row, size_t column) const
{
    const OpInstance &in = m_efficiency.instances()[row];
    if (column == Ts)
        return double(m_graph.model().slices.start[in.op]);
    if (column == PairFwdTs)
        return pairForward(in) == kNoSlice ? kNaN
                                           : double(m_graph.model().slices.start[pairForward(in)]);
    return valueOf(in, column).value_or(kNaN);
}

} // namespace ks
