// SPDX-License-Identifier: MIT
#include "session/ranksource.h"

#include "analysis/health/dataloss.h"
#include "export/pairtable.h"
#include "session/run.h"

namespace ks {

RankSummary rankSummary(const LoadedTrace &trace)
{
    const OpGraph &graph = *trace.graph;
    RankSummary s;
    s.file = trace.model->path;
    s.worldSize = rankInfo(*trace.model).worldSize;
    s.steps = graph.steps().size();
    const auto fields = gpuTimeFields(trace.gpuTime());
    for (size_t i = 0; i < fields.size(); ++i)
        s.gpuTime[i] = fields[i].second;
    for (const PairRow &row : graph.rows()) {
        s.fwdGpu += row.forwardGpu.time;
        s.bwdGpu += row.backwardGpu.time;
    }
    s.pairs = graph.stats().pairs();
    s.memory = allocatorPeaks(trace.model->memory);
    s.gpuUnknown = graph.stats().gpuCutOff;
    return s;
}

RankSource rankSourceOf(std::shared_ptr<const LoadedTrace> trace, bool details)
{
    const TraceModel &m = *trace->model;
    RankSource r;
    r.traceFile = m.path;
    r.traceRank = rankInfo(m).rank;
    r.traceId = traceIdOf(m);
    r.clockBase = m.baseTimeNs;
    r.traceStart = m.minTime;
    r.traceEnd = m.maxTime;
    r.summary = rankSummary(*trace);
    for (const ProfilerStep &s : trace->graph->steps())
        r.steps.push_back(s.number);
    r.kernels = commRecords(*trace->graph);
    r.dataLost = dataLoss(*trace->graph);
    if (details) {
        r.stepGpuTime = gpuTimePerStep(*trace->graph);
        r.findings = trace->findings();
    }
    r.trace = std::move(trace);
    return r;
}

RankPairRows pairRowsOf(const LoadedTrace &trace, StringPool &keys, PairRowTexts *texts)
{
    RankPairRows rows = rankPairRows(trace.modules(), &trace.efficiency(), keys);
    if (texts) {
        // Only its names, dims, steps and modules are read: no memory, efficiency or path.
        const OpGraph &graph = *trace.graph;
        const PairTable table(graph, {}, std::vector<PairEfficiency>(graph.rows().size()), {});
        for (size_t row = 0; row < graph.rows().size(); ++row)
            texts->push_back(
                {table.text(row, PairTable::FwdName), table.text(row, PairTable::InputDims),
                    table.text(row, PairTable::Step), table.text(row, PairTable::Module)});
    }
    return rows;
}

} // namespace ks
