// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace ks {

//! A pair row's structural key (TraceDiff step 2) and its op key (step 4).
struct PairKeys {
    std::string key;
    std::string opKey;
};

/*!
 * The keys of a pair row from its parts: whether its forward op is in the trace, that op's name,
 * its module path (moduleOfRow()'s, empty for none), its input dims, its backward node names
 * (OpGraph::appendNodeNames()) and whether it is a recomputation. TraceDiff and a run's pair
 * matching (from traces or from databases) build them alike.
 */
PairKeys pairKeys(bool hasForward,
    std::string_view op,
    std::string_view modulePath,
    std::string_view inputDims,
    std::string_view bwdNames,
    bool recompute);

} // namespace ks
