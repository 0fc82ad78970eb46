// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opwork.h"

namespace ks {

/*!
 * Ops bound by the vector units, as TraceLens models them where it does (AMD-AGI/TraceLens
 * 171dd747 `TraceLens/PerfModel/perf_model.py`; the op lists in `torch_op_mapping.py` l. 275–365):
 * - unary elementwise (l. 3169, `aten_unary_elementwise` l. 3216): FLOPs = elements of input 0;
 *   bytes = elements·(bpe in + bpe out), the output's type that of input 1 when it is a tensor;
 * - binary elementwise (l. 3318, l. 3403): FLOPs = elements of the broadcast output; bytes = each
 *   input's elements at its size (a scalar one element of 4) + the output's, at input 2's type
 *   when it is a tensor, else the larger input's (two tensors) or the first's;
 * - reductions (l. 3457, `aten_reduce` l. 3562): FLOPs = input elements, bytes = input and
 *   output elements at the input's size (cumsum/cumprod: output = input);
 * - softmax (class Softmax l. 1685, which TraceLens maps to no aten op): FLOPs 3·elements, bytes
 *   2·elements·bpe; `_softmax_backward_data` twice both (its `flops_bwd`, l. 1712);
 * - cross-entropy (class CrossEntropy l. 5230, mapped there only for the fused
 *   CrossEntropyFunction): FLOPs 5·logits, bytes logits·bpe + 8 per target + 4 per loss;
 * - embedding (no TraceLens model): no FLOPs; bytes 8 per index + rows read and written
 *   (2·indices·D·bpe); its dense backward: grad elements of FLOPs (the accumulation), bytes the
 *   gradient, the indices and the weight gradient written (V·D·bpe).
 * Different on purpose (docs/efficiency.md): a reduction's output has the size its `dim` and
 * `keepdim` give (TraceLens compares the Concrete Inputs strings to Python ints and bools, never
 * finds them, and counts one output element: a mean over the last dim of [16, 559, 1024] writes
 * 8 944, not 1).
 */
std::optional<OpWork> vectorWork(std::string_view op, const OpShapes &shapes);
bool vectorCovers(std::string_view op);

} // namespace ks
