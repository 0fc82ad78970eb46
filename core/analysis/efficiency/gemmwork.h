// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opwork.h"

namespace ks {

/*!
 * The GEMM family as TraceLens models it (AMD-AGI/TraceLens 171dd747
 * `TraceLens/PerfModel/perf_model.py`): `aten::mm` (l. 341), `aten::addmm` (l. 394), `aten::bmm`
 * (l. 514), `aten::baddbmm` (l. 579), `aten::_scaled_mm` (l. 446) on the GEMM base (l. 21):
 * - FLOPs = 2·M·N·K, + M·N with a bias (`flops_func`, l. 85), × B for the batched ones;
 * - bytes = (M·K + K·N + M·N + N with a bias)·bpe (`bytes_func`, l. 103), every operand at the
 *   first matrix's element size (bias and output too), the bias always 1×N, × B when batched;
 * - shapes from `Input Dims` (addmm/baddbmm: the bias first), strides never count;
 * - `_scaled_mm` writes an fp8 product at 2 bytes (l. 493) and has a bias when input 4 has a
 *   shape (TraceLens looks for three inputs, which `_scaled_mm` never has: it never counts one).
 * nullopt for another op or shapes that do not fit.
 */
std::optional<OpWork> gemmWork(std::string_view op, const OpShapes &shapes);
bool gemmCovers(std::string_view op);

} // namespace ks
