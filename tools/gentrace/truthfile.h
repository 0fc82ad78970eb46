// SPDX-License-Identifier: MIT
#pragma once

#include "outputsink.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::gentrace {

struct PairRow;

//! Totals of the written trace, for the tail of the truth file.
struct TruthCounts {
    int64_t events = 0;
    int64_t cpuOps = 0;
    int64_t gpuEvents = 0;
    int64_t flows = 0;
    int64_t steps = 0;
    int64_t recomputeGpuNs = 0; //!< GPU time of every recomputed op (checkpointing)
};

/*!
 * Writes what the generator knows to be true (the --truth file): pair rows stream out step by
 * step, the totals follow once the trace is complete, so the file never needs to be held.
 * \a withRecompute adds the recompute fields (--checkpoint), \a withMemory the memory ones
 * (--memory); without them the file keeps the layout it had before either existed, byte for
 * byte.
 */
class TruthFile {
public:
    bool open(const std::string &path, bool withRecompute = false, bool withMemory = false);
    void addRows(const std::vector<PairRow> &rows);
    bool finish(const TruthCounts &counts);

private:
    OutputSink m_sink;
    std::string m_text;
    bool m_firstRow = true;
    bool m_withRecompute = false;
    bool m_withMemory = false;
};

} // namespace ks::gentrace
