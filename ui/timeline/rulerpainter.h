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
 * times, the visible span in the label column, and the ruler's range selection with its length;
 * and the grid lines of the same ticks through the tracks, under the slices.
 */
class RulerPainter {
    Q_DECLARE_TR_FUNCTIONS(RulerPainter)
public:
    //! \a rangeSelection: the ruler's selection (ns, either end first), if any.
    static void paint(QPainter &p,
        const PaintFrame &frame,
        std::optional<std::pair<double, double>> rangeSelection);
    /*!
     * The grid, drawn over the tracks' backgrounds and under their contents: opaque lines, as a
     * translucent line one pixel wide costs the raster engine twenty times an opaque one.
     */
    static void paintGrid(QPainter &p, const PaintFrame &frame);

private:
    //! Calls \a f(x, t) for each tick: its widget x and its label's time.
    template<typename F> static void forEachTick(const PaintFrame &frame, F f);
};

} // namespace ks
