// SPDX-License-Identifier: MIT
#include "export/runtables.h"

#include "analysis/modules/modulepaths.h"
#include "analysis/time/gputime.h"
#include "base/unitstext.h"
#include "export/efficiencytable.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace ks {

CellTable rankTable(const std::vector<RankSummary> &ranks)
{
    CellTable t;
    t.addColumn("rank", Cell::Integer, "Rank");
    t.addColumn("file", Cell::Text, "File");
    t.addColumn("world_size", Cell::Integer, "World size");
    t.addColumn("steps", Cell::Integer, "Steps");
    constexpr std::string_view titles[]
        = {"Computation (µs)", "Exposed comm (µs)", "Exposed memcpy (µs)", "Busy (µs)", "Idle (µs)",
            "Total (µs)", "Total comm (µs)", "Total memcpy (µs)"};
    const auto names = gpuTimeFields({});
    for (size_t i = 0; i < names.size(); ++i)
        t.addColumn(names[i].first, Cell::Number, titles[i]);
    t.addColumn("fwd_gpu_us", Cell::Number, "Forward GPU (µs)");
    t.addColumn("bwd_gpu_us", Cell::Number, "Backward GPU (µs)");
    t.addColumn("pairs", Cell::Integer, "Pairs");
    t.addColumn("peak_allocated_bytes", Cell::Bytes, "Peak allocated");
    t.addColumn("peak_reserved_bytes", Cell::Bytes, "Peak reserved");
    auto bytes = [](int64_t b) { return b == kNoValue ? std::string() : std::to_string(b); };
    for (const RankSummary &r : ranks) {
        t.addRow();
        t.add(std::to_string(r.rank));
        t.add(r.file);
        t.add(r.worldSize > 0 ? std::to_string(r.worldSize) : std::string());
        t.add(std::to_string(r.steps));
        const auto gpu = [&r](TimeNs ns) { return r.gpuUnknown ? std::string() : microsText(ns); };
        for (const TimeNs ns : r.gpuTime)
            t.add(gpu(ns));
        t.add(gpu(r.fwdGpu));
        t.add(gpu(r.bwdGpu));
        t.add(std::to_string(r.pairs));
        t.add(bytes(r.memory.allocated));
        t.add(bytes(r.memory.reserved));
    }
    return t;
}

CellTable collectiveTable(const std::vector<int> &rankNumbers, const CollectiveMatch &match)
{
    CellTable t;
    t.addColumn("collective", Cell::Integer, "Collective");
    t.addColumn("name", Cell::Text, "Name");
    t.addColumn("process_group", Cell::Text, "Process group");
    t.addColumn("ranks", Cell::Integer, "Ranks");
    t.addColumn("first_start_us", Cell::Number, "First start (µs)");
    t.addColumn("last_start_us", Cell::Number, "Last start (µs)");
    t.addColumn("skew_us", Cell::Number, "Skew (µs)");
    t.addColumn("last_rank", Cell::Integer, "Last rank");
    t.addColumn("min_dur_us", Cell::Number, "Min duration (µs)");
    t.addColumn("max_dur_us", Cell::Number, "Max duration (µs)");
    t.addColumn("comms_id", Cell::Text, "Comms Id");
    t.addColumn("seq", Cell::Integer, "Seq");
    t.addColumn("matched_by", Cell::Text, "Matched by");
    for (const int number : rankNumbers) {
        const std::string rank = std::to_string(number);
        t.addColumn("wait_us." + rank, Cell::Number, "Wait r" + rank + " (µs)");
        t.addColumn("dur_us." + rank, Cell::Number, "Duration r" + rank + " (µs)");
    }
    for (size_t i = 0; i < match.collectives.size(); ++i) {
        const Collective &c = match.collectives[i];
        t.addRow();
        t.add(std::to_string(i));
        t.add(c.name);
        t.add(c.processGroup);
        t.add(std::to_string(c.kernels.size()));
        t.add(microsText(c.firstStart));
        t.add(microsText(c.lastStart));
        t.add(microsText(c.skew()));
        t.add(std::to_string(rankNumbers[c.lastRankIndex]));
        t.add(microsText(c.minDur));
        t.add(microsText(c.maxDur));
        t.add(c.commsId);
        t.add(c.seq == kNoValue ? std::string() : std::to_string(c.seq));
        t.add(std::string(matchedByName(c.matchedBy)));
        std::vector<const CollectiveKernel *> byRank(rankNumbers.size(), nullptr);
        for (const CollectiveKernel &k : c.kernels)
            byRank[k.rankIndex] = &k;
        for (const CollectiveKernel *k : byRank) {
            t.add(k ? microsText(c.wait(*k)) : std::string());
            t.add(k ? microsText(k->dur) : std::string());
        }
    }
    return t;
}

