// SPDX-License-Identifier: MIT
#include "analysis/efficiency/normwork.h"

namespace ks {

namespace {

struct Norm {
    double elements = 0, channels = 0;
    int bpe = 0; //!< 0: unknown
    std::string dtype;
    bool affine = true, bias = true, training = true;
    bool inputGrad = true; //!< backward: output_mask[0]
};

bool isLayerNorm(std::string_view op)
{
    return op == "aten::layer_norm" || op == "aten::native_layer_norm"
        || op == "aten::native_layer_norm_backward";
}

bool isBatchNorm(std::string_view op)
{
    return op == "aten::batch_norm" || op == "aten::native_batch_norm"
        || op == "aten::cudnn_batch_norm" || op == "aten::miopen_batch_norm"
        || op == "aten::native_batch_norm_backward" || op == "aten::cudnn_batch_norm_backward"
        || op == "aten::miopen_batch_norm_backward";
}

bool isRmsNorm(std::string_view op)
{
    return op == "aten::_fused_rms_norm" || op == "aten::_fused_rms_norm_backward";
}

bool hasShape(const OpShapes &s, size_t i)
{
    return s.dimsOf(i) && !s.dimsOf(i)->empty();
}

//! The input at \a i with \a channels, nullopt when either is missing.
std::optional<Norm> normOf(const OpShapes &s, size_t i, std::optional<double> channels)
{
    if (!hasShape(s, i) || !channels || *channels <= 0)
        return std::nullopt;
    Norm n;
    n.elements = s.elementsOf(i);
    n.channels = *channels;
    n.dtype = std::string(s.typeOf(i));
    n.bpe = bytesPerElement(n.dtype).value_or(0);
    return n;
}

std::optional<double> productOf(std::string_view list)
{
    const std::optional<std::vector<int64_t>> v = parseConcreteList(list);
    if (!v)
        return std::nullopt;
    double n = 1;
    for (int64_t d : *v)
        n *= double(d);
    return n;
}

std::optional<double> dimOne(const OpShapes &s, size_t i)
{
    return s.dimsOf(i) && s.dimsOf(i)->size() > 1 ? std::optional<double>((*s.dimsOf(i))[1])
                                                  : std::nullopt;
}

OpWork workOf(const Norm &n, std::string_view model, double flops, double bytes)
{
    OpWork w;
    w.model = model;
    w.unit = ComputeUnit::Vector;
    w.flops = flops;
    if (n.bpe)
        w.bytes = bytes;
    w.dtype = n.dtype;
    w.formula = "elements = " + std::to_string(int64_t(n.elements))
        + ", C = " + std::to_string(int64_t(n.channels)) + (n.training ? ", training" : "")
        + (n.affine ? ", affine" : "");
    return w;
}

OpWork forward(const Norm &n, std::string_view model)
{
    const double flops
        = 3 * n.channels + (n.training ? 3 * n.elements : 0) + 3 * n.channels + 2 * n.elements;
    const double vectors = 2 + (n.affine ? 1 + (n.bias ? 1 : 0) : 0) + (n.training ? 2 : 0);
    return workOf(n, model, flops, 2 * n.elements * n.bpe + vectors * n.channels * n.bpe);
}

OpWork backward(const Norm &n, std::string_view model)
{
    const double perChannel = n.elements / n.channels;
    const double flops = n.channels
        * ((n.training ? 0 : 3) + 4 * perChannel
            + (n.inputGrad ? (n.training ? 5 * perChannel : 0) : 2 * perChannel));
    double bytes = n.elements * n.bpe * (n.inputGrad && n.training ? 3 : 2);
    bytes += (n.training ? n.channels * n.bpe : 0)
        + (n.affine ? n.channels * n.bpe * (1 + (n.training ? (n.bias ? 2 : 1) : 0)) : 0);
    return workOf(n, model, flops, bytes);
}

OpWork rmsForward(const Norm &n)
{
    const double flops
        = n.elements / n.channels * (2 * n.channels + 2) + n.elements * (n.affine ? 2 : 1);
    return workOf(
        n, "rms_norm", flops, 2 * n.elements * n.bpe + (n.affine ? n.channels * n.bpe : 0));
}

OpWork rmsBackward(const Norm &n, bool weightGrad)
{
    double flops = (n.affine ? n.elements : 0) + n.elements + (n.inputGrad ? 6 * n.elements : 0);
    if (weightGrad && n.affine)
        flops += n.elements * (n.elements / n.channels > 1 ? 2 : 1);
    return workOf(
        n, "rms_norm_bwd", flops, 3 * n.elements * n.bpe + (n.affine ? 2 * n.channels * n.bpe : 0));
}

std::optional<OpWork> layerNorm(std::string_view op, const OpShapes &s)
{
    if (op == "aten::layer_norm" || op == "aten::native_layer_norm") {
        std::optional<Norm> n = normOf(s, 0, productOf(s.concreteOf(1)));
        if (!n)
            return std::nullopt;
        n->affine = hasShape(s, 2);
        n->bias = hasShape(s, 3);
        return forward(*n, "layer_norm");
    }
    // native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias,
    // output_mask)
    std::optional<Norm> n = normOf(s, 1, productOf(s.concreteOf(2)));
    const std::optional<std::vector<int64_t>> mask = parseConcreteList(s.concreteOf(7));
    if (!n || !mask || mask->size() != 3)
        return std::nullopt;
    n->inputGrad = (*mask)[0] != 0;
    n->affine = (*mask)[1] != 0;
    n->bias = (*mask)[2] != 0;
    return backward(*n, "layer_norm_bwd");
}

std::optional<OpWork> batchNorm(std::string_view op, const OpShapes &s)
{
    if (!op.ends_with("_backward")) { // (input, weight, bias, mean, var, training, …)
        std::optional<Norm> n = normOf(s, 0, dimOne(s, 0));
        if (!n || s.concrete.size() <= 5) // training unknown without Concrete Inputs
            return std::nullopt;
        n->affine = hasShape(s, 1);
        n->training = s.concreteOf(5) == "True";
        return forward(*n, "batch_norm");
    }
    if (op == "aten::native_batch_norm_backward") { // (grad, input, weight, …, train, eps, mask)
        std::optional<Norm> n = normOf(s, 1, dimOne(s, 1));
        if (!n || s.concrete.size() <= 7)
            return std::nullopt;
        n->affine = hasShape(s, 2);
        n->training = s.concreteOf(7) == "True";
        const std::optional<std::vector<int64_t>> mask = parseConcreteList(s.concreteOf(9));
        n->inputGrad = !mask || mask->empty() || mask->front() != 0;
        return backward(*n, "batch_norm_bwd");
    }
    // cudnn/miopen_batch_norm_backward(input, grad_output, weight, …): batch statistics saved in
    // training, the only place these run (TraceLens l. 4580 takes them as inference).
    std::optional<Norm> n = normOf(s, 0, dimOne(s, 0));
    if (!n)
        return std::nullopt;
    n->affine = hasShape(s, 2);
    return backward(*n, "batch_norm_bwd");
}

std::optional<OpWork> rmsNorm(std::string_view op, const OpShapes &s)
{
    if (op == "aten::_fused_rms_norm") { // (input, normalized_shape, weight, eps)
        std::optional<Norm> n = normOf(s, 0, productOf(s.concreteOf(1)));
        if (!n)
            return std::nullopt;
        n->affine = hasShape(s, 2);
        return rmsForward(*n);
    }
    // _fused_rms_norm_backward(grad_out, input, normalized_shape, rstd, weight, output_mask)
    std::optional<Norm> n = normOf(s, 1, productOf(s.concreteOf(2)));
    const std::optional<std::vector<int64_t>> mask = parseConcreteList(s.concreteOf(5));
    if (!n || !mask || mask->size() != 2)
        return std::nullopt;
    n->affine = hasShape(s, 4);
    n->inputGrad = (*mask)[0] != 0;
    return rmsBackward(*n, (*mask)[1] != 0);
}

} // namespace

bool normCovers(std::string_view op)
{
    return isLayerNorm(op) || isBatchNorm(op) || isRmsNorm(op);
}

std::optional<OpWork> normWork(std::string_view op, const OpShapes &shapes)
{
    if (isLayerNorm(op))
        return layerNorm(op, shapes);
    if (isBatchNorm(op))
        return batchNorm(op, shapes);
    if (isRmsNorm(op))
        return rmsNorm(op, shapes);
    return std::nullopt;
}

} // namespace ks
