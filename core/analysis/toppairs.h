// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"

#include <cstdint>
#include <vector>

namespace ks {

//! The GPU time a pair row is ranked by.
enum class PairCost {
    ForwardBackward, //!< forward + backward GPU time
    WithRecompute, //!< forward + backward + the recompute its backward nodes ran
};

//! \a row's GPU time as \a cost counts it.
TimeNs pairCost(const PairRow &row, PairCost cost);

/*!
 * The pair rows that cost most, for every "top pairs" chart and table: at most \a limit rows
 * whose cost is above 0, largest first (ties in row order); only those of ProfilerStep#\a step
 * unless it is kNoValue.
 */
std::vector<uint32_t> topPairRows(
    const OpGraph &graph, size_t limit, PairCost cost, int64_t step = kNoValue);

} // namespace ks
