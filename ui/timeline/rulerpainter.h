// SPDX-License-Identifier: MIT
#pragma once

#include "timeline/paintframe.h"

#include <QCoreApplication>

#include <optional>
#include <utility>

class QPainter;

namespace ks {

/*!
 * The time ruler above the tracks: ticks at a "nice" step about 90 pixels apart with their
 * times, faint grid lines through the tracks, the visible span in the label column, and the
 * ruler's range selection with its length.
 */
class RulerPainter {
    Q_DECLARE_TR_FUNCTIONS(RulerPainter)
public:
    //! \a rangeSelection: the ruler's selection (ns, either end first), if any.
    static void paint(QPainter &p,
        const PaintFrame &frame,
        std::optional<std::pair<double, double>> rangeSelection);
};

} // namespace ks
