// SPDX-License-Identifier: MIT
#include "common/palette.h"

#include <array>

namespace ks {

QColor workColor(WorkPart part)
{
    // Forward cool, backward warm (backward – other a brown of it), re-run work purple (its
    // own re-run lighter), communication amber and copies green as the timeline draws their
    // kernels (SliceColors), what is nobody's grey.
    static constexpr std::array<QRgb, 10> colors = {
        qRgb(40, 130, 190), // forward
        qRgb(230, 110, 40), // backward
        qRgb(165, 110, 70), // backward – other
        qRgb(140, 100, 200), // recompute
        qRgb(225, 165, 20), // communication
        qRgb(60, 160, 90), // memcpy
        qRgb(140, 140, 160), // other
        qRgb(215, 215, 215), // idle
        qRgb(190, 165, 230), // recomputed (a pair's own re-run)
        qRgb(50, 100, 140), // computation
    };
    return QColor(colors[size_t(part)]);
}

QColor memoryColor(LiveCategory category)
{
    // Activations as forward work, gradients as backward, the optimizer as "other" work is,
    // temporaries light, what predates the trace grey, what the totals do not explain red.
    static constexpr std::array<QRgb, size_t(LiveCategory::Count)> colors = {
        qRgb(40, 130, 190), // activation
        qRgb(230, 110, 40), // gradient
        qRgb(60, 160, 90), // optimizer
        qRgb(170, 205, 230), // temporary
        qRgb(170, 170, 170), // before the window
        qRgb(110, 110, 110), // before the trace
        qRgb(140, 100, 200), // other
        qRgb(220, 60, 80), // unexplained
    };
    return QColor(colors[size_t(category)]);
}

} // namespace ks
