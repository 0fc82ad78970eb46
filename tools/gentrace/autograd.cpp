// SPDX-License-Identifier: MIT
// Simulator: autograd nodes, the backward pass and non-reentrant activation checkpointing.
// Section marks (§4.1, …) refer to docs/linking.md.
#include "simulator.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace ks::gentrace {

namespace {

constexpr std::string_view kAccumulateGradWrapper
    = "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad";
constexpr std::string_view kAccumulateGrad = "torch::autograd::AccumulateGrad";

// torch.utils.checkpoint as the Python tracer records it (2.x layout, line numbers
// illustrative). checkpoint() is wrapped by @torch._disable_dynamo; the generator installs the
// saved-tensor hooks before the call and marks the forward complete after it; unpack_hook
// re-runs the region through recompute_fn.
constexpr std::string_view kCompileInnerFrame = "torch/_compile.py(51): inner";
constexpr std::string_view kDynamoFrame = "torch/_dynamo/eval_frame.py(838): _fn";
constexpr std::string_view kCheckpointFrame = "torch/utils/checkpoint.py(488): checkpoint";
constexpr std::string_view kGeneratorFrame
    = "torch/utils/checkpoint.py(1480): _checkpoint_without_reentrant_generator";
constexpr std::string_view kUnpackHookFrame = "torch/utils/checkpoint.py(1129): unpack_hook";
constexpr std::string_view kRecomputeFnFrame = "torch/utils/checkpoint.py(1517): recompute_fn";

//! Nodes that save sizes or scalars only (derivatives.yaml), so unpack no checkpointed tensor.
bool savesTensors(std::string_view node)
{
    constexpr std::array<std::string_view, 4> kNoTensors {
        "AddBackward0", "TBackward0", "TransposeBackward0", "ViewBackward0"};
    return std::find(kNoTensors.begin(), kNoTensors.end(), node) == kNoTensors.end();
}

} // namespace

void Simulator::createNode(std::string_view name,
    std::vector<Shape> gradShapes,
    std::function<void()> body,
    std::vector<Shape> gradients,
    std::function<void()> afterNode)
{
    assert(!m_current->stack.empty());
    const OpenSlice &creator = m_current->stack.back();
    // The creator recorded the current number; creating the node consumes it (§4.1).
    assert(
        creator.category == Category::CpuOp && creator.sequenceNumber == m_current->sequenceNumber);
    if (m_recompute.active) {
        // The recomputed graph only rebuilds saved tensors: its nodes never run, so no flow.
        ++m_autograd.sequenceNumber;
        return;
    }
    assert(m_current == &m_main);

    TraceEvent link;
    link.phase = Phase::FlowStart;
    link.category = Category::FwdBwd;
    link.pid = kHostPid;
    link.tid = kMainTid;
    link.ts = m_main.events[creator.index].ts;
    m_main.events.push_back(std::move(link));

    Node node;
    node.name = name;
    node.wrapperName = intern("autograd::engine::evaluate_function: " + std::string(name));
    node.sequenceNumber = m_main.sequenceNumber++;
    node.flowStartIndex = m_main.events.size() - 1;
    node.owner = creator.fwdOwner;
    node.gradDims = dimsJson(gradShapes);
    node.gradTypes += '['; // not = "[": GCC 12 warns falsely (-Wrestrict) once inlined
    for (size_t i = 0; i < gradShapes.size(); ++i)
        node.gradTypes += i ? ", \"float\"" : "\"float\"";
    node.gradTypes += ']';
    node.body = std::move(body);
    node.afterNode = std::move(afterNode);
    node.gradients = std::move(gradients);
    if (m_recordMemory) {
        // The tensors the node needs in backward, as big as the gradient it will produce.
        for (const Shape &shape : gradShapes)
            node.savedBytes += numel(shape) * 4; // float
        if (node.savedBytes > 0)
            node.savedAddress = allocate(node.savedBytes);
    }
    m_nodes.push_back(std::move(node));
}

