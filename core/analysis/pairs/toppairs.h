// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ks {

/*!
 * What a pair (or a group of pairs) costs on the GPU, the one rule every chart, table and
 * report ranks by: its forward, its backward and its own re-run (`recomputed_gpu_us`: under
 * activation checkpointing, the op that is re-run pays for it). The recompute a backward node
 * triggers (`recompute_gpu_us`) is the checkpoint's overhead, counted at the ops it re-runs,
 * never again at the node's pair.
 */
struct PairCost {
    TimeNs forward = 0;
    TimeNs backward = 0;
    TimeNs recomputed = 0;
    TimeNs total() const { return forward + backward + recomputed; }
};

PairCost pairCost(const PairRow &row);

/*!
 * Of items [0, \a count), at most \a limit whose cost is above 0, dearest first (ties in index
 * order): the ranking behind every "top pairs" chart and table.
 */
std::vector<uint32_t> topByCost(
    size_t count, size_t limit, const std::function<PairCost(uint32_t)> &cost);

//! topByCost() over \a graph's pair rows; only those of ProfilerStep#\a step unless kNoValue.
std::vector<uint32_t> topPairRows(const OpGraph &graph, size_t limit, int64_t step = kNoValue);

} // namespace ks
