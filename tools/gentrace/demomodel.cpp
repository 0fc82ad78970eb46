// SPDX-License-Identifier: MIT
// Section marks (§4.1, …) refer to docs/linking.md.
#include "demomodel.h"

#include <algorithm>

namespace ks::gentrace {

namespace {

constexpr int64_t kBatch = 32;
constexpr int64_t kTokens = 8;
constexpr int64_t kWidth = 64;
constexpr int64_t kHidden = 256;
constexpr int64_t kClasses = 10;
constexpr int64_t kImageBytes = kBatch * 3 * 32 * 32 * 4;
constexpr int64_t kLabelBytes = kBatch * 8;

constexpr std::string_view kDataLoader
    = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
constexpr std::string_view kOptimizerStep = "Optimizer.step#SGD.step";
constexpr std::string_view kZeroGrad = "Optimizer.zero_grad#SGD.zero_grad";

//! Memory-bound kernel time on an A100 (~1.5 TB/s, i.e. 1500 bytes/ns) plus a fixed cost.
int64_t elementwiseNs(const Shape &shape, int64_t bytesPerElement = 8)
{
    return 1500 + numel(shape) * bytesPerElement / 1500;
}

//! GEMM time at ~12 effective TFLOP/s (fp32 with TF32 off for linears).
int64_t gemmNs(int64_t m, int64_t n, int64_t k)
{
    return 3500 + 2 * m * n * k / 12'000;
}

//! Implicit-GEMM convolution at ~40 effective TFLOP/s (TF32 tensor cores).
int64_t convNs(const Shape &y, int64_t inChannels)
{
    return 8000 + 2 * numel(y) * inChannels * 9 / 40'000;
}

Shape withLast(Shape shape, int64_t last)
{
    shape.back() = last;
    return shape;
}

} // namespace

DemoModel::DemoModel(Simulator &sim, bool checkpointBlock)
    : m_sim(sim)
    , m_checkpointBlock(checkpointBlock)
{
    // Instance counters are per class in first-call order, as the profiler numbers them.
    constexpr std::string_view conv = "torch/nn/modules/conv.py(554): forward";
    constexpr std::string_view batchNorm = "torch/nn/modules/batchnorm.py(176): forward";
    constexpr std::string_view relu = "torch/nn/modules/activation.py(133): forward";
    constexpr std::string_view linear = "torch/nn/modules/linear.py(125): forward";
    constexpr std::string_view norm = "torch/nn/modules/normalization.py(217): forward";
    m_net = makeModule("DemoNet", "demo_model.py(61): forward");
    m_conv1 = makeModule("Conv2d", conv);
    m_bn1 = makeModule("BatchNorm2d", batchNorm);
    m_relu1 = makeModule("ReLU", relu);
    m_conv2 = makeModule("Conv2d", conv);
    m_bn2 = makeModule("BatchNorm2d", batchNorm);
    m_relu2 = makeModule("ReLU", relu);
    m_pool = makeModule("MaxPool2d", "torch/nn/modules/pooling.py(213): forward");
    m_flatten = makeModule("Flatten", "torch/nn/modules/flatten.py(53): forward");
    m_embed = makeModule("Linear", linear);
    m_block = makeModule("TransformerBlock", "demo_model.py(38): forward");
    m_ln1 = makeModule("LayerNorm", norm);
    m_attention = makeModule("SelfAttention", "demo_model.py(21): forward");
    m_query = makeModule("Linear", linear);
    m_key = makeModule("Linear", linear);
    m_value = makeModule("Linear", linear);
    m_dropout = makeModule("Dropout", "torch/nn/modules/dropout.py(70): forward");
    m_projection = makeModule("Linear", linear);
    m_ln2 = makeModule("LayerNorm", norm);
    m_fc1 = makeModule("Linear", linear);
    m_gelu = makeModule("GELU", "torch/nn/modules/activation.py(734): forward");
    m_fc2 = makeModule("Linear", linear);
    m_head = makeModule("Linear", linear);
    m_criterion = makeModule("CrossEntropyLoss", "torch/nn/modules/loss.py(1293): forward");
}

DemoModel::Module DemoModel::makeModule(const std::string &className, std::string_view frame)
{
    Module module;
    module.id = m_instances[className]++;
    module.name = m_sim.intern("nn.Module: " + className + "_" + std::to_string(module.id));
    module.frame = frame;
    return module;
}

Simulator::Scope DemoModel::enter(const Module &module)
{
    m_sim.work(2000, 6000); // Python attribute lookups and hooks before the call
    return m_sim.module(module.name, module.id, module.frame);
}

void DemoModel::trainStep(int number)
{
    m_sim.beginStep(number);
    loadBatch();
    m_sim.work(10'000, 30'000);
    forward();
    computeLoss();
    m_sim.work(5'000, 15'000);
    backward();
    optimizerStep();
    zeroGrad();
    logLoss();
    if (m_sim.kineto2026())
        evaluateWithGraph();
    // torch.cuda.synchronize() for timing: no op is active, so no External id (§5, 2.6+).
    m_sim.deviceSynchronize();
    m_sim.endStep();
    m_firstStep = false;
}

// ---------------------------------------------------------------------------------------------
// Data loading

void DemoModel::loadBatch()
{
    {
        Simulator::Scope next = m_sim.annotation(kDataLoader);
        m_sim.work(15'000, 30'000); // sampler and Dataset.__getitem__ in Python
        if (!m_firstStep)
            m_sim.memoryEvent(-kImageBytes, false); // the previous batch is released
        // default_collate: torch.stack per field, with grad mode on (numbers, no nodes).
        for (const bool images : {true, false}) {
            Simulator::Scope stack = m_sim.op("aten::stack", dimsJson({{}, {}}),
                typesJson({"TensorList", "Scalar"}), Seq::Record);
            {
                Simulator::Scope empty = m_sim.op("aten::empty", dimsJson({{}, {}, {}, {}, {}, {}}),
                    typesJson({"ScalarList", "Scalar", "Scalar", "Device", "Scalar", "Scalar"}));
                if (images)
                    m_sim.memoryEvent(kImageBytes, false);
            }
            Simulator::Scope cat
                = m_sim.op("aten::cat", dimsJson({{}, {}}), typesJson({"TensorList", "Scalar"}));
            m_sim.work(images ? 55'000 : 3'000, images ? 80'000 : 5'000); // copies the samples
        }
    }
    copyToDevice({kBatch, 3, 32, 32}, "float", kImageBytes);
    copyToDevice({kBatch}, "long int", kLabelBytes);
}

void DemoModel::copyToDevice(const Shape &shape, std::string_view type, int64_t bytes)
{
    // .to("cuda") from pageable memory: a blocking copy, so copy_ also synchronizes.
    Simulator::Scope to = m_sim.op("aten::to", dimsJson({shape, {}, {}, {}, {}, {}, {}, {}}),
        typesJson({type, "Scalar", "Scalar", "Device", "Scalar", "Scalar", "Scalar", ""}),
        Seq::Record);
    Simulator::Scope toCopy = m_sim.op("aten::_to_copy", dimsJson({shape, {}, {}, {}, {}, {}, {}}),
        typesJson({type, "Scalar", "Scalar", "Device", "Scalar", "Scalar", ""}), Seq::Record);
    {
        Simulator::Scope empty = m_sim.op("aten::empty_strided", dimsJson({{}, {}, {}, {}, {}, {}}),
            typesJson({"ScalarList", "ScalarList", "Scalar", "Scalar", "Device", "Scalar"}));
        if (bytes == kImageBytes)
            m_sim.memoryEvent(bytes, true);
    }
    Simulator::Scope copy
        = m_sim.op("aten::copy_", dimsJson({shape, shape, {}}), typesJson({type, type, "Scalar"}));
    m_sim.memcpyHostToDevice(bytes);
    m_sim.streamSynchronize(kComputeStream);
}

// ---------------------------------------------------------------------------------------------
// Forward

void DemoModel::forward()
{
    Simulator::Scope net = enter(m_net);
    conv2d(m_conv1, {kBatch, 3, 32, 32}, 32, false);
    batchNorm2d(m_bn1, {kBatch, 32, 32, 32});
    relu(m_relu1, {kBatch, 32, 32, 32});
    conv2d(m_conv2, {kBatch, 32, 32, 32}, 64, true);
    batchNorm2d(m_bn2, {kBatch, 64, 32, 32});
    relu(m_relu2, {kBatch, 64, 32, 32});
    maxPool2d(m_pool, {kBatch, 64, 32, 32});
    flatten(m_flatten, {kBatch, 64, 16, 16});
    linear(m_embed, {kBatch, 64 * 16 * 16}, kTokens * kWidth, kernels::sgemmEmbed,
        &kernels::splitKReduce);

    // x.view(B, tokens, width) in DemoNet.forward itself: a display op owned by DemoNet_0.
    const Shape tokens {kBatch, kTokens, kWidth};
    {
        Simulator::Scope view = m_sim.op("aten::view", dimsJson({{kBatch, kTokens * kWidth}, {}}),
            typesJson({"float", "ScalarList"}), Seq::Record);
        m_sim.createNode("ViewBackward0", {tokens}, [this] { reshape({kBatch, kTokens, kWidth}); });
    }
    if (m_checkpointBlock)
        m_sim.checkpoint([this, tokens] { transformerBlock(tokens); });
    else
        transformerBlock(tokens);
    {
        Simulator::Scope mean = m_sim.op("aten::mean", dimsJson({tokens, {}, {}, {}}),
            typesJson({"float", "ScalarList", "Scalar", ""}), Seq::Record);
        m_sim.createNode("MeanBackward1", {{kBatch, kWidth}}, [this, tokens] {
            {
                Simulator::Scope expand
                    = m_sim.op("aten::expand", dimsJson({{kBatch, 1, kWidth}, {}, {}}),
                        typesJson({"float", "ScalarList", "Scalar"}));
                m_sim.leaf("aten::as_strided", dimsJson({{kBatch, 1, kWidth}, {}, {}, {}}),
                    typesJson({"float", "ScalarList", "ScalarList", "Scalar"}));
            }
            elementwise("aten::div", tokens, dimsJson({tokens, {}}), typesJson({"float", "Scalar"}),
                kernels::divScalar);
        });
        m_sim.work(3000, 6000);
        m_sim.launchKernel(kernels::meanReduce);
    }
    linear(m_head, {kBatch, kWidth}, kClasses, kernels::sgemmSmall);
}

void DemoModel::conv2d(
    const Module &module, const Shape &x, int64_t outChannels, bool inputNeedsGrad)
{
    const Shape w {outChannels, x[1], 3, 3};
    const Shape bias {outChannels};
    const Shape y {x[0], outChannels, x[2], x[3]};
    Simulator::Scope scope = enter(module);
    // 2.x: conv2d and convolution carry N, convolution creates the node (§4.1).
    Simulator::Scope conv2dOp = m_sim.op("aten::conv2d", dimsJson({x, w, bias, {}, {}, {}, {}}),
        typesJson({"float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "Scalar"}),
        Seq::Record);
    Simulator::Scope convolution
        = m_sim.op("aten::convolution", dimsJson({x, w, bias, {}, {}, {}, {}, {}, {}}),
            typesJson({"float", "float", "float", "ScalarList", "ScalarList", "ScalarList",
                "Scalar", "ScalarList", "Scalar"}),
            Seq::Record,
            // stride 1, padding 1 (3×3, same size), dilation 1, not transposed, one group
            typesJson({"", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"}));
    m_sim.createNode("ConvolutionBackward0", {y},
        [this, x, w, y, inputNeedsGrad] { convolutionBackward(x, w, y, inputNeedsGrad); },
        {w, bias});
    Simulator::Scope impl = m_sim.op("aten::_convolution",
        dimsJson({x, w, bias, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}),
        typesJson({"float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "Scalar",
            "ScalarList", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"}));
    {
        Simulator::Scope cudnn
            = m_sim.op("aten::cudnn_convolution", dimsJson({x, w, {}, {}, {}, {}, {}, {}, {}}),
                typesJson({"float", "float", "ScalarList", "ScalarList", "ScalarList", "Scalar",
                    "Scalar", "Scalar", "Scalar"}));
        m_sim.leaf("aten::empty", dimsJson({{}, {}, {}, {}, {}, {}}),
            typesJson({"ScalarList", "Scalar", "Scalar", "Device", "Scalar", "Scalar"}));
        m_sim.work(6000, 14000); // cuDNN v8 heuristics and plan cache
        m_sim.launchKernel(kernels::nchwToNhwc, kComputeStream, elementwiseNs(x));
        m_sim.launchKernel(kernels::convFprop, kComputeStream, convNs(y, x[1]));
        m_sim.launchKernel(kernels::nhwcToNchw, kComputeStream, elementwiseNs(y));
    }
    // cudnn_convolution has no bias input; _convolution adds it in place.
    reshape(bias);
    elementwise("aten::add_", y, dimsJson({y, {1, outChannels, 1, 1}, {}}),
        typesJson({"float", "float", "Scalar"}), kernels::biasAdd);
}

void DemoModel::batchNorm2d(const Module &module, const Shape &x)
{
    const Shape c {x[1]};
    Simulator::Scope scope = enter(module);
    {
        // num_batches_tracked += 1: records N but has no grad input, so no node.
        Simulator::Scope add = m_sim.op("aten::add_", dimsJson({{}, {}, {}}),
            typesJson({"long int", "Scalar", "Scalar"}), Seq::Record);
        m_sim.launchKernel(kernels::addLongInPlace);
    }
    const std::string types = typesJson(
        {"float", "float", "float", "float", "float", "Scalar", "Scalar", "Scalar", "Scalar"});
    Simulator::Scope batchNorm
        = m_sim.op("aten::batch_norm", dimsJson({x, c, c, c, c, {}, {}, {}, {}}), types,
            Seq::Record, typesJson({"", "", "", "", "", "True", "0.1", "1e-05", "True"}));
    Simulator::Scope impl = m_sim.op("aten::_batch_norm_impl_index",
        dimsJson({x, c, c, c, c, {}, {}, {}, {}}), types, Seq::Record);
    m_sim.leaf("aten::empty", dimsJson({{}, {}, {}, {}, {}, {}}),
        typesJson({"ScalarList", "Scalar", "Scalar", "Device", "Scalar", "Scalar"}));
    Simulator::Scope cudnn
        = m_sim.op("aten::cudnn_batch_norm", dimsJson({x, c, c, c, c, {}, {}, {}}),
            typesJson({"float", "float", "float", "float", "float", "Scalar", "Scalar", "Scalar"}),
            Seq::Record);
    m_sim.createNode("CudnnBatchNormBackward0", {x}, [this, x] { batchNormBackward(x); }, {c, c});
    emptyLike(x);
    emptyLike(c);
    emptyLike(c);
    m_sim.launchKernel(kernels::bnForward, kComputeStream, elementwiseNs(x, 12));
}

void DemoModel::relu(const Module &module, const Shape &x)
{
    Simulator::Scope scope = enter(module);
    Simulator::Scope reluOp
        = m_sim.op("aten::relu_", dimsJson({x}), typesJson({"float"}), Seq::Record);
    m_sim.createNode("ReluBackward0", {x}, [this, x] {
        elementwise("aten::threshold_backward", x, dimsJson({x, x, {}}),
            typesJson({"float", "float", "Scalar"}), kernels::reluBackward);
    });
    elementwise("aten::clamp_min_", x, dimsJson({x, {}}), typesJson({"float", "Scalar"}),
        kernels::reluInPlace);
}

void DemoModel::maxPool2d(const Module &module, const Shape &x)
{
    const Shape y {x[0], x[1], x[2] / 2, x[3] / 2};
    const std::string dims = dimsJson({x, {}, {}, {}, {}, {}});
    const std::string types
        = typesJson({"float", "ScalarList", "ScalarList", "ScalarList", "ScalarList", "Scalar"});
    Simulator::Scope scope = enter(module);
    Simulator::Scope pool = m_sim.op("aten::max_pool2d", dims, types, Seq::Record);
    Simulator::Scope withIndices
        = m_sim.op("aten::max_pool2d_with_indices", dims, types, Seq::Record);
    m_sim.createNode("MaxPool2DWithIndicesBackward0", {y}, [this, x, y] { maxPoolBackward(x, y); });
    m_sim.leaf("aten::empty", dimsJson({{}, {}, {}, {}, {}, {}}),
        typesJson({"ScalarList", "Scalar", "Scalar", "Device", "Scalar", "Scalar"}));
    m_sim.leaf("aten::empty", dimsJson({{}, {}, {}, {}, {}, {}}),
        typesJson({"ScalarList", "Scalar", "Scalar", "Device", "Scalar", "Scalar"}));
    m_sim.launchKernel(kernels::maxPoolForward, kComputeStream, elementwiseNs(x, 4));
}

void DemoModel::flatten(const Module &module, const Shape &x)
{
    const Shape y {x[0], numel(x) / x[0]};
    Simulator::Scope scope = enter(module);
    // flatten is composite: it shares N with the view that creates the node.
    Simulator::Scope flattenOp = m_sim.op("aten::flatten", dimsJson({x, {}, {}}),
        typesJson({"float", "Scalar", "Scalar"}), Seq::Record);
    Simulator::Scope view = m_sim.op(
        "aten::view", dimsJson({x, {}}), typesJson({"float", "ScalarList"}), Seq::Record);
    m_sim.createNode("ViewBackward0", {y}, [this, y] { reshape(y); });
}

void DemoModel::linear(const Module &module,
    const Shape &x,
    int64_t outFeatures,
    const KernelSpec &gemm,
    const KernelSpec *splitKReduce)
{
    const int64_t inFeatures = x.back();
    const Shape weight {outFeatures, inFeatures};
    const Shape bias {outFeatures};
    const Shape flat {numel(x) / inFeatures, inFeatures};
    const Shape flatOut {flat[0], outFeatures};
    const bool folded = x.size() > 2;

    Simulator::Scope scope = enter(module);
    Simulator::Scope linearOp = m_sim.op("aten::linear", dimsJson({x, weight, bias}),
        typesJson({"float", "float", "float"}), Seq::Record);
    if (folded) {
        // _flatten_nd_linear (2.1+): reshape to 2-D, addmm, view back; each view is a node.
        Simulator::Scope reshapeOp = m_sim.op(
            "aten::reshape", dimsJson({x, {}}), typesJson({"float", "ScalarList"}), Seq::Record);
        Simulator::Scope view = m_sim.op(
            "aten::view", dimsJson({x, {}}), typesJson({"float", "ScalarList"}), Seq::Record);
        m_sim.createNode("ViewBackward0", {flat}, [this, flat] { reshape(flat); });
    }
    {
        // weight.t() creates TBackward0 with N; addmm then records N + 1.
        Simulator::Scope transposed
            = m_sim.op("aten::t", dimsJson({weight}), typesJson({"float"}), Seq::Record);
        m_sim.createNode("TBackward0", {{inFeatures, outFeatures}},
            [this, inFeatures, outFeatures] {
                t({inFeatures, outFeatures});
            },
            {weight});
        transpose(weight);
    }
    {
        Simulator::Scope addmm
            = m_sim.op("aten::addmm", dimsJson({bias, flat, {inFeatures, outFeatures}, {}, {}}),
                typesJson({"float", "float", "float", "Scalar", "Scalar"}), Seq::Record);
        m_sim.createNode(
            "AddmmBackward0", {flatOut}, [this, flat, weight] { addmmBackward(flat, weight); },
            {bias}, [this, flatOut] { biasGradient(flatOut); });
        m_sim.work(3000, 8000); // cuBLAS heuristics
        m_sim.launchKernel(gemm, kComputeStream, gemmNs(flat[0], outFeatures, inFeatures));
        if (splitKReduce)
            m_sim.launchKernel(*splitKReduce);
    }
    if (folded) {
        const Shape y = withLast(x, outFeatures);
        Simulator::Scope view = m_sim.op(
            "aten::view", dimsJson({flatOut, {}}), typesJson({"float", "ScalarList"}), Seq::Record);
        m_sim.createNode("ViewBackward0", {y}, [this, y] { reshape(y); });
    }
}

void DemoModel::layerNorm(const Module &module, const Shape &x)
{
    const Shape c {x.back()};
    Simulator::Scope scope = enter(module);
    Simulator::Scope layerNormOp = m_sim.op("aten::layer_norm", dimsJson({x, {}, c, c, {}, {}}),
        typesJson({"float", "ScalarList", "float", "float", "Scalar", "Scalar"}), Seq::Record);
    Simulator::Scope native = m_sim.op("aten::native_layer_norm", dimsJson({x, {}, c, c, {}}),
        typesJson({"float", "ScalarList", "float", "float", "Scalar"}), Seq::Record);
    m_sim.createNode("NativeLayerNormBackward0", {x}, [this, x] { layerNormBackward(x); }, {c, c});
    emptyLike(x);
    m_sim.leaf("aten::empty", dimsJson({{}, {}, {}, {}, {}, {}}),
        typesJson({"ScalarList", "Scalar", "Scalar", "Device", "Scalar", "Scalar"}));
    m_sim.leaf("aten::empty", dimsJson({{}, {}, {}, {}, {}, {}}),
        typesJson({"ScalarList", "Scalar", "Scalar", "Device", "Scalar", "Scalar"}));
    m_sim.launchKernel(kernels::layerNormForward);
}

void DemoModel::transformerBlock(const Shape &x)
{
    Simulator::Scope scope = enter(m_block);
    layerNorm(m_ln1, x);
    attention(x);
    residualAdd(x);
    layerNorm(m_ln2, x);
    linear(m_fc1, x, kHidden, kernels::sgemmMlp);
    gelu(m_gelu, withLast(x, kHidden));
    linear(m_fc2, withLast(x, kHidden), kWidth, kernels::sgemmMlp);
    residualAdd(x);
}

void DemoModel::attention(const Shape &x)
{
    const Shape keysT {x[0], x[2], x[1]};
    const Shape scores {x[0], x[1], x[1]};
    Simulator::Scope scope = enter(m_attention);
    linear(m_query, x, kWidth, kernels::sgemmSmall);
    linear(m_key, x, kWidth, kernels::sgemmSmall);
    linear(m_value, x, kWidth, kernels::sgemmSmall);
    {
        Simulator::Scope transposed = m_sim.op("aten::transpose", dimsJson({x, {}, {}}),
            typesJson({"float", "Scalar", "Scalar"}), Seq::Record);
        m_sim.createNode("TransposeBackward0", {keysT}, [this, keysT] { transpose(keysT); });
        m_sim.leaf("aten::as_strided", dimsJson({x, {}, {}, {}}),
            typesJson({"float", "ScalarList", "ScalarList", "Scalar"}));
    }
    {
        Simulator::Scope bmm = m_sim.op(
            "aten::bmm", dimsJson({x, keysT}), typesJson({"float", "float"}), Seq::Record);
        m_sim.createNode(
            "BmmBackward0", {scores}, [this, x, keysT, scores] { bmmBackward(x, keysT, scores); });
        m_sim.launchKernel(kernels::bmmForward);
    }
    {
        Simulator::Scope mul = m_sim.op(
            "aten::mul", dimsJson({scores, {}}), typesJson({"float", "Scalar"}), Seq::Record);
        m_sim.createNode("MulBackward0", {scores}, [this, scores] {
            elementwise("aten::mul", scores, dimsJson({scores, {}}), typesJson({"float", "Scalar"}),
                kernels::scaleMul);
        });
        m_sim.launchKernel(kernels::scaleMul);
    }
    {
        Simulator::Scope softmax = m_sim.op("aten::softmax", dimsJson({scores, {}, {}}),
            typesJson({"float", "Scalar", ""}), Seq::Record);
        Simulator::Scope impl = m_sim.op("aten::_softmax", dimsJson({scores, {}, {}}),
            typesJson({"float", "Scalar", "Scalar"}), Seq::Record);
        m_sim.createNode("SoftmaxBackward0", {scores}, [this, scores] {
            elementwise("aten::_softmax_backward_data", scores, dimsJson({scores, scores, {}, {}}),
                typesJson({"float", "float", "Scalar", "Scalar"}), kernels::softmaxBackward);
        });
        m_sim.launchKernel(kernels::softmaxForward);
    }
    {
        Simulator::Scope module = enter(m_dropout);
        Simulator::Scope dropout = m_sim.op("aten::dropout", dimsJson({scores, {}, {}}),
            typesJson({"float", "Scalar", "Scalar"}), Seq::Record);
        Simulator::Scope native = m_sim.op("aten::native_dropout", dimsJson({scores, {}, {}}),
            typesJson({"float", "Scalar", "Scalar"}), Seq::Record);
        m_sim.createNode("NativeDropoutBackward0", {scores, {}}, [this, scores] {
            elementwise("aten::native_dropout_backward", scores, dimsJson({scores, scores, {}}),
                typesJson({"float", "bool", "Scalar"}), kernels::dropoutBackward);
        });
        emptyLike(scores);
        m_sim.leaf("aten::empty", dimsJson({{}, {}, {}, {}, {}, {}}),
            typesJson({"ScalarList", "Scalar", "Scalar", "Device", "Scalar", "Scalar"}));
        m_sim.launchKernel(kernels::dropoutForward);
    }
    {
        Simulator::Scope bmm = m_sim.op(
            "aten::bmm", dimsJson({scores, x}), typesJson({"float", "float"}), Seq::Record);
        m_sim.createNode("BmmBackward0", {x}, [this, scores, x] { bmmBackward(scores, x, x); });
        m_sim.launchKernel(kernels::bmmForward);
    }
    linear(m_projection, x, kWidth, kernels::sgemmSmall);
}

void DemoModel::gelu(const Module &module, const Shape &x)
{
    Simulator::Scope scope = enter(module);
    Simulator::Scope geluOp
        = m_sim.op("aten::gelu", dimsJson({x, {}}), typesJson({"float", "str"}), Seq::Record);
    m_sim.createNode("GeluBackward0", {x}, [this, x] {
        elementwise("aten::gelu_backward", x, dimsJson({x, x, {}}),
            typesJson({"float", "float", "str"}), kernels::geluBackward);
    });
    m_sim.launchKernel(kernels::geluForward);
}

void DemoModel::residualAdd(const Shape &x)
{
    // x = x + f(x) in TransformerBlock.forward: AddBackward0 just passes gradients on.
    Simulator::Scope add = m_sim.op(
        "aten::add", dimsJson({x, x, {}}), typesJson({"float", "float", "Scalar"}), Seq::Record);
    m_sim.createNode("AddBackward0", {x}, {});
    m_sim.launchKernel(kernels::addTensors);
}

void DemoModel::computeLoss()
{
    const Shape logits {kBatch, kClasses};
    const std::string lossDims = dimsJson({logits, {kBatch}, {}, {}, {}});
    const std::string lossTypes = typesJson({"float", "long int", "", "Scalar", "Scalar"});
    Simulator::Scope scope = enter(m_criterion);
    Simulator::Scope crossEntropy
        = m_sim.op("aten::cross_entropy_loss", dimsJson({logits, {kBatch}, {}, {}, {}, {}}),
            typesJson({"float", "long int", "", "Scalar", "Scalar", "Scalar"}), Seq::Record);
    {
        Simulator::Scope logSoftmax = m_sim.op("aten::log_softmax", dimsJson({logits, {}, {}}),
            typesJson({"float", "Scalar", ""}), Seq::Record);
        Simulator::Scope impl = m_sim.op("aten::_log_softmax", dimsJson({logits, {}, {}}),
            typesJson({"float", "Scalar", "Scalar"}), Seq::Record);
        m_sim.createNode("LogSoftmaxBackward0", {logits}, [this, logits] {
            elementwise("aten::_log_softmax_backward_data", logits,
                dimsJson({logits, logits, {}, {}}),
                typesJson({"float", "float", "Scalar", "Scalar"}), kernels::logSoftmaxBackward);
        });
        m_sim.launchKernel(kernels::logSoftmaxForward);
    }
    Simulator::Scope nd = m_sim.op("aten::nll_loss_nd", lossDims, lossTypes, Seq::Record);
    Simulator::Scope nll = m_sim.op("aten::nll_loss", lossDims, lossTypes, Seq::Record);
    Simulator::Scope impl = m_sim.op("aten::nll_loss_forward", lossDims, lossTypes, Seq::Record);
    m_sim.createNode("NllLossBackward0", {{}}, [this, logits] {
        Simulator::Scope backward
            = m_sim.op("aten::nll_loss_backward", dimsJson({{}, logits, {kBatch}, {}, {}, {}, {}}),
                typesJson({"float", "float", "long int", "", "Scalar", "Scalar", "float"}));
        zeroFill(logits);
        m_sim.launchKernel(kernels::nllLossBackward);
    });
    m_sim.leaf("aten::empty", dimsJson({{}, {}, {}, {}, {}, {}}),
        typesJson({"ScalarList", "Scalar", "Scalar", "Device", "Scalar", "Scalar"}));
    m_sim.launchKernel(kernels::nllLossForward);
}

// ---------------------------------------------------------------------------------------------
// Backward, optimizer, logging

void DemoModel::backward()
{
    {
        // torch.autograd.backward seeds the graph with ones_like(loss) on the calling thread.
        Simulator::Scope ones = m_sim.op("aten::ones_like", dimsJson({{}, {}, {}, {}, {}, {}}),
            typesJson({"float", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"}), Seq::Record);
        emptyLike({});
        Simulator::Scope fill
            = m_sim.op("aten::fill_", dimsJson({{}, {}}), typesJson({"float", "Scalar"}));
        m_sim.launchKernel(kernels::fill);
    }
    m_sim.runBackward();
}

void DemoModel::convolutionBackward(
    const Shape &x, const Shape &w, const Shape &y, bool inputNeedsGrad)
{
    std::string biasSizes(1, '[');
    biasSizes += std::to_string(w[0]);
    biasSizes += ']';
    Simulator::Scope backward = m_sim.op("aten::convolution_backward",
        dimsJson({y, x, w, {w[0]}, {}, {}, {}, {}, {}, {}, {}}),
        typesJson({"float", "float", "float", "ScalarList", "ScalarList", "ScalarList",
            "ScalarList", "Scalar", "ScalarList", "Scalar", "ScalarList"}),
        Seq::None,
        typesJson({"", "", "", biasSizes, "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1",
            inputNeedsGrad ? "[True, True, True]" : "[False, True, True]"}));
    m_sim.work(8000, 15000);
    if (inputNeedsGrad) {
        m_sim.launchKernel(kernels::nchwToNhwc, kComputeStream, elementwiseNs(y));
        m_sim.launchKernel(kernels::convDgrad, kComputeStream, convNs(x, w[0]));
    }
    // Split-K weight gradient: cuDNN zeroes its partial-sum workspace first.
    m_sim.memsetAsync(numel(w) * 4 * 8);
    m_sim.launchKernel(kernels::convWgrad, kComputeStream, convNs(y, x[1]));
    {
        Simulator::Scope sum = m_sim.op("aten::sum", dimsJson({y, {}, {}, {}}),
            typesJson({"float", "ScalarList", "Scalar", ""}), Seq::None,
            typesJson({"", "[0, 2, 3]", "False", ""}));
        m_sim.launchKernel(kernels::sumReduce, kComputeStream, elementwiseNs(y, 4));
    }
    if (!inputNeedsGrad)
        m_sim.memoryEvent(-kImageBytes, true); // the input batch is no longer referenced
}

void DemoModel::batchNormBackward(const Shape &x)
{
    const Shape c {x[1]};
    Simulator::Scope backward
        = m_sim.op("aten::cudnn_batch_norm_backward", dimsJson({x, x, c, c, c, c, c, {}, {0}}),
            typesJson({"float", "float", "float", "float", "float", "float", "float", "Scalar",
                "unsigned char"}));
    emptyLike(x);
    emptyLike(c);
    emptyLike(c);
    m_sim.launchKernel(kernels::bnBackward, kComputeStream, elementwiseNs(x, 16));
}

void DemoModel::addmmBackward(const Shape &input, const Shape &weight)
{
    const int64_t rows = input[0];
    const int64_t in = weight[1];
    const int64_t out = weight[0];
    t(weight);
    {
        Simulator::Scope mm
            = m_sim.op("aten::mm", dimsJson({{rows, out}, weight}), typesJson({"float", "float"}));
        m_sim.launchKernel(kernels::sgemmGradInput, kComputeStream, gemmNs(rows, in, out));
    }
    t({rows, out});
    {
        Simulator::Scope mm
            = m_sim.op("aten::mm", dimsJson({{out, rows}, input}), typesJson({"float", "float"}));
        m_sim.launchKernel(kernels::sgemmGradWeight, kComputeStream, gemmNs(out, in, rows));
    }
    t({out, in});
}

void DemoModel::biasGradient(const Shape &output)
{
    // Reduces the bias gradient outside the node event, inside its evaluate_function wrapper.
    {
        Simulator::Scope sum = m_sim.op("aten::sum", dimsJson({output, {}, {}, {}}),
            typesJson({"float", "ScalarList", "Scalar", ""}));
        m_sim.launchKernel(kernels::sumReduce, kComputeStream, elementwiseNs(output, 4));
    }
    m_sim.leaf("aten::view", dimsJson({{1, output[1]}, {}}), typesJson({"float", "ScalarList"}));
}

void DemoModel::maxPoolBackward(const Shape &x, const Shape &y)
{
    Simulator::Scope backward = m_sim.op("aten::max_pool2d_with_indices_backward",
        dimsJson({y, x, {}, {}, {}, {}, {}, y}),
        typesJson({"float", "float", "ScalarList", "ScalarList", "ScalarList", "ScalarList",
            "Scalar", "long int"}));
    emptyLike(x);
    zeroFill(x);
    m_sim.launchKernel(kernels::maxPoolBackward, kComputeStream, elementwiseNs(x, 6));
}

void DemoModel::layerNormBackward(const Shape &x)
{
    const Shape c {x.back()};
    const Shape stats {x[0], x[1], 1};
    Simulator::Scope backward = m_sim.op("aten::native_layer_norm_backward",
        dimsJson({x, x, {}, stats, stats, c, c, {}}),
        typesJson(
            {"float", "float", "ScalarList", "float", "float", "float", "float", "ScalarList"}));
    emptyLike(x);
    emptyLike(c);
    emptyLike(c);
    m_sim.launchKernel(kernels::layerNormGradInput);
    m_sim.launchKernel(kernels::layerNormGammaBeta);
}

void DemoModel::bmmBackward(const Shape &a, const Shape &b, const Shape &out)
{
    transpose(b);
    {
        Simulator::Scope bmm = m_sim.op(
            "aten::bmm", dimsJson({out, {b[0], b[2], b[1]}}), typesJson({"float", "float"}));
        m_sim.launchKernel(kernels::bmmBackward);
    }
    transpose(a);
    {
        Simulator::Scope bmm = m_sim.op(
            "aten::bmm", dimsJson({{a[0], a[2], a[1]}, out}), typesJson({"float", "float"}));
        m_sim.launchKernel(kernels::bmmBackward);
    }
}

void DemoModel::optimizerStep()
{
    // SGD with momentum, foreach implementation, under no_grad: ops carry no numbers. The
    // update runs on a side stream that first waits for the backward stream.
    Simulator::Scope step = m_sim.annotation(kOptimizerStep);
    m_sim.work(20'000, 40'000);
    m_sim.streamWaitStream(kSideStream, kComputeStream);
    {
        Simulator::Scope mul = m_sim.op(
            "aten::_foreach_mul_", dimsJson({{}, {}}), typesJson({"TensorList", "Scalar"}));
        m_sim.launchKernel(kernels::foreachMul, kSideStream);
        m_sim.launchKernel(kernels::foreachMul, kSideStream, 4'000);
    }
    for (int i = 0; i < 2; ++i) {
        Simulator::Scope add = m_sim.op("aten::_foreach_add_", dimsJson({{}, {}, {}}),
            typesJson({"TensorList", "TensorList", "Scalar"}));
        m_sim.launchKernel(kernels::foreachAdd, kSideStream);
        m_sim.launchKernel(kernels::foreachAdd, kSideStream, 5'000);
    }
    m_sim.streamWaitStream(kComputeStream, kSideStream);
}

void DemoModel::zeroGrad()
{
    // set_to_none=False keeps gradients, hence AccumulateGrad's add_ in the next backward.
    Simulator::Scope annotation = m_sim.annotation(kZeroGrad);
    m_sim.work(8'000, 15'000);
    Simulator::Scope zero
        = m_sim.op("aten::_foreach_zero_", dimsJson({{}}), typesJson({"TensorList"}), Seq::Record);
    m_sim.launchKernel(kernels::foreachZero);
    m_sim.launchKernel(kernels::foreachZero, kComputeStream, 3'000);
}

void DemoModel::evaluateWithGraph()
{
    // An eval pass replayed from a CUDA graph, as vLLM's decode does: no op around the launch.
    Simulator::Scope frame = m_sim.pythonFrame("vllm/compilation/cuda_graph.py(208): __call__");
    m_sim.graphReplay(1,
        {kernels::nchwToNhwc, kernels::convFprop, kernels::biasAdd, kernels::reluInPlace,
            kernels::maxPoolForward});
}

void DemoModel::logLoss()
{
    // running_loss += loss.item(): a device-to-host copy that waits for the stream.
    m_sim.work(5'000, 12'000);
    Simulator::Scope item
        = m_sim.op("aten::item", dimsJson({{}}), typesJson({"float"}), Seq::Record);
    Simulator::Scope dense
        = m_sim.op("aten::_local_scalar_dense", dimsJson({{}}), typesJson({"float"}), Seq::Record);
    m_sim.memcpyDeviceToHost(4);
    m_sim.streamSynchronize(kComputeStream);
}

// ---------------------------------------------------------------------------------------------
// Shared pieces

void DemoModel::transpose(const Shape &x)
{
    Simulator::Scope transposeOp = m_sim.op(
        "aten::transpose", dimsJson({x, {}, {}}), typesJson({"float", "Scalar", "Scalar"}));
    m_sim.leaf("aten::as_strided", dimsJson({x, {}, {}, {}}),
        typesJson({"float", "ScalarList", "ScalarList", "Scalar"}));
}

void DemoModel::t(const Shape &x)
{
    Simulator::Scope tOp = m_sim.op("aten::t", dimsJson({x}), typesJson({"float"}));
    transpose(x);
}

void DemoModel::reshape(const Shape &from, Seq seq)
{
    Simulator::Scope reshapeOp
        = m_sim.op("aten::reshape", dimsJson({from, {}}), typesJson({"float", "ScalarList"}), seq);
    m_sim.leaf("aten::view", dimsJson({from, {}}), typesJson({"float", "ScalarList"}), seq);
}

void DemoModel::emptyLike(const Shape &x)
{
    Simulator::Scope emptyLikeOp = m_sim.op("aten::empty_like", dimsJson({x, {}, {}, {}, {}, {}}),
        typesJson({"float", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"}));
    m_sim.leaf("aten::empty_strided", dimsJson({{}, {}, {}, {}, {}, {}}),
        typesJson({"ScalarList", "ScalarList", "Scalar", "Scalar", "Device", "Scalar"}));
}

void DemoModel::zeroFill(const Shape &x)
{
    Simulator::Scope zero = m_sim.op("aten::zero_", dimsJson({x}), typesJson({"float"}));
    Simulator::Scope fill
        = m_sim.op("aten::fill_", dimsJson({x, {}}), typesJson({"float", "Scalar"}));
    m_sim.launchKernel(kernels::fill, kComputeStream, elementwiseNs(x, 4));
}

void DemoModel::elementwise(std::string_view name,
    const Shape &x,
    std::string dims,
    std::string types,
    const KernelSpec &kernel)
{
    Simulator::Scope op = m_sim.op(name, std::move(dims), std::move(types));
    m_sim.launchKernel(kernel, kComputeStream, std::max(kernel.durationNs / 2, elementwiseNs(x)));
}

} // namespace ks::gentrace
