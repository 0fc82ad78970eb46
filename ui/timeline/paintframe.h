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
    double rulerOrigin = 0; //!< the ruler labels time t (ns from the trace start) as t + this

    //! Widget y of content y 0.
    int top() const { return timeline::kRulerHeight - scrollY; }
};

} // namespace ks