void Simulator::runBackward()
{
    // The engine thread picks the graph up shortly after loss.backward() is called.
    m_autograd.now = std::max(m_autograd.now, m_main.now) + m_rng.range(15'000, 30'000);
    m_current = &m_autograd;
    // What each forward op still holds as the backward pass starts is what it left for backward.
    if (m_recordMemory) {
        for (size_t r = 0; r < m_liveForward.size(); ++r)
            m_rows[r].heldBytes = m_liveForward[r];
    }
    for (auto node = m_nodes.rbegin(); node != m_nodes.rend(); ++node) {
        // §4.2: evaluate_function wrapper and node both carry the number and Fwd thread id 1.
        const int64_t wrapperId = ++m_externalId;
        OpenSlice &wrapper
            = openCpuOp(node->wrapperName, cpuOpArgs(wrapperId, node->sequenceNumber, 1, {}, {}));
        wrapper.externalId = wrapperId;
        wrapper.bwdOwner = node->owner;

        const int64_t nodeId = ++m_externalId;
        OpenSlice &nodeSlice = openCpuOp(node->name,
            cpuOpArgs(nodeId, node->sequenceNumber, 1, node->gradDims, node->gradTypes));
        nodeSlice.externalId = nodeId;

        // §4.3: the flow ends on the node event, not on its wrapper; ids follow backward order.
        TraceEvent link;
        link.phase = Phase::FlowEnd;
        link.category = Category::FwdBwd;
        link.pid = kHostPid;
        link.tid = kAutogradTid;
        link.ts = m_autograd.events[nodeSlice.index].ts;
        link.flowId = ++m_fwdbwdId;
        m_autograd.events.push_back(std::move(link));
        m_main.events[node->flowStartIndex].flowId = m_fwdbwdId;
        ++m_flowPairs;

        PairRow &row = m_rows[node->owner];
        row.bwdNames.push_back(node->name);
        row.sequenceNumbers.push_back(node->sequenceNumber);

        // The activations the node needs were not kept: its region runs again first.
        if (node->region >= 0)
            recompute(m_regions[size_t(node->region)], node->owner);
        const bool tensors = m_recordMemory && node->savedBytes > 0;
        const int64_t gradient = tensors ? allocate(node->savedBytes) : 0;
        if (node->body)
            node->body();
        if (tensors)
            release(node->savedAddress);
        closeSlice();
        if (node->afterNode)
            node->afterNode();
        if (tensors)
            release(gradient);
        closeSlice();
        for (const Shape &shape : node->gradients)
            accumulateGrad(shape);
        work(1500, 5000);
    }
    m_nodes.clear();
    m_regions.clear();
    m_main.now = m_autograd.now + m_rng.range(10'000, 25'000);
    m_current = &m_main;
}

void Simulator::accumulateGrad(const Shape &shape)
{
    // No sequence number on AccumulateGrad (§4.1); zero_grad(set_to_none=False) leaves a
    // gradient to add into.
    const int64_t wrapperId = ++m_externalId;
    openCpuOp(kAccumulateGradWrapper, cpuOpArgs(wrapperId, -1, 0, {}, {})).externalId = wrapperId;
    const int64_t nodeId = ++m_externalId;
    openCpuOp(kAccumulateGrad, cpuOpArgs(nodeId, -1, 0, dimsJson({shape}), typesJson({"float"})))
        .externalId
        = nodeId;
    {
        Scope add = op(
            "aten::add_", dimsJson({shape, shape, {}}), typesJson({"float", "float", "Scalar"}));
        launchKernel(kernels::addTensors, kComputeStream, 1800 + numel(shape) / 125);
    }
    closeSlice();
    closeSlice();
}

void Simulator::checkpoint(std::function<void()> region)
{
    assert(m_current == &m_main);
    const size_t firstNode = m_nodes.size();
    CheckpointRegion entry;
    entry.firstRow = m_rows.size();
    {
        // Forward runs as usual with grad on: same ops, numbers and nodes; only the frames differ.
        Scope inner = pythonFrame(kCompileInnerFrame);
        Scope dynamo = pythonFrame(kDynamoFrame);
        Scope frame = pythonFrame(kCheckpointFrame);
        work(6'000, 12'000); // device RNG states, autocast arguments
        {
            Scope generator = pythonFrame(kGeneratorFrame);
            work(4'000, 9'000);
        }
        region();
        Scope generator = pythonFrame(kGeneratorFrame);
        work(1'000, 3'000);
    }
    entry.endRow = m_rows.size();
    entry.forward = std::move(region);

    // Backward reaches the region's last nodes first; the first to unpack a saved tensor
    // triggers the recomputation (nodes that save none run as usual before it).
    for (size_t i = m_nodes.size(); i-- > firstNode;) {
        if (savesTensors(m_nodes[i].name)) {
            m_nodes[i].region = int(m_regions.size());
            break;
        }
    }
    m_regions.push_back(std::move(entry));
}

void Simulator::recompute(const CheckpointRegion &region, int owner)
{
    assert(m_current == &m_autograd && !m_recompute.active);
    // Inside the node event (not its wrapper), before the node's own implementation. The GPU
    // work is recompute, charged to this node's row, never its backward time.
    Scope hook = pythonFrame(kUnpackHookFrame);
    m_autograd.stack.back().bwdOwner = -1;
    m_autograd.stack.back().recomputeOwner = owner;
    work(3'000, 7'000); // saved inputs, RNG state restore
    {
        Scope fn = pythonFrame(kRecomputeFnFrame);
        work(2'000, 5'000); // autocast contexts
        // torch.autograd.enable_grad(): the ops record numbers from this thread's own counter.
        m_autograd.gradMode = true;
        m_recompute = {true, m_autograd.openCpuOps, region.firstRow, region.endRow};
        region.forward();
        assert(m_recompute.nextRow == region.endRow);
        m_recompute.active = false;
        m_autograd.gradMode = false;
    }
    work(2'000, 5'000); // checks the recomputed tensors' metadata
}

} // namespace ks::gentrace
