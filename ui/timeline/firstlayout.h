// SPDX-License-Identifier: MIT
#pragma once

namespace ks {

class TrackLayout;
struct TraceModel;

/*!
 * The layout of a trace opened for the first time (no folds kept for it): while the first GPU
 * lane ends below \a height (the tracks' height in pixels), the host lane with the most rows
 * collapses to its top row, so that the GPU work is in view with the ops that launched it, as
 * Nsight Systems opens on its CUDA rows; a click on a lane's label opens it again. False when
 * nothing was collapsed (it all fits, or there is no GPU).
 */
bool fitGpuInView(TrackLayout &layout, const TraceModel &model, int height);

} // namespace ks
