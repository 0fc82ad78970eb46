// SPDX-License-Identifier: MIT
#include "export/difftable.h"

#include "base/jsonwrite.h"
#include "base/unitstext.h"
#include "export/efficiencytable.h"
#include "export/pairtable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <optional>

namespace ks {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The 31 metric columns shared by both tables: base, candidate, delta (and rel for times); the
// FLOPs metrics show as rates (FLOPs over the side's GPU time): base, candidate and rel.
enum class MetricKind : uint8_t { Base, Candidate, Delta, Rel };
struct MetricCell {
    DiffMetric metric;
    MetricKind kind;
};
constexpr size_t kMetricColumns = 31;
constexpr size_t kMetricOffset[kDiffMetricCount] = {0, 4, 8, 12, 16, 19, 22, 25, 28};
constexpr std::string_view kMetricNames[kMetricColumns]
    = {"base_fwd_gpu_us", "cand_fwd_gpu_us", "delta_fwd_gpu_us", "rel_fwd_gpu", "base_bwd_gpu_us",
        "cand_bwd_gpu_us", "delta_bwd_gpu_us", "rel_bwd_gpu", "base_fwd_cpu_us", "cand_fwd_cpu_us",
        "delta_fwd_cpu_us", "rel_fwd_cpu", "base_bwd_cpu_us", "cand_bwd_cpu_us", "delta_bwd_cpu_us",
        "rel_bwd_cpu", "base_fwd_kernels", "cand_fwd_kernels", "delta_fwd_kernels",
        "base_bwd_kernels", "cand_bwd_kernels", "delta_bwd_kernels", "base_held_bytes",
        "cand_held_bytes", "delta_held_bytes", "base_fwd_tflops", "cand_fwd_tflops",
        "rel_fwd_tflops", "base_bwd_tflops", "cand_bwd_tflops", "rel_bwd_tflops"};

//! What a person reads in the window's header; the tooltip keeps the export name.
constexpr std::string_view kMetricTitles[kMetricColumns]
    = {"Base fwd GPU (µs)", "Candidate fwd GPU (µs)", "Δ fwd GPU (µs)", "Δ fwd GPU (rel.)",
        "Base bwd GPU (µs)", "Candidate bwd GPU (µs)", "Δ bwd GPU (µs)", "Δ bwd GPU (rel.)",
        "Base fwd CPU (µs)", "Candidate fwd CPU (µs)", "Δ fwd CPU (µs)", "Δ fwd CPU (rel.)",
        "Base bwd CPU (µs)", "Candidate bwd CPU (µs)", "Δ bwd CPU (µs)", "Δ bwd CPU (rel.)",
        "Base fwd kernels", "Candidate fwd kernels", "Δ fwd kernels", "Base bwd kernels",
        "Candidate bwd kernels", "Δ bwd kernels", "Base held for bwd", "Candidate held for bwd",
        "Δ held for bwd", "Base fwd TFLOP/s", "Candidate fwd TFLOP/s", "Δ fwd TFLOP/s (rel.)",
        "Base bwd TFLOP/s", "Candidate bwd TFLOP/s", "Δ bwd TFLOP/s (rel.)"};

bool isRate(DiffMetric m)
{
    return m == DiffMetric::FwdFlops || m == DiffMetric::BwdFlops;
}

MetricCell metricCell(size_t offset)
{
    size_t m = kDiffMetricCount - 1;
    while (kMetricOffset[m] > offset)
        --m;
    const auto kind = MetricKind(offset - kMetricOffset[m]);
    // A rate's third column is its relative change: a difference of rates says little.
    return {
        DiffMetric(m), isRate(DiffMetric(m)) && kind == MetricKind::Delta ? MetricKind::Rel : kind};
}

/*!
 * A side's value of \a metric from its figures: as they are, but for the FLOPs metrics their
 * rate over the side's GPU time of the same side, in TFLOP/s (nullopt without FLOPs or time).
 */
std::optional<double> sideValue(DiffMetric metric, const DiffValues &v)
{
    if (!isRate(metric))
        return v[size_t(metric)];
    const double flops = v[size_t(metric)];
    const double ns
        = v[size_t(metric == DiffMetric::FwdFlops ? DiffMetric::FwdGpu : DiffMetric::BwdGpu)];
    if (flops <= 0 || ns <= 0)
        return std::nullopt;
    return flops / ns / 1e3;
}

//! Bytes show for a person in the window (the export keeps the integer); the rest are numbers.
Cell metricKind(size_t offset)
{
    return metricCell(offset).metric == DiffMetric::HeldBytes ? Cell::Bytes : Cell::Number;
}

bool isTime(DiffMetric m)
{
    return m != DiffMetric::FwdKernels && m != DiffMetric::BwdKernels && m != DiffMetric::HeldBytes
        && !isRate(m);
}

bool isForwardMetric(DiffMetric m)
{
    return m == DiffMetric::FwdGpu || m == DiffMetric::FwdCpu || m == DiffMetric::FwdKernels
        || m == DiffMetric::HeldBytes || m == DiffMetric::FwdFlops;
}

//! The cell's value from the two sides' values (nullopt: side absent).
std::optional<double> metricValue(
    MetricKind kind, std::optional<double> base, std::optional<double> candidate)
{
    switch (kind) {
    case MetricKind::Base:
        return base;
    case MetricKind::Candidate:
        return candidate;
    case MetricKind::Delta:
        if (!base && !candidate)
            return std::nullopt;
        return candidate.value_or(0) - base.value_or(0);
    case MetricKind::Rel:
        if (!base || *base == 0)
            return std::nullopt;
        return (candidate.value_or(0) - *base) / *base;
    }
    return std::nullopt;
}

//! Whole numbers as integers, fractions (means) with three decimals.
std::string countText(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 9e15)
        return std::to_string(int64_t(v));
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string metricText(MetricCell cell, double v)
{
    if (cell.kind == MetricKind::Rel) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.4f", std::fabs(v) < 5e-5 ? 0.0 : v);
        return buf;
    }
    if (isRate(cell.metric))
        return shortestText(v);
    if (!isTime(cell.metric))
        return countText(v);
    // ns, fractional only for means: rounded to the ns, printed as µs.
    return microsText(TimeNs(std::llround(v)));
}

