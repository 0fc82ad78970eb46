// SPDX-License-Identifier: MIT
#include "analysis/efficiency/attentionwork.h"

namespace ks {

namespace {

struct Attention {
    double b = 0, hq = 0, nq = 0, hkv = 0, nkv = 0, dqk = 0, dv = 0;
    double keptPairs = 1; //!< the share of (query, key) pairs the mask keeps
    bool flash = false;
    std::string dtype;
};

//! The Concrete Inputs index of is_causal, and whether the op is a flash kernel.
std::optional<std::pair<size_t, bool>> causalIndexOf(std::string_view op)
{
    if (op == "aten::_scaled_dot_product_flash_attention")
        return std::pair<size_t, bool>(4, true);
    if (op == "aten::_scaled_dot_product_efficient_attention"
        || op == "aten::_scaled_dot_product_cudnn_attention")
        return std::pair<size_t, bool>(6, false);
    return std::nullopt;
}

//! Top-left-aligned causal mask: query i sees keys 0…i.
double causalShare(double nq, double nkv)
{
    if (nq == nkv)
        return 0.5; // TraceLens's halving (l. 1788)
    const double pairs = nq <= nkv ? nq * (nq + 1) / 2 : nkv * (nkv + 1) / 2 + (nq - nkv) * nkv;
    return pairs / (nq * nkv);
}

std::optional<Attention> attentionOf(std::string_view op, const OpShapes &s)
{
    const auto causal = causalIndexOf(op);
    const std::vector<int64_t> *q = s.dimsOf(0), *k = s.dimsOf(1), *v = s.dimsOf(2);
    if (!causal || !q || !k || !v || q->size() != 4 || k->size() != 4 || v->size() != 4
        || s.concrete.size() <= causal->first) // is_causal unknown
        return std::nullopt;
    // extract_sdpa_cfg's checks (l. 2225): one batch, K and V alike, q and k one head size.
    if ((*q)[0] != (*k)[0] || (*q)[0] != (*v)[0] || (*k)[1] != (*v)[1] || (*k)[2] != (*v)[2]
        || (*q)[3] != (*k)[3] || (*k)[1] == 0)
        return std::nullopt;
    Attention a;
    a.b = double((*q)[0]);
    a.hq = double((*q)[1]);
    a.nq = double((*q)[2]);
    a.dqk = double((*q)[3]);
    a.hkv = double((*k)[1]);
    a.nkv = double((*k)[2]);
    a.dv = double((*v)[3]);
    a.flash = causal->second;
    if (s.concreteOf(causal->first) == "True" && a.nq > 0 && a.nkv > 0)
        a.keptPairs = causalShare(a.nq, a.nkv);
    a.dtype = std::string(s.typeOf(0));
    return a;
}

std::string formulaOf(const Attention &a, std::string_view what)
{
    auto n = [](double v) { return std::to_string(int64_t(v)); };
    std::string f = std::string(what) + " with B=" + n(a.b) + ", H_q=" + n(a.hq)
        + ", N_q=" + n(a.nq) + ", H_kv=" + n(a.hkv) + ", N_kv=" + n(a.nkv) + ", d_qk=" + n(a.dqk)
        + ", d_v=" + n(a.dv);
    if (a.keptPairs != 1)
        f += ", causal ×" + std::to_string(a.keptPairs).substr(0, 6);
    return f;
}

OpWork workOf(const Attention &a, double flops, double elements, std::string formula)
{
    OpWork w;
    w.model = "sdpa";
    w.unit = ComputeUnit::Matrix;
    w.flops = flops * a.keptPairs;
    if (const std::optional<int> bpe = bytesPerElement(a.dtype))
        w.bytes = elements * *bpe;
    w.dtype = a.dtype;
    w.formula = std::move(formula);
    return w;
}

} // namespace

bool attentionCovers(std::string_view op)
{
    return causalIndexOf(op).has_value();
}

std::optional<OpWork> attentionWork(std::string_view op, const OpShapes &shapes)
{
    const std::optional<Attention> a = attentionOf(op, shapes);
    if (!a)
        return std::nullopt;
    const double flops = 2 * a->b * a->hq * a->nq * a->nkv * (a->dqk + a->dv);
    const double elements = a->b
        * (a->nq * a->hq * a->dqk + a->nkv * a->hkv * a->dqk + a->nkv * a->hkv * a->dv
            + a->nq * a->hq * a->dv);
    return workOf(*a, flops, elements, formulaOf(*a, "2·B·H_q·N_q·N_kv·(d_qk + d_v)"));
}

std::optional<OpWork> attentionBackwardWork(std::string_view op, const OpShapes &shapes)
{
    const std::optional<Attention> a = attentionOf(op, shapes);
    if (!a)
        return std::nullopt;
    const double gemm = 2 * a->b * a->hq * a->nq * a->nkv; // one N_q×N_kv product, per head dim
    const double gqa = a->hq / a->hkv - 1;
    double flops = (a->flash ? gemm * a->dqk : 0) // recompute QKᵀ
        + gemm * a->dv + a->b * a->nkv * a->dv * gqa // dV
        + gemm * a->dv // dP
        + gemm * a->dqk // dQ
        + gemm * a->dqk + a->b * a->nkv * a->dqk * gqa; // dK
    const double q = a->b * a->nq * a->hq * a->dqk, k = a->b * a->nkv * a->hkv * a->dqk,
                 v = a->b * a->nkv * a->hkv * a->dv, o = a->b * a->nq * a->hq * a->dv;
    OpWork w = workOf(*a, flops, 2 * (q + k + v) + o,
        formulaOf(*a, a->flash ? "recompute QKᵀ + dV + dP + dQ + dK" : "dV + dP + dQ + dK"));
    w.model = "sdpa_bwd";
    return w;
}

} // namespace ks
