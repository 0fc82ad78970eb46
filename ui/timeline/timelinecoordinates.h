// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>

/*!
 * Pure coordinate maths of the timeline (cf. Qt Creator's timelinecoordinates.h): time ↔ pixel
 * along the tracks and row ↔ y inside a lane. Times are ns relative to the trace start (doubles
 * hold them exactly up to 2^53 ns, about 104 days); pixels are logical.
 */
namespace ks::timeline {

/*!
 * Nanoseconds per pixel when \a span ns fill \a width pixels. A \a width below one pixel counts
 * as one, so the result is always finite and positive for a positive span.
 */
inline double nsPerPixel(double span, int width)
{
    return span / std::max(1, width);
}

/*!
 * The x (pixels from the tracks' left edge) of time \a t when \a start is at x = 0. Times
 * outside the visible range extrapolate to negative x or x past the width: callers clip.
 */
inline double timeToPixel(double t, double start, double nsPerPixel)
{
    return (t - start) / nsPerPixel;
}

//! The inverse of timeToPixel(): the time at \a x pixels from the tracks' left edge.
inline double pixelToTime(double x, double start, double nsPerPixel)
{
    return start + x * nsPerPixel;
}

/*!
 * The row at \a y pixels below the top of a lane's first row, in a lane showing \a rows rows of
 * \a rowHeight pixels: floor(y / rowHeight), or -1 when \a y lies above the first row or at or
 * below the end of the last (the lane's padding belongs to no row). A \a y on the boundary
 * between two rows belongs to the lower one.
 */
inline int rowAt(int y, int rowHeight, int rows)
{
    if (y < 0 || rowHeight <= 0 || y >= rows * rowHeight)
        return -1;
    return y / rowHeight;
}

/*!
 * The time axis of one frame: the visible range laid over the tracks, which start at widget x
 * \a left and are \a width pixels wide.
 */
struct TimeAxis {
    TimeAxis(double start, double span, int left, int width)
        : start(start)
        , span(span)
        , left(left)
        , width(std::max(1, width))
        , nsPerPixel(timeline::nsPerPixel(span, width))
    {
    }

    //! Widget x of time \a t (see timeToPixel()).
    double x(double t) const { return left + timeToPixel(t, start, nsPerPixel); }
    //! Time at widget x \a px (see pixelToTime()).
    double time(int px) const { return pixelToTime(px - left, start, nsPerPixel); }

    double start; //!< ns at the tracks' left edge
    double span; //!< ns across the tracks
    int left;
    int width; //!< at least 1
    double nsPerPixel;
};

} // namespace ks::timeline