CellTable rankPairTable(
    const std::vector<int> &rankNumbers, const PairRowTexts &first, const RankPairs &pairs)
{
    CellTable t;
    t.addColumn("fwd_name", Cell::Text, "Forward op");
    t.addColumn("input_dims", Cell::Json, "Input dims");
    t.addColumn("step", Cell::Integer, "Step");
    t.addColumn("module", Cell::Text, "Module");
    for (const int number : rankNumbers) {
        const std::string rank = std::to_string(number);
        t.addColumn("fwd_gpu_us." + rank, Cell::Number, "Forward GPU r" + rank + " (µs)");
        t.addColumn("bwd_gpu_us." + rank, Cell::Number, "Backward GPU r" + rank + " (µs)");
    }
    t.addColumn("bwd_spread_us", Cell::Number, "Backward spread (µs)");
    t.addColumn("slowest_rank", Cell::Integer, "Slowest rank");
    for (const int number : rankNumbers) {
        const std::string rank = std::to_string(number);
        t.addColumn("fwd_tflops." + rank, Cell::Number, "Forward TFLOP/s r" + rank);
        t.addColumn("bwd_tflops." + rank, Cell::Number, "Backward TFLOP/s r" + rank);
    }
    auto rate = [](double v) { return std::isnan(v) ? std::string() : shortestText(v); };
    for (const RankPair &p : pairs.pairs) {
        t.addRow();
        for (const std::string &text : first[size_t(p.rows[0])])
            t.add(text);
        for (size_t r = 0; r < rankNumbers.size(); ++r) {
            // As --export-pairs: a row whose forward op is not in the trace has no forward time,
            // a rank whose GPU work is missing no GPU time at all.
            const bool timed = p.rows[r] >= 0 && !pairs.ranks[r].gpuUnknown;
            const bool forward = timed && pairs.ranks[r].hasForward[size_t(p.rows[r])];
            t.add(forward ? microsText(p.forwardGpu[r]) : std::string());
            t.add(timed ? microsText(p.backwardGpu[r]) : std::string());
        }
        // A spread and a slowest rank need two ranks to compare.
        const bool compared = p.ranksTimed >= 2;
        t.add(compared ? microsText(p.backwardSpread) : std::string());
        t.add(compared ? std::to_string(rankNumbers[p.slowestRankIndex]) : std::string());
        for (size_t r = 0; r < rankNumbers.size(); ++r) {
            // The rank's own pair roll-up: its pair table's fwd_tflops and bwd_tflops.
            const RankPairRows &rows = pairs.ranks[r];
            const bool present = p.rows[r] >= 0;
            t.add(present ? rate(rows.forwardTflops[size_t(p.rows[r])]) : std::string());
            t.add(present ? rate(rows.backwardTflops[size_t(p.rows[r])]) : std::string());
        }
    }
    return t;
}

CellTable pairKeyTable(const ModuleTree &modules)
{
    CellTable t;
    t.addColumn("module_path", Cell::Text, {});
    t.addColumn("recompute", Cell::Integer, {});
    for (const PairRow &row : modules.graph().rows()) {
        const ModuleId module = moduleOfRow(modules, row);
        t.addRow();
        t.add(module == kNoModule ? std::string() : modules.node(module).path);
        t.add(row.recompute ? "1" : "0");
    }
    return t;
}

CellTable commKernelTable(const OpGraph &graph)
{
    const TraceModel &m = graph.model();
    CellTable t;
    for (const char *name : {"name", "collective_name", "process_group", "comms_id"})
        t.addColumn(name, Cell::Text, {});
    t.addColumn("seq", Cell::Integer, {});
    for (const char *name : {"device", "stream"})
        t.addColumn(name, Cell::NumberId, {});
    t.addColumn("ts", Cell::Number, {});
    t.addColumn("dur_us", Cell::Number, {});
    t.addColumn("start_ns", Cell::Integer, {}); // exact, for a run matched from databases
    t.addColumn("dur_ns", Cell::Integer, {});
    t.addColumn("event", Cell::Integer, {}); // as the rank's path graph names it
    auto id = [](int64_t v, int64_t none) { return v == none ? std::string() : std::to_string(v); };
    for (const CommKernel &k : communicationKernels(graph)) {
        t.addRow();
        t.add(std::string(m.sliceName(k.slice)));
        t.add(k.info ? std::string(m.str(k.info->collective)) : std::string());
        t.add(k.info ? std::string(m.str(k.info->processGroup)) : std::string());
        t.add(k.info ? std::string(m.str(k.info->commsId)) : std::string());
        t.add(k.info ? id(k.info->seq, kNoValue) : std::string());
        t.add(k.info ? id(k.info->device, -1) : std::string());
        t.add(k.info ? id(k.info->stream, -1) : std::string());
        t.add(microsText(k.start));
        t.add(microsText(m.slices.dur[k.slice]));
        t.add(std::to_string(k.start));
        t.add(std::to_string(m.slices.dur[k.slice]));
        t.add(std::to_string(k.slice));
    }
    return t;
}

CellTable stepGpuTimeTable(const std::vector<StepGpuTime> &steps)
{
    CellTable t;
    t.addColumn("step", Cell::Integer, {});
    for (const auto &field : gpuTimeFields({}))
        t.addColumn(field.first, Cell::Number, {});
    for (const StepGpuTime &s : steps) {
        t.addRow();
        t.add(std::to_string(s.step));
        for (const auto &field : gpuTimeFields(s.time))
            t.add(microsText(field.second));
    }
    return t;
}

