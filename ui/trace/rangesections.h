// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/rangestats.h"

class QTreeWidget;

namespace ks {

/*!
 * Adds a range's statistics to the details panel \a tree: the range with a button that copies
 * them as text (rangeStatsText(), the same figures), busy time per lane, GPU time by category,
 * and the top kernels and ops inside the range.
 */
void addRangeSections(QTreeWidget &tree, const TraceModel &model, const RangeStats &stats);

} // namespace ks
