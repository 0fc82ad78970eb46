// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ks::gentrace {

//! What a CUDA kernel record carries: name, launch geometry and a nominal duration.
struct KernelSpec {
    std::string_view name;
    int64_t durationNs;
    std::array<int, 3> grid;
    std::array<int, 3> block;
    int registersPerThread;
    int sharedMemory;
    int occupancy; //!< "est. achieved occupancy %"
};

/*!
 * Kernels of the demo model, with names in the style of cuDNN, cuBLAS and ATen symbols on an
 * A100 (sm80). Durations are plausible for batch 32 in fp32, not measured.
 */
namespace kernels {

// Convolution (cuDNN runtime-fused engines transpose to NHWC around an implicit GEMM).
inline constexpr KernelSpec nchwToNhwc {
    "void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true, "
    "(cudnnKernelDataType_t)2>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, float "
    "const*, float*)",
    9000, {256, 1, 32}, {32, 8, 1}, 24, 4224, 88};
inline constexpr KernelSpec convFprop {
    "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x64x16_stage5_"
    "warpsize2x2x1_g1_tensor16x8x8_execute_kernel__5x_cudnn",
    62000, {512, 1, 1}, {128, 1, 1}, 168, 40960, 24};
inline constexpr KernelSpec nhwcToNchw {
    "void cudnn::engines_precompiled::nhwcToNchwKernel<float, float, float, true, false, "
    "(cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nhwc2nchw_params_t<float>, float "
    "const*, float*)",
    11000, {32, 1, 32}, {256, 1, 1}, 22, 4224, 90};
inline constexpr KernelSpec convDgrad {
    "sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x64x16_stage4_"
    "warpsize2x2x1_g1_tensor16x8x8_execute_kernel__5x_cudnn",
    71000, {512, 1, 1}, {128, 1, 1}, 170, 36864, 23};
inline constexpr KernelSpec convWgrad {
    "sm80_xmma_wgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x64x16_stage4_"
    "warpsize2x2x1_g1_tensor16x8x8_execute_kernel__5x_cudnn",
    84000, {2, 1, 48}, {128, 1, 1}, 182, 36864, 12};

// Batch norm, activations, pooling.
inline constexpr KernelSpec bnForward {
    "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1, "
    "true>(cudnnTensorStruct, "
    "float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, "
    "float*, float*, float*, float, float)",
    17000, {64, 8, 1}, {512, 1, 1}, 32, 8192, 92};
inline constexpr KernelSpec bnBackward {
    "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, float, "
    "float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, "
    "float*, float const*, float*, float*, float const*, float const*, float)",
    26000, {64, 8, 1}, {512, 1, 1}, 40, 8448, 90};
inline constexpr KernelSpec addLongInPlace {
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<long>, "
    "at::detail::Array<char*, 2> >(int, at::native::CUDAFunctorOnSelf_add<long>, "
    "at::detail::Array<char*, 2>)",
    1500, {1, 1, 1}, {128, 1, 1}, 18, 0, 1};
inline constexpr KernelSpec biasAdd {
    "void at::native::elementwise_kernel<128, 2, "
    "at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<float> "
    ">(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, "
    "at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<float> "
    ">(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1})",
    12000, {8192, 1, 1}, {128, 1, 1}, 30, 0, 84};
inline constexpr KernelSpec reluInPlace {
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
    "namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
    "at::native::detail::ClampLimits)::{lambda()#1}::operator()() "
    "const::{lambda()#7}::operator()() "
    "const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous "
    "namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
    "at::native::detail::ClampLimits)::{lambda()#1}::operator()() "
    "const::{lambda()#7}::operator()() "
    "const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
    8000, {2048, 1, 1}, {128, 1, 1}, 20, 0, 86};
inline constexpr KernelSpec reluBackward {
    "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, "
    "float, at::native::(anonymous "
    "namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, "
    "float, float)::{lambda(float, float)#1}>, at::detail::Array<char*, 3> >(int, "
    "at::native::BinaryFunctor<float, float, float, at::native::(anonymous "
    "namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, "
    "float)::{lambda(float, "
    "float)#1}>, at::detail::Array<char*, 3>)",
    11000, {2048, 1, 1}, {128, 1, 1}, 24, 0, 85};
inline constexpr KernelSpec maxPoolForward {
    "void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>(int, float "
    "const*, "
    "long, long, long, int, int, int, int, int, int, int, int, int, int, float*, long*)",
    9500, {1024, 1, 1}, {256, 1, 1}, 38, 0, 80};
inline constexpr KernelSpec maxPoolBackward {
    "void at::native::(anonymous namespace)::max_pool_backward_nchw<float, float>(float const*, "
    "long "
    "const*, int, long, long, long, int, int, int, int, int, int, int, int, int, int, float*)",
    14000, {2048, 1, 1}, {256, 1, 1}, 40, 0, 78};

// GEMMs (cuBLAS heuristics pick different tiles per shape).
inline constexpr KernelSpec sgemmEmbed {
    "ampere_sgemm_128x64_tn", 58000, {4, 1, 8}, {128, 1, 1}, 122, 12544, 16};
inline constexpr KernelSpec splitKReduce {
    "void splitKreduce_kernel<32, 16, int, float, float, float, float, true, false, "
    "false>(cublasSplitKParams<float>, float const*, float const*, float*, float const*, float "
    "const*, float const*, float const*, float*, void*, long, float*, int*)",
    3500, {16, 1, 1}, {32, 16, 1}, 32, 0, 40};
inline constexpr KernelSpec sgemmSmall {
    "ampere_sgemm_32x32_sliced1x4_tn", 7000, {8, 2, 1}, {128, 1, 1}, 86, 16384, 12};
inline constexpr KernelSpec sgemmMlp {
    "ampere_sgemm_64x64_nn", 11000, {4, 4, 1}, {64, 1, 1}, 126, 8192, 10};
inline constexpr KernelSpec sgemmGradInput {
    "ampere_sgemm_128x64_nn", 16000, {128, 1, 1}, {128, 1, 1}, 122, 12544, 25};
inline constexpr KernelSpec sgemmGradWeight {
    "ampere_sgemm_128x32_nt", 21000, {128, 2, 1}, {256, 1, 1}, 120, 16384, 24};
inline constexpr KernelSpec bmmForward {
    "ampere_sgemm_32x32_sliced1x4_nn", 5500, {1, 1, 32}, {128, 1, 1}, 86, 16384, 8};
inline constexpr KernelSpec bmmBackward {
    "ampere_sgemm_32x32_sliced1x4_nt", 6000, {1, 1, 32}, {128, 1, 1}, 86, 16384, 8};

// Transformer block elementwise, norms and reductions.
inline constexpr KernelSpec layerNormForward {
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, "
    "float, "
    "float const*, float const*, float const*, float*, float*, float*)",
    4200, {256, 1, 1}, {32, 4, 1}, 28, 0, 48};
inline constexpr KernelSpec layerNormGradInput {
    "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<float, "
    "float>(float const*, float const*, float const*, float const*, float const*, float*, int)",
    4800, {256, 1, 1}, {128, 1, 1}, 32, 1024, 52};
inline constexpr KernelSpec layerNormGammaBeta {
    "void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel_32x32<float, float>(long, "
    "long, float const*, float const*, float const*, float const*, float*, float*)",
    5200, {2, 1, 1}, {32, 32, 1}, 40, 8448, 30};
inline constexpr KernelSpec scaleMul {
    "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, "
    "float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2> >(int, "
    "at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> "
    ">, at::detail::Array<char*, 2>)",
    2300, {16, 1, 1}, {128, 1, 1}, 16, 0, 12};
inline constexpr KernelSpec softmaxForward {
    "void at::native::(anonymous namespace)::softmax_warp_forward<float, float, float, 3, false, "
    "false>(float*, float const*, int, int, int, bool const*, int, bool)",
    2600, {64, 1, 1}, {32, 4, 1}, 26, 0, 22};
inline constexpr KernelSpec softmaxBackward {
    "void at::native::(anonymous namespace)::softmax_warp_backward<float, float, float, 3, false, "
    "false>(float*, float const*, float const*, int, int, int, bool const*)",
    2800, {64, 1, 1}, {32, 4, 1}, 28, 0, 22};
inline constexpr KernelSpec dropoutForward {
    "void at::native::(anonymous namespace)::fused_dropout_kernel_vec<float, float, unsigned int, "
    "1, "
    "4, bool>(at::cuda::detail::TensorInfo<float const, unsigned int>, "
    "at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<bool, "
    "unsigned "
    "int>, unsigned int, float, at::PhiloxCudaState)",
    3100, {16, 1, 1}, {256, 1, 1}, 30, 0, 14};
inline constexpr KernelSpec dropoutBackward {
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
    "namespace)::masked_scale_kernel<bool, float, float>(at::Tensor&, at::Tensor const&, "
    "at::Tensor "
    "const&, float)::{lambda(float, bool)#1}, at::detail::Array<char*, 3> >(int, "
    "at::native::(anonymous namespace)::masked_scale_kernel<bool, float, float>(at::Tensor&, "
    "at::Tensor const&, at::Tensor const&, float)::{lambda(float, bool)#1}, "
    "at::detail::Array<char*, "
    "3>)",
    2500, {16, 1, 1}, {128, 1, 1}, 18, 0, 12};
inline constexpr KernelSpec addTensors {
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
    "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
    "at::detail::Array<char*, "
    "3>)",
    3000, {64, 1, 1}, {128, 1, 1}, 20, 0, 30};
inline constexpr KernelSpec geluForward {
    "void at::native::vectorized_elementwise_kernel<4, "
    "at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() "
    "const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
    "at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() "
    "const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
    3400, {128, 1, 1}, {128, 1, 1}, 26, 0, 38};
inline constexpr KernelSpec geluBackward {
    "void at::native::vectorized_elementwise_kernel<4, "
    "at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() "
    "const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, "
    "at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() "
    "const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)",
    3900, {128, 1, 1}, {128, 1, 1}, 30, 0, 37};
inline constexpr KernelSpec meanReduce {
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, "
    "float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
    "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)",
    3600, {16, 1, 1}, {32, 16, 1}, 32, 16, 20};
inline constexpr KernelSpec sumReduce {
    "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, "
    "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
    "float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> "
    ">(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
    "at::native::sum_functor<float, "
    "float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, "
    "float, "
    "4>)",
    4100, {8, 1, 1}, {32, 4, 1}, 32, 16, 10};
inline constexpr KernelSpec divScalar {
    "void at::native::vectorized_elementwise_kernel<4, at::native::BUnaryFunctor<float, float, "
    "float, at::native::binary_internal::DivFunctor<float> >, at::detail::Array<char*, 2> >(int, "
    "at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> "
    ">, at::detail::Array<char*, 2>)",
    2400, {64, 1, 1}, {128, 1, 1}, 18, 0, 30};

// Loss.
inline constexpr KernelSpec logSoftmaxForward {
    "void at::native::(anonymous namespace)::softmax_warp_forward<float, float, float, 4, true, "
    "false>(float*, float const*, int, int, int, bool const*, int, bool)",
    2200, {8, 1, 1}, {32, 4, 1}, 26, 0, 4};
inline constexpr KernelSpec logSoftmaxBackward {
    "void at::native::(anonymous namespace)::softmax_warp_backward<float, float, float, 4, true, "
    "false>(float*, float const*, float const*, int, int, int, bool const*)",
    2300, {8, 1, 1}, {32, 4, 1}, 28, 0, 4};
inline constexpr KernelSpec nllLossForward {
    "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, "
    "long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)",
    3300, {1, 1, 1}, {32, 1, 1}, 30, 32, 1};
inline constexpr KernelSpec nllLossBackward {
    "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, "
    "long>(float*, float const*, long const*, float const*, float const*, bool, int, int, long, "
    "long)",
    2100, {1, 1, 1}, {32, 1, 1}, 24, 0, 1};
inline constexpr KernelSpec fill {
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, "
    "1>)",
    1600, {1, 1, 1}, {128, 1, 1}, 16, 0, 1};

// Optimizer (foreach ops run as multi_tensor_apply over chunks of parameters).
inline constexpr KernelSpec foreachMul {
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<1>, at::native::(anonymous "
    "namespace)::BinaryOpScalarFunctor<float, "
    "1, 1, 0>, std::multiplies<float>, float>(at::native::(anonymous "
    "namespace)::TensorListMetadata<1>, "
    "at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, "
    "std::multiplies<float>, "
    "float)",
    21000, {320, 1, 1}, {512, 1, 1}, 40, 0, 60};
inline constexpr KernelSpec foreachAdd {
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<2>, at::native::(anonymous "
    "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, "
    "float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous "
    "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)",
    27000, {320, 1, 1}, {512, 1, 1}, 42, 0, 58};
inline constexpr KernelSpec foreachZero {
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::ZeroFunctor<float, 1, "
    "1, "
    "0> >(at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous "
    "namespace)::ZeroFunctor<float, 1, 1, 0>)",
    14000, {320, 1, 1}, {512, 1, 1}, 32, 0, 62};

} // namespace kernels
} // namespace ks::gentrace
