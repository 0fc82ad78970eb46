// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

namespace ks {

/*!
 * Demangles the kernel names that a trace writes mangled (`_Z…`: ROCm writes composable-kernel
 * and other HIP kernel names so), so that they read like CUDA's, which CUPTI demangles before
 * they reach the file. Each distinct name is demangled once; a name the demangler rejects stays
 * as written; a renamed kernel keeps its written name in TraceModel::writtenKernelNames. Runs
 * once the parse is over: the string pool belongs to the parser until then.
 */
void demangleKernelNames(TraceModel &model);

} // namespace ks
