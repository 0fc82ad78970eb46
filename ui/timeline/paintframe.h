// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/timelinecoordinates.h"
#include "timeline/timelinemetrics.h"

#include <QFont>
#include <QPalette>
#include <QSize>

namespace ks {

//! What every painter of one timeline frame needs to know about the view.
struct PaintFrame {
    QSize size; //!< of the picture, logical pixels
    timeline::TimeAxis axis;
    int scrollY; //!< content y shown at the top of the tracks
    QPalette palette;
    QFont font;

    //! Widget y of content y 0.
    int top() const { return timeline::kRulerHeight - scrollY; }
};

} // namespace ks
