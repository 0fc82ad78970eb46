// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/stepbreakdown.h"

#include <QColor>

namespace ks {

//! The colour of each kind of GPU work: the same in every chart, the timeline and the report,
//! so that purple always means recompute.
QColor workColor(WorkPart part);

} // namespace ks
