// SPDX-License-Identifier: MIT
#include "common/palette.h"

#include <array>

namespace ks {

QColor workColor(WorkPart part)
{
    // Forward cool, backward warm, re-run work purple (its own re-run lighter), communication
    // red, copies green, what is nobody's grey.
    static constexpr std::array<QRgb, 10> colors = {
        qRgb(40, 130, 190), // forward
        qRgb(230, 110, 40), // backward
        qRgb(240, 180, 60), // backward – other
        qRgb(140, 100, 200), // recompute
        qRgb(200, 50, 80), // communication
        qRgb(60, 160, 90), // memcpy
        qRgb(140, 140, 160), // other
        qRgb(215, 215, 215), // idle
        qRgb(190, 165, 230), // recomputed (a pair's own re-run)
        qRgb(50, 100, 140), // computation
    };
    return QColor(colors[size_t(part)]);
}

} // namespace ks
