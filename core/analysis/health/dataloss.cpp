// SPDX-License-Identifier: MIT
#include "analysis/health/dataloss.h"

#include <array>

namespace ks {

namespace {

//! Why reading stopped, most telling first: a gzip problem ends the text, which then also ends
//! in the middle of the JSON.
constexpr std::array kStops
    = {Diag::SyntaxError, Diag::GzipCorrupt, Diag::GzipCutOff, Diag::Truncated};

const Diagnostics::Example *whereReadingStopped(const Diagnostics &diagnostics)
{
    for (Diag stop : kStops)
        for (const Diagnostics::Example &e : diagnostics.examples())
            if (e.counter == stop)
                return &e;
    return nullptr;
}

} // namespace

std::string dataLoss(const OpGraph &graph)
{
    const TraceModel &m = graph.model();
    const Diagnostics::Example *stop = whereReadingStopped(m.diagnostics);
    if (!stop)
        return {};
    std::string out = (m.compressed ? "text byte " : "byte ") + std::to_string(stop->offset) + ": "
        + stop->message;
    if (stop->counter == Diag::GzipCorrupt)
        out += ": the rest of the file was not read";
    out += "; " + std::to_string(m.eventCount)
        + (m.eventCount == 1 ? " event kept" : " events kept");
    if (const uint64_t skipped = m.diagnostics.count(Diag::IncompleteEvent))
        out += ", " + std::to_string(skipped) + " incomplete one skipped";
    if (graph.stats().gpuCutOff)
        out += "; no GPU event survived: its GPU work is missing";
    return out;
}

std::string truncationLoss(const OpGraph &graph)
{
    if (!graph.stats().gpuCutOff)
        return {};
    const uint64_t launches = graph.stats().launchesCutOff;
    return "no GPU event survived the cut: the file ends before its GPU events (the profiler "
           "writes them after the host's"
        + (launches == 0 ? std::string()
                         : "; " + std::to_string(launches)
                    + (launches == 1 ? " launch" : " launches") + " of GPU work survived")
        + "), so no GPU time is known and the pair table's GPU columns are empty";
}

} // namespace ks
