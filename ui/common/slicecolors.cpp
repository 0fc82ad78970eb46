// SPDX-License-Identifier: MIT
#include "common/slicecolors.h"

namespace ks::SliceColors {

namespace {
uint32_t nameHash(std::string_view name)
{
    uint32_t h = 2166136261u;
    for (char c : name)
        h = (h ^ uint8_t(c)) * 16777619u;
    return h;
}

//! A colour in the hue band [from, to) with saturation/lightness ranges, picked by hash.
QColor inBand(uint32_t h, int from, int to, int satLo, int satHi, int litLo, int litHi)
{
    const int hue = from + int(h % uint32_t(to - from));
    const int sat = satLo + int((h >> 8) % uint32_t(satHi - satLo + 1));
    const int lit = litLo + int((h >> 16) % uint32_t(litHi - litLo + 1));
    return QColor::fromHsl(hue % 360, sat, lit);
}
} // namespace

QColor forStyle(SliceStyle style, std::string_view name)
{
    const uint32_t h = nameHash(name);
    switch (style) {
    case SliceStyle::Forward:
        return inBand(h, 175, 235, 110, 170, 120, 165); // teal → blue
    case SliceStyle::Backward:
        return inBand(h, 5, 40, 150, 210, 135, 170); // red → orange
    case SliceStyle::Recompute:
        // Recompute's purple, as in every chart (workColor()); the timeline hatches it as well.
        return inBand(h, 262, 282, 80, 120, 150, 180);
    case SliceStyle::Kernel:
        return inBand(h, 295, 325, 90, 150, 130, 170); // magenta, clear of recompute's purple
    case SliceStyle::Communication:
        return inBand(h, 38, 46, 190, 230, 115, 140); // amber, communication in every chart
    case SliceStyle::Memcpy:
        return inBand(h, 122, 146, 110, 150, 115, 145); // green, memcpy in every chart
    case SliceStyle::Memset:
        return inBand(h, 150, 170, 90, 130, 120, 150); // sea green
    case SliceStyle::Runtime:
        return inBand(h, 200, 220, 25, 45, 175, 195); // pale grey-blue
    case SliceStyle::Annotation:
        return inBand(h, 35, 50, 60, 90, 175, 200); // sand
    case SliceStyle::Python:
        return inBand(h, 70, 110, 20, 45, 180, 205); // pale grey-green
    case SliceStyle::GpuAnnotation:
        return inBand(h, 0, 360, 0, 10, 200, 215); // light grey
    case SliceStyle::Other:
        break;
    }
    return inBand(h, 0, 360, 0, 15, 170, 195);
}

// Arrow hues lie outside every slice family above (crimson at 340°, a deep saturated green), so an
// arrow never blends into the slices it crosses.
QColor pairArrow()
{
    return QColor(205, 0, 75);
}
QColor launchArrow()
{
    return QColor(20, 150, 30);
}
QColor selectionOutline()
{
    return QColor(20, 20, 20);
}
QColor counterpartOutline()
{
    return QColor(205, 0, 75);
}

} // namespace ks::SliceColors
