// SPDX-License-Identifier: MIT
#pragma once

#include <functional>

class QMenu;

namespace ks {

class TrackLayout;

/*!
 * Fills \a menu with what can be done to track \a track of \a layout (its label or its process's
 * header), as Perfetto's and Nsight's track menus do: pin to the top or unpin, hide, move up or
 * down, collapse every other process, show only this process, hide the process, show every
 * hidden track. \a changed runs after each change (the view keeps and redraws the layout).
 */
void fillTrackMenu(QMenu &menu, TrackLayout &layout, int track, std::function<void()> changed);

} // namespace ks
