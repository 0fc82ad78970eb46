// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/opshapes.h"

#include <optional>
#include <string_view>

namespace ks {

//! The work one op instance does, as a performance model counts it (issue #34).
struct OpWork {
    double flops = 0;
    std::optional<double> bytes; //!< nullopt when a dtype's size is unknown
    std::string dtype; //!< of the first matrix: what the roofline's peak is looked up by
    std::string_view model; //!< the TraceLens model it reproduces ("aten_mm")
};

/*!
 * The GEMM family as TraceLens models it (AMD-AGI/TraceLens 171dd747
 * `TraceLens/PerfModel/perf_model.py`): `aten::mm` (l. 341), `aten::addmm` (l. 394), `aten::bmm`
 * (l. 514), `aten::baddbmm` (l. 579) on the GEMM base (l. 21):
 * - FLOPs = 2·M·N·K, + M·N with a bias (`flops_func`, l. 85), × B for the batched ones;
 * - bytes = (M·K + K·N + M·N + N with a bias)·bpe (`bytes_func`, l. 103), every operand at the
 *   first matrix's element size (bias and output too), the bias always 1×N, × B when batched;
 * - shapes from `Input Dims` (addmm/baddbmm: the bias first), strides never count.
 * nullopt for another op or shapes that do not fit.
 */
std::optional<OpWork> gemmWork(std::string_view op, const OpShapes &shapes);

} // namespace ks