double changeMagnitude(
    const DiffValues &base, const DiffValues &candidate, DiffMetric a, DiffMetric b)
{
    return std::fabs(candidate[size_t(a)] - base[size_t(a)])
        + std::fabs(candidate[size_t(b)] - base[size_t(b)]);
}

//! Row order by largest GPU change, then CPU change, then \a structural order.
template<typename Values>
std::vector<uint32_t> orderRows(size_t count, DiffOrder order, Values &&values)
{
    std::vector<uint32_t> rows(count);
    std::iota(rows.begin(), rows.end(), 0);
    if (order == DiffOrder::Structural)
        return rows;
    std::vector<std::pair<double, double>> key(count);
    for (size_t i = 0; i < count; ++i) {
        const auto [base, candidate] = values(i);
        key[i] = {changeMagnitude(base, candidate, DiffMetric::FwdGpu, DiffMetric::BwdGpu),
            changeMagnitude(base, candidate, DiffMetric::FwdCpu, DiffMetric::BwdCpu)};
    }
    std::stable_sort(
        rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) { return key[a] > key[b]; });
    return rows;
}

std::string_view dimsOf(const OpGraph &g, int64_t row)
{
    if (row < 0)
        return {};
    const SliceId f = g.rows()[size_t(row)].forward;
    return f == kNoSlice ? std::string_view() : g.model().str(g.model().slices.inputDims[f]);
}

} // namespace

// DiffTable

DiffTable::DiffTable(const TraceDiff &diff, DiffOrder order)
    : m_diff(diff)
{
    const auto &entries = diff.entries();
    m_order = orderRows(entries.size(), order, [&](size_t i) {
        return std::pair<const DiffValues &, const DiffValues &>(
            entries[i].base.values, entries[i].candidate.values);
    });
}

size_t DiffTable::metricColumn(DiffMetric metric)
{
    return FirstMetric + kMetricOffset[size_t(metric)];
}

std::span<const ColumnSpec> DiffTable::columns() const
{
    static const std::vector<ColumnSpec> columns = [] {
        std::vector<ColumnSpec> out = {{"status", Cell::Text, "Status"},
            {"changes", Cell::TextOrEmpty, "Changes"}, {"fwd_name", Cell::Text, "Forward op"},
            {"bwd_names_base", Cell::Text, "Base backward nodes"},
            {"bwd_names_candidate", Cell::Text, "Candidate backward nodes"},
            {"input_dims_base", Cell::Json, "Base input dims"},
            {"input_dims_candidate", Cell::Json, "Candidate input dims"},
            {"module_base", Cell::Text, "Base module"},
            {"module_candidate", Cell::Text, "Candidate module"},
            {"step_base", Cell::Integer, "Base step"},
            {"step_candidate", Cell::Integer, "Candidate step"},
            {"n_base", Cell::Integer, "Base n"}, {"n_candidate", Cell::Integer, "Candidate n"},
            {"fwd_ts_base", Cell::Number, "Base fwd ts (µs)"},
            {"fwd_ts_candidate", Cell::Number, "Candidate fwd ts (µs)"}};
        for (size_t i = 0; i < kMetricColumns; ++i)
            out.push_back({kMetricNames[i], metricKind(i), kMetricTitles[i]});
        return out;
    }();
    return columns;
}

