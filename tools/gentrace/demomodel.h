// SPDX-License-Identifier: MIT
#pragma once

#include "simulator.h"

#include <map>
#include <string>
#include <string_view>

namespace ks::gentrace {

/*!
 * The training loop being "profiled": a small CNN (conv-bn-relu twice, max pool, flatten,
 * linear) feeding a one-block transformer (layer norm, q/k/v attention with bmm, softmax and
 * dropout, GELU MLP, residual adds), mean pooling, a classifier and cross entropy, trained by
 * SGD with momentum. Op nesting, sequence numbers and autograd nodes follow PyTorch 2.x.
 * With \a checkpointBlock the transformer block runs under non-reentrant activation
 * checkpointing (torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)).
 */
class DemoModel {
public:
    explicit DemoModel(Simulator &sim, bool checkpointBlock = false);

    //! One iteration inside ProfilerStep#number: data, forward, loss, backward, SGD, zero_grad.
    void trainStep(int number);

private:
    struct Module {
        std::string_view name; //!< "nn.Module: Linear_3"
        int id = 0; //!< per-class instance counter, also "Python module id"
        std::string_view frame; //!< the forward() frame under _call_impl
    };

    Module makeModule(const std::string &className, std::string_view frame);
    [[nodiscard]] Simulator::Scope enter(const Module &module);

    // Training loop phases.
    void loadBatch();
    void copyToDevice(const Shape &shape, std::string_view type, int64_t bytes);
    void forward();
    void computeLoss();
    void backward();
    void optimizerStep();
    void zeroGrad();
    void evaluateWithGraph();
    void logLoss();

    // Layers (forward) with the autograd nodes they create.
    void conv2d(const Module &module, const Shape &x, int64_t outChannels, bool inputNeedsGrad);
    void batchNorm2d(const Module &module, const Shape &x);
    void relu(const Module &module, const Shape &x);
    void maxPool2d(const Module &module, const Shape &x);
    void flatten(const Module &module, const Shape &x);
    void linear(const Module &module,
        const Shape &x,
        int64_t outFeatures,
        const KernelSpec &gemm,
        const KernelSpec *splitKReduce = nullptr);
    void layerNorm(const Module &module, const Shape &x);
    void transformerBlock(const Shape &x);
    void attention(const Shape &x);
    void gelu(const Module &module, const Shape &x);
    void residualAdd(const Shape &x);

    // Backward bodies (run on the autograd thread).
    void convolutionBackward(const Shape &x, const Shape &w, const Shape &y, bool inputNeedsGrad);
    void batchNormBackward(const Shape &x);
    void addmmBackward(const Shape &input, const Shape &weight);
    void biasGradient(const Shape &output);
    void maxPoolBackward(const Shape &x, const Shape &y);
    void layerNormBackward(const Shape &x);
    void bmmBackward(const Shape &a, const Shape &b, const Shape &out);

    // Small pieces shared by forward and backward.
    void transpose(const Shape &x);
    void t(const Shape &x);
    void reshape(const Shape &from, Seq seq = Seq::None);
    void emptyLike(const Shape &x);
    void zeroFill(const Shape &x);
    void elementwise(std::string_view name,
        const Shape &x,
        std::string dims,
        std::string types,
        const KernelSpec &kernel);

    Simulator &m_sim;
    std::map<std::string, int> m_instances;
    bool m_firstStep = true;
    bool m_checkpointBlock = false;

    Module m_net;
    Module m_conv1, m_bn1, m_relu1, m_conv2, m_bn2, m_relu2, m_pool, m_flatten, m_embed;
    Module m_block, m_ln1, m_attention, m_query, m_key, m_value, m_dropout, m_projection;
    Module m_ln2, m_fc1, m_gelu, m_fc2;
    Module m_head, m_criterion;
};

} // namespace ks::gentrace
