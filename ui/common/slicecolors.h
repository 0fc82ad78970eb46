// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/timeline/timelineindex.h"

#include <QColor>
#include <string_view>

namespace ks {

/*!
 * Colours of the timeline: stable per op name (a hash picks the hue within the tint family of
 * the slice's style), so the same op looks the same in every trace and every session.
 */
namespace SliceColors {
QColor forStyle(SliceStyle style, std::string_view name);
//! Arrow colours: forward → backward, launch → GPU work.
QColor pairArrow();
QColor launchArrow();
QColor selectionOutline();
QColor counterpartOutline();
} // namespace SliceColors

} // namespace ks