bool DiffTable::textView(size_t row, size_t column, std::string_view &out) const
{
    const DiffEntry &e = entry(row);
    auto pick = [&](bool candidateSide) -> const DiffSide & {
        return candidateSide ? e.candidate : e.base;
    };
    switch (column) {
    case Status:
        out = diffStatusName(e.status);
        return true;
    case FwdName: {
        const bool fromCandidate = !e.base.present();
        const DiffSide &s = pick(fromCandidate);
        const OpGraph &g = fromCandidate ? m_diff.candidate() : m_diff.base();
        const SliceId f = g.rows()[size_t(s.row)].forward;
        out = f == kNoSlice ? std::string_view() : g.model().sliceName(f);
        return true;
    }
    case BwdNamesBase:
    case BwdNamesCandidate: {
        const bool c = column == BwdNamesCandidate;
        out = pick(c).present() ? std::string_view(m_diff.bwdNames(c, size_t(pick(c).row)))
                                : std::string_view();
        return true;
    }
    case InputDimsBase:
        out = dimsOf(m_diff.base(), e.base.row);
        return true;
    case InputDimsCandidate:
        out = dimsOf(m_diff.candidate(), e.candidate.row);
        return true;
    case ModuleBase:
    case ModuleCandidate: {
        const bool c = column == ModuleCandidate;
        out = pick(c).present() ? std::string_view(m_diff.modulePath(c, size_t(pick(c).row)))
                                : std::string_view();
        return true;
    }
    default:
        return false;
    }
}

std::string DiffTable::text(size_t row, size_t column) const
{
    std::string_view view;
    if (textView(row, column, view))
        return std::string(view);
    const DiffEntry &e = entry(row);
    if (column == Changes)
        return diffChangesText(e.changes);
    if (column >= FirstMetric) {
        const double v = number(row, column);
        return std::isnan(v) ? std::string() : metricText(metricCell(column - FirstMetric), v);
    }
    const bool c = column == StepCandidate || column == NCandidate || column == FwdTsCandidate;
    const DiffSide &s = c ? e.candidate : e.base;
    if (!s.present())
        return {};
    switch (column) {
    case StepBase:
    case StepCandidate:
        return s.step == kNoValue ? std::string() : std::to_string(s.step);
    case NBase:
    case NCandidate:
        return std::to_string(s.occurrences);
    case FwdTsBase:
    case FwdTsCandidate: {
        const OpGraph &g = c ? m_diff.candidate() : m_diff.base();
        const SliceId f = g.rows()[size_t(s.row)].forward;
        return f == kNoSlice ? std::string() : writtenTs(g.model(), f);
    }
    default:
        return {};
    }
}

double DiffTable::number(size_t row, size_t column) const
{
    const DiffEntry &e = entry(row);
    if (column >= FirstMetric) {
        const MetricCell cell = metricCell(column - FirstMetric);
        auto value = [&](bool c) -> std::optional<double> {
            const DiffSide &s = c ? e.candidate : e.base;
            if (!s.present())
                return std::nullopt;
            const OpGraph &g = c ? m_diff.candidate() : m_diff.base();
            if (isForwardMetric(cell.metric) && g.rows()[size_t(s.row)].forward == kNoSlice)
                return std::nullopt;
            return sideValue(cell.metric, s.values);
        };
        return metricValue(cell.kind, value(false), value(true)).value_or(kNaN);
    }
    const bool c = column == StepCandidate || column == NCandidate || column == FwdTsCandidate;
    const DiffSide &s = c ? e.candidate : e.base;
    if (!s.present())
        return kNaN;
    switch (column) {
    case StepBase:
    case StepCandidate:
        return s.step == kNoValue ? kNaN : double(s.step);
    case NBase:
    case NCandidate:
        return double(s.occurrences);
    case FwdTsBase:
    case FwdTsCandidate: {
        const OpGraph &g = c ? m_diff.candidate() : m_diff.base();
        const SliceId f = g.rows()[size_t(s.row)].forward;
        return f == kNoSlice ? kNaN : double(g.model().slices.start[f]);
    }
    default:
        return kNaN;
    }
}

// DiffGroupTable

namespace {
constexpr size_t kCountColumns = 7; // count_base, count_candidate, one per DiffStatus
constexpr std::string_view kCountNames[kCountColumns] = {"count_base", "count_candidate", "matched",
    "shape_changed", "changed", "only_base", "only_candidate"};
constexpr std::string_view kCountTitles[kCountColumns] = {"Base count", "Candidate count",
    "Matched", "Shape changed", "Changed", "Only in base", "Only in candidate"};
} // namespace

