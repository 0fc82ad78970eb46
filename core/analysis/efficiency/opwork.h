// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opshapes.h"

#include <optional>
#include <string>
#include <string_view>

namespace ks {

//! Which of the GPU's peaks an op is held against: its matrix units or its vector units.
enum class ComputeUnit : uint8_t { Matrix, Vector };

//! The work one op instance does, as a performance model counts it (issue #34).
struct OpWork {
    double flops = 0;
    std::optional<double> bytes; //!< nullopt when a dtype's size is unknown
    std::string dtype; //!< of the first input: what the roofline's peak is looked up by
    ComputeUnit unit = ComputeUnit::Vector;
    std::string_view model; //!< the model's name, after TraceLens's class ("aten_mm")
    std::string formula; //!< the formula with the numbers filled in, for the details panel
};

/*!
 * FLOPs and bytes of one instance of host op \a op from its recorded \a shapes, by whichever
 * model covers it (GEMM, convolution, attention, elementwise, reduction, normalization,
 * softmax, embedding, cross-entropy); nullopt for an op no model covers or shapes that do not
 * fit it. docs/efficiency.md lists every model, its TraceLens source and where it differs.
 */
std::optional<OpWork> opWork(std::string_view op, const OpShapes &shapes);

//! True when some model covers ops named \a op (whatever their shapes).
bool isModelledOp(std::string_view op);

} // namespace ks
