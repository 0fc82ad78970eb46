// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/tracklayout.h"

#include <QString>

#include <optional>

namespace ks::foldmemory {

/*!
 * The timeline folds and track arrangement (pinned, hidden, reordered) the user left on each trace,
 * kept in QSettings under the trace's absolute path, so that a trace reopens folded as it was (the
 * most recent kTraces traces are kept).
 */
constexpr int kTraces = 100;

std::optional<TrackLayout::FoldState> load(const QString &tracePath);
void save(const QString &tracePath, const TrackLayout::FoldState &state);

//! "Ops only" (TrackLayout::setPythonHidden), one choice for every timeline.
bool pythonHidden();
void setPythonHidden(bool hidden);
//! Graph replays one lane per graph (TrackLayout::setGraphsCompacted), for every timeline.
bool graphsCompacted();
void setGraphsCompacted(bool compacted);

} // namespace ks::foldmemory