DiffGroupTable::DiffGroupTable(const TraceDiff &diff, DiffGrouping grouping, DiffOrder order)
    : m_diff(diff)
    , m_grouping(grouping)
    , m_keyColumns(grouping == DiffGrouping::Op ? 3 : 1)
{
    if (grouping == DiffGrouping::Op)
        m_columns = {{"fwd_name", Cell::TextOrEmpty, "Forward op"},
            {"input_dims", Cell::Json, "Input dims"},
            {"bwd_names", Cell::TextOrEmpty, "Backward nodes"}};
    else if (grouping == DiffGrouping::Module)
        m_columns = {{"module", Cell::TextOrEmpty, "Module"}};
    else
        m_columns = {{"module_type", Cell::TextOrEmpty, "Module type"}};
    for (size_t i = 0; i < kCountColumns; ++i)
        m_columns.push_back({kCountNames[i], Cell::Number, kCountTitles[i]});
    for (size_t i = 0; i < kMetricColumns; ++i)
        m_columns.push_back({kMetricNames[i], metricKind(i), kMetricTitles[i]});
    const auto &all = groups();
    m_order = orderRows(all.size(), order, [&](size_t i) {
        return std::pair<const DiffValues &, const DiffValues &>(all[i].base, all[i].candidate);
    });
}

size_t DiffGroupTable::metricColumn(DiffMetric metric) const
{
    return m_keyColumns + kCountColumns + kMetricOffset[size_t(metric)];
}

bool DiffGroupTable::textView(size_t row, size_t column, std::string_view &out) const
{
    if (column >= m_keyColumns)
        return false;
    const DiffGroup &g = group(row);
    out = column == 0 ? std::string_view(g.name)
        : column == 1 ? std::string_view(g.inputDims)
                      : std::string_view(g.bwdNames);
    return true;
}

std::string DiffGroupTable::text(size_t row, size_t column) const
{
    std::string_view view;
    if (textView(row, column, view))
        return std::string(view);
    const double v = number(row, column);
    if (std::isnan(v))
        return {};
    const size_t c = column - m_keyColumns;
    return c < kCountColumns ? std::to_string(int64_t(v))
                             : metricText(metricCell(c - kCountColumns), v);
}

double DiffGroupTable::number(size_t row, size_t column) const
{
    if (column < m_keyColumns)
        return kNaN;
    const DiffGroup &g = group(row);
    const size_t c = column - m_keyColumns;
    if (c == 0)
        return g.baseCount;
    if (c == 1)
        return g.candidateCount;
    if (c < kCountColumns)
        return g.statusCount[c - 2];
    const MetricCell cell = metricCell(c - kCountColumns);
    // A side without items (or, for forward figures, without forward ops) has no value.
    const bool unpaired = m_grouping == DiffGrouping::Op && g.name.empty();
    auto value = [&](uint32_t count, const DiffValues &values) -> std::optional<double> {
        if (count == 0 || (unpaired && isForwardMetric(cell.metric)))
            return std::nullopt;
        return sideValue(cell.metric, values);
    };
    return metricValue(cell.kind, value(g.baseCount, g.base), value(g.candidateCount, g.candidate))
        .value_or(kNaN);
}

namespace {
//! " · peak allocated A → B · held for backward C → D", the parts both sides can tell.
std::string memoryHeadline(const TraceDiff &diff)
{
    std::string out;
    const AllocatorPeaks b = allocatorPeaks(diff.base().model().memory);
    const AllocatorPeaks c = allocatorPeaks(diff.candidate().model().memory);
    if (b.allocated != kNoValue && c.allocated != kNoValue)
        out += " · peak allocated " + bytesText(double(b.allocated)) + " → "
            + bytesText(double(c.allocated));
    const double heldBase = diff.baseTotals()[size_t(DiffMetric::HeldBytes)];
    const double heldCand = diff.candidateTotals()[size_t(DiffMetric::HeldBytes)];
    if (!std::isnan(heldBase) && !std::isnan(heldCand))
        out += " · held for backward " + bytesText(heldBase) + " → " + bytesText(heldCand);
    return out;
}
} // namespace

std::string comparisonHeadline(const TraceDiff &diff)
{
    const DiffValues &b = diff.baseTotals(), &c = diff.candidateTotals();
    const double gpuBase = b[size_t(DiffMetric::FwdGpu)] + b[size_t(DiffMetric::BwdGpu)];
    const double gpuCand = c[size_t(DiffMetric::FwdGpu)] + c[size_t(DiffMetric::BwdGpu)];
    return std::to_string(diff.count(DiffStatus::Matched)) + " matched · "
        + std::to_string(diff.count(DiffStatus::ShapeChanged) + diff.count(DiffStatus::Changed))
        + " changed shape · " + std::to_string(diff.count(DiffStatus::OnlyBase))
        + " only in base · " + std::to_string(diff.count(DiffStatus::OnlyCandidate))
        + " only in candidate · GPU " + durationText(gpuBase) + " → " + durationText(gpuCand)
        + memoryHeadline(diff);
}

} // namespace ks
