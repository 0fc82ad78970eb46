// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/memory/livememory.h"
#include "analysis/time/stepbreakdown.h"

#include <QColor>

namespace ks {

//! The colour of each kind of GPU work: the same in every chart, the timeline and the report,
//! so that purple always means recompute.
QColor workColor(WorkPart part);
//! The colour of each category of live memory, for the Memory tab and the report alike.
QColor memoryColor(LiveCategory category);

} // namespace ks