CellTable findingTable(const std::vector<Finding> &findings)
{
    CellTable t;
    for (const char *name : {"check_name", "severity"})
        t.addColumn(name, Cell::Text, {});
    t.addColumn("count", Cell::Integer, {});
    t.addColumn("example", Cell::Text, {});
    t.addColumn("first_ns", Cell::Integer, {}); // exact: REAL µs of the epoch keep ~0.25 µs
    for (const Finding &f : findings) {
        t.addRow();
        t.add(std::string(info(f.check).name));
        t.add(f.severity == Severity::Warning ? "warning" : "info");
        t.add(std::to_string(f.count));
        t.add(f.example);
        t.add(f.firstStart == kNoValue ? std::string() : std::to_string(f.firstStart));
    }
    return t;
}

namespace {

//! A column of one rank (`NAME.R`): its NAME and R.
struct RankColumn {
    std::string_view name;
    int rank = 0;
};

std::optional<RankColumn> rankColumn(std::string_view column)
{
    const size_t dot = column.rfind('.');
    if (dot == std::string_view::npos || dot + 1 == column.size())
        return std::nullopt;
    int rank = 0;
    for (const char c : column.substr(dot + 1)) {
        if (c < '0' || c > '9' || rank > 100'000'000)
            return std::nullopt;
        rank = rank * 10 + (c - '0');
    }
    return RankColumn {column.substr(0, dot), rank};
}

//! Where a wide run table's columns go: which are no rank's, and each rank's NAMEs.
struct RankLayout {
    static constexpr size_t kNone = ~size_t(0);
    std::vector<size_t> shared; //!< \a wide's columns that are no rank's
    std::optional<size_t> key; //!< the key among them
    std::vector<ColumnSpec> values; //!< each NAME, as its first `NAME.R`
    std::vector<int> ranks; //!< in the order their columns come
    std::vector<std::vector<size_t>> columnOf; //!< [rank][NAME]: `NAME.R`'s column, or kNone

    RankLayout(const Table &wide, std::string_view keyName)
    {
        std::map<int, size_t> rankAt;
        for (size_t c = 0; c < wide.columnCount(); ++c) {
            const ColumnSpec &spec = wide.columns()[c];
            const auto perRank = rankColumn(spec.name);
            if (!perRank) {
                if (spec.name == keyName)
                    key = c;
                shared.push_back(c);
                continue;
            }
            const auto value
                = size_t(std::find_if(values.begin(), values.end(), [&](const ColumnSpec &v) {
                      return v.name == perRank->name;
                  }) - values.begin());
            if (value == values.size())
                values.push_back({perRank->name, spec.cell, perRank->name});
            const auto [at, added] = rankAt.emplace(perRank->rank, ranks.size());
            if (added) {
                ranks.push_back(perRank->rank);
                columnOf.emplace_back();
            }
            std::vector<size_t> &columns = columnOf[at->second];
            columns.resize(std::max(columns.size(), value + 1), kNone);
            columns[value] = c;
        }
    }
    //! \a row's values of the \a rank-th rank, NAME by NAME; empty when it has none.
    std::vector<std::string> valuesOf(const Table &wide, size_t row, size_t rank) const
    {
        std::vector<std::string> out(values.size());
        bool any = false;
        for (size_t v = 0; v < columnOf[rank].size(); ++v) {
            if (columnOf[rank][v] != kNone)
                out[v] = wide.text(row, columnOf[rank][v]);
            any = any || !out[v].empty();
        }
        return any ? out : std::vector<std::string>();
    }
};

} // namespace

RankColumnSplit splitRankColumns(const Table &wide, std::string_view key)
{
    const RankLayout layout(wide, key);
    RankColumnSplit out;
    if (!layout.key)
        out.shared.addColumn(key, Cell::Integer, key);
    for (const size_t c : layout.shared) {
        const ColumnSpec &spec = wide.columns()[c];
        out.shared.addColumn(spec.name, spec.cell, spec.title);
    }
    out.byRank.addColumn(key, Cell::Integer, key);
    out.byRank.addColumn("rank", Cell::Integer, "Rank");
    for (const ColumnSpec &spec : layout.values)
        out.byRank.addColumn(spec.name, spec.cell, spec.title);
    for (size_t row = 0; row < wide.rowCount(); ++row) {
        const std::string id = layout.key ? wide.text(row, *layout.key) : std::to_string(row);
        out.shared.addRow();
        if (!layout.key)
            out.shared.add(id);
        for (const size_t c : layout.shared)
            out.shared.add(wide.text(row, c));
        for (size_t r = 0; r < layout.ranks.size(); ++r) {
            std::vector<std::string> values = layout.valuesOf(wide, row, r);
            if (values.empty())
                continue;
            out.byRank.addRow();
            out.byRank.add(id);
            out.byRank.add(std::to_string(layout.ranks[r]));
            for (std::string &v : values)
                out.byRank.add(std::move(v));
        }
    }
    return out;
}

} // namespace ks
