// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/time/rangestats.h"

class QTreeWidget;
class QTreeWidgetItem;
class QString;

namespace ks {

/*!
 * Adds a range's statistics to the details panel \a tree: the range with a button that copies
 * them as text (rangeStatsText(), the same figures), busy time per lane, GPU time by category,
 * and the top kernels and ops inside the range.
 */
void addRangeSections(QTreeWidget &tree, const TraceModel &model, const RangeStats &stats);

//! A bold, expanded top-level item of the details panel \a tree, spanning its columns.
QTreeWidgetItem *addSection(QTreeWidget &tree, const QString &title);

} // namespace ks
