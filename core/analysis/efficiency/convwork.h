// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opwork.h"

namespace ks {

/*!
 * Convolutions as TraceLens models them (AMD-AGI/TraceLens 171dd747
 * `TraceLens/PerfModel/perf_model.py`, class CONV l. 858, after PyTorch's flop_counter.py):
 * - output size per spatial dim (l. 929): ⌊(in + 2·pad − dil·(k − 1) − 1) / stride⌋ + 1;
 *   transposed (l. 937): (in − 1)·stride − 2·pad + dil·(k − 1) + output_padding + 1;
 * - forward FLOPs (l. 949) = 2·prod(w[1:])·prod(out) (transposed: ·prod(x)), + prod(out) with a
 *   bias; bytes (l. 979) = (prod(x) + prod(w) + C_out with a bias + prod(out))·bpe, every tensor
 *   at the input's element size;
 * - backward (l. 997, l. 1019): the input gradient is the convolution of the output gradient
 *   with w (transposedness flipped), the weight gradient that of xᵀ with outᵀ; the bias gradient
 *   reads the output gradient and writes C_out.
 * `aten::convolution` (l. 1043): x, w, bias at inputs 0–2, stride, padding, dilation,
 * transposed, output_padding, groups in Concrete Inputs 3–8; `aten::convolution_backward`
 * (l. 1151): x at 1, w at 2, the same parameters at 4–9, output_mask at 10.
 *
 * Where this differs from TraceLens, on purpose (docs/efficiency.md): the forward counts its bias
 * when input 2 has a shape (TraceLens l. 1066 tests for exactly three inputs, which
 * `aten::convolution` never has); the backward computes only the gradients output_mask asks for
 * (TraceLens ignores it: a ResNet's first conv, which needs no input gradient, has half the FLOPs
 * it reports), and its bias gradient's elements are counted in bytes (TraceLens adds elements).
 */
std::optional<OpWork> convWork(std::string_view op, const OpShapes &shapes);
bool convCovers(std::string_view op);

} // namespace ks
