// SPDX-License-Identifier: MIT
#include "analysis/efficiency/vectorwork.h"

#include <algorithm>
#include <array>

namespace ks {

namespace {

template<size_t N> bool isOneOf(std::string_view op, const std::array<std::string_view, N> &names)
{
    return std::find(names.begin(), names.end(), op) != names.end();
}

// torch_op_mapping.py l. 275 (unary), l. 289 (binary), l. 351 (reduce).
constexpr std::array<std::string_view, 11> kUnary
    = {"aten::copy", "aten::copy_", "aten::clamp_min", "aten::clamp_min_", "aten::clamp_max",
        "aten::clamp_max_", "aten::sigmoid", "aten::rsqrt", "aten::silu", "aten::neg", "aten::pow"};
constexpr std::array<std::string_view, 8> kBinary = {"aten::div", "aten::div_", "aten::mul",
    "aten::mul_", "aten::add", "aten::add_", "aten::sigmoid_backward", "aten::threshold_backward"};
constexpr std::array<std::string_view, 13> kReduce = {"aten::sum", "aten::mean", "aten::max",
    "aten::min", "aten::norm", "aten::linalg_norm", "aten::std", "aten::var", "aten::logsumexp",
    "aten::cumsum", "aten::cumprod", "aten::amin", "aten::amax"};
constexpr std::array<std::string_view, 4> kSoftmax = {"aten::_softmax", "aten::_log_softmax",
    "aten::_softmax_backward_data", "aten::_log_softmax_backward_data"};
constexpr std::array<std::string_view, 3> kOther
    = {"aten::cross_entropy_loss", "aten::embedding", "aten::embedding_dense_backward"};

OpWork vectorOp(std::string_view model,
    double flops,
    std::optional<double> bytes,
    std::string_view dtype,
    std::string formula)
{
    OpWork w;
    w.model = model;
    w.unit = ComputeUnit::Vector;
    w.flops = flops;
    w.bytes = bytes;
    w.dtype = std::string(dtype);
    w.formula = std::move(formula);
    return w;
}

//! "[text]": a single Concrete Inputs value read as a list.
std::optional<std::vector<int64_t>> listOfOne(std::string_view text)
{
    std::string list(1, '[');
    list += text;
    list += ']';
    return parseConcreteList(list);
}

std::string count(double n)
{
    return std::to_string(int64_t(n));
}

std::optional<OpWork> unary(const OpShapes &s)
{
    if (!s.dimsOf(0))
        return std::nullopt;
    const double n = s.elementsOf(0);
    const bool outTensor = s.dimsOf(1) && !s.dimsOf(1)->empty();
    const std::optional<int> in = bytesPerElement(s.typeOf(0));
    const std::optional<int> out = outTensor ? bytesPerElement(s.typeOf(1)) : in;
    return vectorOp("aten_unary_elementwise", n,
        in && out ? std::optional<double>(n * (*in + *out)) : std::nullopt, s.typeOf(0),
        "elements = " + count(n));
}

//! The broadcast shape of \a a and \a b (numpy rules), nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> broadcast(std::vector<int64_t> a, std::vector<int64_t> b)
{
    const size_t n = std::max(a.size(), b.size());
    a.insert(a.begin(), n - a.size(), 1);
    b.insert(b.begin(), n - b.size(), 1);
    for (size_t i = 0; i < n; ++i) {
        if (a[i] != b[i] && a[i] != 1 && b[i] != 1)
            return std::nullopt;
        a[i] = std::max(a[i], b[i]);
    }
    return a;
}

std::optional<OpWork> binary(const OpShapes &s)
{
    // A scalar operand has no shape in Input Dims ([]): one element (TraceLens's `prod(())`).
    const std::vector<int64_t> empty;
    const std::vector<int64_t> *a = s.dimsOf(0), *b = s.dimsOf(1);
    if (!a || (!b && s.dims.size() > 1 && s.dims[1].has_value()))
        return std::nullopt;
    const std::optional<std::vector<int64_t>> out = broadcast(*a, b ? *b : empty);
    if (!out)
        return std::nullopt;
    double nOut = 1;
    for (int64_t d : *out)
        nOut *= double(d);
    const double n1 = s.elementsOf(0), n2 = b ? s.elementsOf(1) : 1;
    const std::optional<int> bpe1 = bytesPerElement(s.typeOf(0)),
                             bpe2 = bytesPerElement(s.typeOf(1));
    std::optional<int> bpeOut;
    if (s.dimsOf(2) && !s.dimsOf(2)->empty())
        bpeOut = bytesPerElement(s.typeOf(2));
    else if (bpe1 && bpe2)
        bpeOut = !a->empty() && b && !b->empty() ? std::max(*bpe1, *bpe2) : *bpe1;
    std::optional<double> bytes;
    if (bpe1 && bpe2 && bpeOut)
        bytes = n1 * *bpe1 + n2 * *bpe2 + nOut * *bpeOut;
    return vectorOp(
        "aten_binary_elementwise", nOut, bytes, s.typeOf(0), "output elements = " + count(nOut));
}

//! Elements a reduction writes. Its `dim` is the first list in Concrete Inputs after the input,
//! or for max/min (whose dim is one integer) the first integer; keepdim changes no count.
double reducedElements(std::string_view op, const OpShapes &s)
{
    if (op == "aten::cumsum" || op == "aten::cumprod")
        return s.elementsOf(0);
    const bool intDim = op == "aten::max" || op == "aten::min";
    std::optional<std::vector<int64_t>> dims;
    for (size_t i = 1; i < s.concrete.size() && !dims; ++i) {
        const std::string_view c = s.concreteOf(i);
        if (c.starts_with('['))
            dims = parseConcreteList(c);
        else if (intDim && !c.empty() && c != "True" && c != "False")
            dims = listOfOne(c);
    }
    const std::vector<int64_t> &in = *s.dimsOf(0);
    if (!dims || dims->empty())
        return 1; // every element reduced to one
    std::vector<bool> reduced(in.size());
    for (int64_t d : *dims) {
        const int64_t axis = d < 0 ? d + int64_t(in.size()) : d;
        if (axis >= 0 && axis < int64_t(in.size()))
            reduced[size_t(axis)] = true;
    }
    double n = 1;
    for (size_t i = 0; i < in.size(); ++i)
        n *= reduced[i] ? 1 : double(in[i]);
    return n;
}

std::optional<OpWork> reduce(std::string_view op, const OpShapes &s)
{
    // Without Concrete Inputs (before PyTorch 2.0) the reduced dims are unknown.
    const bool scan = op == "aten::cumsum" || op == "aten::cumprod";
    if (!s.dimsOf(0) || (!scan && s.concrete.empty()))
        return std::nullopt;
    const double in = s.elementsOf(0), out = reducedElements(op, s);
    const std::optional<int> bpe = bytesPerElement(s.typeOf(0));
    return vectorOp("aten_reduce", in,
        bpe ? std::optional<double>((in + out) * *bpe) : std::nullopt, s.typeOf(0),
        "input elements = " + count(in) + ", output elements = " + count(out));
}

std::optional<OpWork> softmax(std::string_view op, const OpShapes &s)
{
    const bool backward = op.ends_with("backward_data");
    const size_t input = backward ? 1 : 0; // the backward's output tensor has the input's shape
    if (!s.dimsOf(input))
        return std::nullopt;
    const double n = s.elementsOf(input), times = backward ? 2 : 1;
    const std::optional<int> bpe = bytesPerElement(s.typeOf(input));
    return vectorOp(backward ? "softmax_bwd" : "softmax", times * 3 * n,
        bpe ? std::optional<double>(times * 2 * n * *bpe) : std::nullopt, s.typeOf(input),
        (backward ? "2·3·elements with elements = " : "3·elements with elements = ") + count(n));
}

std::optional<OpWork> crossEntropy(const OpShapes &s)
{
    if (!s.dimsOf(0) || !s.dimsOf(1))
        return std::nullopt;
    const double logits = s.elementsOf(0), targets = s.elementsOf(1);
    const std::optional<int> bpe = bytesPerElement(s.typeOf(0));
    return vectorOp("cross_entropy", 5 * logits,
        bpe ? std::optional<double>(logits * *bpe + targets * (8 + 4)) : std::nullopt, s.typeOf(0),
        "5·logits with logits = " + count(logits));
}

std::optional<OpWork> embedding(std::string_view op, const OpShapes &s)
{
    const std::vector<int64_t> *first = s.dimsOf(0);
    if (!first || first->empty() || !s.dimsOf(1))
        return std::nullopt;
    const double indices = s.elementsOf(1);
    const std::optional<int> bpe = bytesPerElement(s.typeOf(0));
    if (op == "aten::embedding") { // (weight [V, D], indices)
        const double row = double(first->back());
        return vectorOp("embedding", 0,
            bpe ? std::optional<double>(indices * 8 + 2 * indices * row * *bpe) : std::nullopt,
            s.typeOf(0), "indices = " + count(indices) + ", D = " + count(row));
    }
    // embedding_dense_backward (grad [..., D], indices, num_weights, …)
    const std::optional<std::vector<int64_t>> rows = listOfOne(s.concreteOf(2));
    if (!rows || rows->size() != 1)
        return std::nullopt;
    const double grad = s.elementsOf(0), weight = double(rows->front()) * double(first->back());
    return vectorOp("embedding_bwd", grad,
        bpe ? std::optional<double>((grad + weight) * *bpe + indices * 8) : std::nullopt,
        s.typeOf(0), "grad elements = " + count(grad) + ", weight elements = " + count(weight));
}

} // namespace

bool vectorCovers(std::string_view op)
{
    return isOneOf(op, kUnary) || isOneOf(op, kBinary) || isOneOf(op, kReduce)
        || isOneOf(op, kSoftmax) || isOneOf(op, kOther);
}

std::optional<OpWork> vectorWork(std::string_view op, const OpShapes &shapes)
{
    if (isOneOf(op, kUnary))
        return unary(shapes);
    if (isOneOf(op, kBinary))
        return binary(shapes);
    if (isOneOf(op, kReduce))
        return reduce(op, shapes);
    if (isOneOf(op, kSoftmax))
        return softmax(op, shapes);
    if (op == "aten::cross_entropy_loss")
        return crossEntropy(shapes);
    if (isOneOf(op, kOther))
        return embedding(op, shapes);
    return std::nullopt;
}

} // namespace ks
