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
};

/*!
 * Writes what the generator knows to be true (the --truth file): pair rows stream out step by
 * step, the totals follow once the trace is complete, so the file never needs to be held.
 */
class TruthFile {
public:
    bool open(const std::string &path);
    void addRows(const std::vector<PairRow> &rows);
    bool finish(const TruthCounts &counts);

private:
    OutputSink m_sink;
    std::string m_text;
    bool m_firstRow = true;
};

} // namespace ks::gentrace
