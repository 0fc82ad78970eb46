// SPDX-License-Identifier: MIT
#pragma once

namespace ks::timeline {

// The timeline's fixed sizes in logical pixels, shared by the layout, the painters and the view.
constexpr int kLabelWidth = 240; //!< the lane-label column left of the tracks
constexpr int kRulerHeight = 30; //!< the time ruler above the tracks
constexpr int kRowHeight = 18; //!< one nesting depth of a lane
constexpr int kHeaderHeight = 22; //!< a process group's header
//! The band of a thread's innermost Python frames (with_stack traces), above its ops.
constexpr int kPythonBandHeight = 12;
constexpr int kLanePad = 2; //!< above the first and below the last row of a lane
constexpr int kCurveTrackHeight = 70; //!< a memory or counter track
//! A memory track whose peak is negligible beside the largest (a CPU's few bytes next to a GPU's
//! GiB): it says what it holds without taking a full track.
constexpr int kSmallCurveTrackHeight = 30;

} // namespace ks::timeline
