// SPDX-License-Identifier: MIT
#include "analysis/efficiency/gemmwork.h"

namespace ks {

namespace {

struct GemmShape {
    int64_t b = 1, m = 0, n = 0, k = 0;
    bool bias = false;
    size_t firstMatrix = 0; //!< index of A among the inputs
};

//! B, M, N, K of the matrices at inputs \a a, \a a + 1 (batched: three dims each).
std::optional<GemmShape> shapeOf(const OpShapes &s, size_t a, bool batched, bool bias)
{
    const std::vector<int64_t> *lhs = s.dimsOf(a);
    const std::vector<int64_t> *rhs = s.dimsOf(a + 1);
    const size_t rank = batched ? 3 : 2;
    if (!lhs || !rhs || lhs->size() != rank || rhs->size() != rank)
        return std::nullopt;
    GemmShape g;
    g.b = batched ? (*lhs)[0] : 1;
    g.m = (*lhs)[rank - 2];
    g.k = (*lhs)[rank - 1];
    g.n = (*rhs)[rank - 1];
    g.bias = bias;
    g.firstMatrix = a;
    return g;
}

std::string formulaOf(const GemmShape &g)
{
    std::string f = g.b > 1 ? "B·(2·M·N·K" : "2·M·N·K";
    f += g.bias ? " + M·N" : "";
    f += g.b > 1 ? ")" : "";
    f += " with ";
    if (g.b > 1)
        f += "B=" + std::to_string(g.b) + ", ";
    f += "M=" + std::to_string(g.m) + ", N=" + std::to_string(g.n) + ", K=" + std::to_string(g.k);
    return f;
}

} // namespace

bool gemmCovers(std::string_view op)
{
    return op == "aten::mm" || op == "aten::addmm" || op == "aten::bmm" || op == "aten::baddbmm"
        || op == "aten::_scaled_mm";
}

std::optional<OpWork> gemmWork(std::string_view op, const OpShapes &shapes)
{
    std::optional<GemmShape> g;
    std::string_view model;
    if (op == "aten::mm") {
        g = shapeOf(shapes, 0, false, false);
        model = "aten_mm";
    } else if (op == "aten::addmm") {
        g = shapeOf(shapes, 1, false, true);
        model = "aten_addmm";
    } else if (op == "aten::bmm") {
        g = shapeOf(shapes, 0, true, false);
        model = "aten_bmm";
    } else if (op == "aten::baddbmm") {
        g = shapeOf(shapes, 1, true, true);
        model = "aten_baddbmm";
    } else if (op == "aten::_scaled_mm") {
        // The bias is input 4 (TraceLens l. 460 tests len(Input Dims) == 3, never true).
        g = shapeOf(shapes, 0, false, shapes.dimsOf(4) && !shapes.dimsOf(4)->empty());
        model = "aten_scaled_mm";
    }
    if (!g)
        return std::nullopt;
    const double b = double(g->b), m = double(g->m), n = double(g->n), k = double(g->k);
    OpWork w;
    w.model = model;
    w.unit = ComputeUnit::Matrix;
    w.dtype = std::string(shapes.typeOf(g->firstMatrix));
    w.flops = b * (2 * m * n * k + (g->bias ? m * n : 0));
    w.formula = formulaOf(*g);
    const std::optional<int> bpe = bytesPerElement(w.dtype);
    if (!bpe)
        return w;
    // _scaled_mm writes fp8 products as 16-bit (TraceLens l. 493).
    const int outBpe = model == "aten_scaled_mm" && *bpe == 1 ? 2 : *bpe;
    w.bytes = b * ((m * k + k * n + (g->bias ? n : 0)) * *bpe + m * n * outBpe);
    return w;
}

} // namespace ks
