// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace ks {

/*!
 * A GPU event's name short enough for a label or a sentence. A C++ kernel's signature (it starts
 * with "void " or is qualified) keeps its function's own name and its first type argument, which
 * says what it computes: "void at::native::vectorized_elementwise_kernel<4,
 * at::native::AddFunctor<float>, …>(int, …)" gives "vectorized_elementwise_kernel<AddFunctor>".
 * Other names ("volta_sgemm_128x32_nt", "Memcpy HtoD (Pageable -> Device)") stay as they are.
 * At most kShortKernelNameMostChars characters, the cut marked "…".
 */
std::string shortKernelName(std::string_view name);

inline constexpr size_t kShortKernelNameMostChars = 64;

} // namespace ks
