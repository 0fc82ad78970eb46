// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opwork.h"

namespace ks {

/*!
 * Scaled-dot-product attention as TraceLens models it (AMD-AGI/TraceLens 171dd747
 * `TraceLens/PerfModel/perf_model.py`, class SDPA l. 1753): q, k, v at inputs 0–2 laid out
 * [B, H, N, d] (`extract_sdpa_cfg`, l. 2221); `aten::_scaled_dot_product_flash_attention`
 * (l. 2688: causal at Concrete Inputs 4), `…_efficient_attention` (l. 2638) and
 * `…_cudnn_attention` (l. 2588: causal at 6).
 * - forward FLOPs (l. 1779) = 2·B·H_q·N_q·N_kv·(d_qk + d_v), halved when causal;
 * - bytes (l. 1814) = q, k, v read and out written;
 * - backward FLOPs (l. 1837): the flash kernels recompute QKᵀ, then dV, dP, dQ, dK, each
 *   2·B·H_q·N_q·N_kv·d (2.5× the forward for d_qk = d_v), grouped-query heads summed back
 *   (B·N_kv·d·(H_q/H_kv − 1) for dV and dK); bytes (l. 1874) q, k, v, dO read, dQ, dK, dV written.
 * Different on purpose (docs/efficiency.md): bytes at the inputs' element size, not TraceLens's
 * fixed 2 (l. 1823); a causal mask with N_q ≠ N_kv (TraceLens raises) counts the pairs
 * PyTorch's top-left-aligned mask keeps.
 */
std::optional<OpWork> attentionWork(std::string_view op, const OpShapes &shapes);
bool attentionCovers(std::string_view op);

/*!
 * The backward of attention op \a op (a forward op) from its forward shapes: what its backward
 * nodes do, which hold no modelled op of their own (TraceLens's SDPA_bwd rows, l. 1899).
 */
std::optional<OpWork> attentionBackwardWork(std::string_view op, const OpShapes &shapes);

} // namespace ks
