// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

/*!
 * What `record_shapes=True` says about an op's inputs (issue #34): `Input Dims` and `Input type`,
 * read from the compact JSON the model keeps. An input that is no tensor (a scalar, a list of
 * tensors) has no shape.
 */
struct OpShapes {
    std::vector<std::optional<std::vector<int64_t>>> dims;
    std::vector<std::string> types; //!< "float", "c10::BFloat16", "" for a non-string entry
    std::vector<std::string> concrete; //!< `Concrete Inputs`: "[1, 1]", "False", "" for a tensor

    //! The shape of input \a i, or nullopt when it has none (or is absent).
    const std::vector<int64_t> *dimsOf(size_t i) const
    {
        return i < dims.size() && dims[i] ? &*dims[i] : nullptr;
    }
    std::string_view typeOf(size_t i) const
    {
        return i < types.size() ? std::string_view(types[i]) : std::string_view();
    }
    std::string_view concreteOf(size_t i) const
    {
        return i < concrete.size() ? std::string_view(concrete[i]) : std::string_view();
    }
    //! Elements of input \a i (1 for a 0-d tensor), 0 when it has no shape.
    double elementsOf(size_t i) const;
};

//! Parses `Input Dims` \a dims, `Input type` \a types and `Concrete Inputs` \a concrete
//! (compact JSON each; empty: absent).
OpShapes parseOpShapes(
    std::string_view dims, std::string_view types, std::string_view concrete = {});

struct TraceModel;
//! The recorded shapes of host op \a op.
OpShapes shapesOf(const TraceModel &model, SliceId op);

/*!
 * A list written as Concrete Inputs write one, "[1, 1]" or "[True, False, True]", read as
 * integers (True 1, False 0); nullopt when \a text is no such list.
 */
std::optional<std::vector<int64_t>> parseConcreteList(std::string_view text);

/*!
 * Bytes per element of a dtype as the profiler names it, TraceLens's `name2bpe`
 * (AMD-AGI/TraceLens 171dd747 `TraceLens/PerfModel/utils.py` l. 61–94, matched case-blind):
 * 8 double / long int, 4 float / scalar / int, 2 c10::half / c10::bfloat16, 1 the fp8 and fp4
 * types and (un)signed char; nullopt for any other name.
 */
std::optional<int> bytesPerElement(std::string_view dtype);

} // namespace ks
