// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opwork.h"

namespace ks {

/*!
 * Normalizations as TraceLens models them (AMD-AGI/TraceLens 171dd747
 * `TraceLens/PerfModel/perf_model.py`, class Normalization l. 4286):
 * - forward FLOPs (l. 4348) = 3·C (+ 3·elements when training) + 3·C + 2·elements; bytes
 *   (l. 4395) = elements in and out + C per kept vector: mean and variance, weight and bias when
 *   affine, two more when training;
 * - backward (l. 4445, l. 4475): per channel 4 per element (+3 unless training), + 5 per element
 *   for the input gradient when training, else 2; bytes grad_out and input (twice with the input
 *   gradient in training), invstd, the weight, and the weight/bias gradients;
 * - layer norm (l. 4626, l. 4671): C = prod(normalized_shape), always training; batch norm
 *   (l. 4518, l. 4561): C = dim 1; RMS norm (`_fused_rms_norm`, l. 4879, l. 4937) its own
 *   formulas.
 * Different on purpose (docs/efficiency.md): affine and bias are read from whether the weight
 * and bias inputs have a shape (TraceLens tests `is not None`, and the profiler writes an absent
 * tensor as [], so it always counts both), batch norm's `training` from the flag's text
 * (TraceLens's `bool("False")` is true), its backward's input gradient from output_mask.
 */
std::optional<OpWork> normWork(std::string_view op, const OpShapes &shapes);
bool normCovers(std::string_view op);

} // namespace ks
