// SPDX-License-Identifier: MIT
#include "analysis/efficiency/convwork.h"

#include <cmath>
#include <functional>
#include <numeric>

namespace ks {

namespace {

using Shape = std::vector<int64_t>;

double prod(const Shape &s, size_t from = 0)
{
    double n = 1;
    for (size_t i = from; i < s.size(); ++i)
        n *= double(s[i]);
    return n;
}

//! (1, 0) ↔ (0, 1): the channel dims swapped (TraceLens `CONV.t`, l. 926).
Shape transposed(Shape s)
{
    std::swap(s[0], s[1]);
    return s;
}

struct Conv {
    Shape x, w, out;
    bool transposed = false, bias = false;
};

//! A per-spatial-dim parameter from Concrete Inputs: "[2, 2]", "[1]" broadcast, "" its default.
std::optional<Shape> parameter(const OpShapes &s, size_t i, size_t dims, int64_t fallback)
{
    const std::string_view text = s.concreteOf(i);
    if (text.empty())
        return Shape(dims, fallback);
    std::optional<Shape> v = parseConcreteList(text);
    if (v && v->size() == 1)
        v = Shape(dims, v->front());
    return v && v->size() == dims ? v : std::nullopt;
}

//! The convolution of x at input \a xi and w at \a xi + 1, its parameters from Concrete Inputs
//! \a p (stride) to \a p + 4 (output_padding).
std::optional<Conv> convOf(const OpShapes &s, size_t xi, size_t p)
{
    const Shape *x = s.dimsOf(xi), *w = s.dimsOf(xi + 1);
    // Without Concrete Inputs (traces before PyTorch 2.0) stride and padding are unknown: no
    // guess at the defaults.
    if (!x || !w || x->size() < 3 || x->size() > 5 || w->size() != x->size()
        || s.concrete.size() <= p + 4)
        return std::nullopt;
    const size_t dims = x->size() - 2;
    const auto stride = parameter(s, p, dims, 1), padding = parameter(s, p + 1, dims, 0),
               dilation = parameter(s, p + 2, dims, 1), outPad = parameter(s, p + 4, dims, 0);
    if (!stride || !padding || !dilation || !outPad)
        return std::nullopt;
    Conv c;
    c.x = *x;
    c.w = *w;
    c.transposed = s.concreteOf(p + 3) == "True";
    c.out = {(*x)[0], c.transposed ? (*w)[1] : (*w)[0]};
    for (size_t i = 0; i < dims; ++i) {
        const int64_t in = (*x)[i + 2], k = (*w)[i + 2], st = (*stride)[i], pad = (*padding)[i],
                      dil = (*dilation)[i];
        if (st <= 0)
            return std::nullopt;
        c.out.push_back(c.transposed
                ? (in - 1) * st - 2 * pad + dil * (k - 1) + (*outPad)[i] + 1
                : int64_t(std::floor(double(in + 2 * pad - dil * (k - 1) - 1) / double(st))) + 1);
    }
    return c;
}

//! CONV.flops_func (l. 949) without the bias.
double convFlops(const Shape &x, const Shape &w, const Shape &out, bool transposedConv)
{
    return 2 * prod(w, 1) * (transposedConv ? prod(x) : prod(out));
}

std::string shapeText(const Shape &s)
{
    std::string t = "[";
    for (size_t i = 0; i < s.size(); ++i) {
        if (i)
            t += ',';
        t += std::to_string(s[i]);
    }
    t += ']';
    return t;
}

OpWork forward(const Conv &c, std::string dtype)
{
    OpWork w;
    w.model = "aten_conv";
    w.unit = ComputeUnit::Matrix;
    w.flops = convFlops(c.x, c.w, c.out, c.transposed) + (c.bias ? prod(c.out) : 0);
    w.formula = std::string(c.transposed ? "2·prod(w[1:])·prod(x)" : "2·prod(w[1:])·prod(out)")
        + (c.bias ? " + prod(out)" : "") + " with x=" + shapeText(c.x) + ", w=" + shapeText(c.w)
        + ", out=" + shapeText(c.out);
    if (const std::optional<int> bpe = bytesPerElement(dtype))
        w.bytes = (prod(c.x) + prod(c.w) + (c.bias ? double(c.out[1]) : 0) + prod(c.out)) * *bpe;
    w.dtype = std::move(dtype);
    return w;
}

OpWork backward(const Conv &c, std::string dtype, const Shape &mask)
{
    const bool inputGrad = mask[0] != 0, weightGrad = mask[1] != 0, biasGrad = mask[2] != 0;
    OpWork w;
    w.model = "aten_conv_bwd";
    w.unit = ComputeUnit::Matrix;
    const Shape wx = c.transposed ? transposed(c.out) : transposed(c.x);
    const Shape wy = c.transposed ? transposed(c.x) : transposed(c.out);
    w.flops = (inputGrad ? convFlops(c.out, c.w, c.x, !c.transposed) : 0)
        + (weightGrad ? convFlops(wx, wy, transposed(c.w), false) : 0)
        + (biasGrad ? prod(c.out) : 0);
    w.formula = std::string("input grad ") + (inputGrad ? "yes" : "no") + ", weight grad "
        + (weightGrad ? "yes" : "no") + ", bias grad " + (biasGrad ? "yes" : "no")
        + " with x=" + shapeText(c.x) + ", w=" + shapeText(c.w) + ", out=" + shapeText(c.out);
    if (const std::optional<int> bpe = bytesPerElement(dtype)) {
        const double x = prod(c.x), wt = prod(c.w), out = prod(c.out);
        w.bytes = ((inputGrad ? out + wt + x : 0) + (weightGrad ? out + x + wt : 0)
                      + (biasGrad ? out + double(c.out[1]) : 0))
            * *bpe;
    }
    w.dtype = std::move(dtype);
    return w;
}

} // namespace

bool convCovers(std::string_view op)
{
    return op == "aten::convolution" || op == "aten::convolution_backward";
}

std::optional<OpWork> convWork(std::string_view op, const OpShapes &shapes)
{
    if (op == "aten::convolution") {
        std::optional<Conv> c = convOf(shapes, 0, 3);
        if (!c)
            return std::nullopt;
        c->bias = shapes.dimsOf(2) && !shapes.dimsOf(2)->empty();
        return forward(*c, std::string(shapes.typeOf(0)));
    }
    if (op == "aten::convolution_backward") {
        std::optional<Conv> c = convOf(shapes, 1, 4);
        if (!c)
            return std::nullopt;
        // Without an output_mask every gradient, the bias's where it has one (bias_sizes ≠ [0]).
        const std::optional<Shape> bias = parseConcreteList(shapes.concreteOf(3));
        const bool hasBias = bias && !bias->empty() && bias->front() != 0;
        std::optional<Shape> mask = parseConcreteList(shapes.concreteOf(10));
        if (!mask || mask->size() != 3)
            mask = Shape {1, 1, hasBias ? 1 : 0};
        return backward(*c, std::string(shapes.typeOf(1)), *mask);
    }
    return std::nullopt;
}

} // namespace ks
