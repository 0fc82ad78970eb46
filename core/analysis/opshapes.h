// SPDX-License-Identifier: MIT
#pragma once

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

    //! The shape of input \a i, or nullopt when it has none (or is absent).
    const std::vector<int64_t> *dimsOf(size_t i) const
    {
        return i < dims.size() && dims[i] ? &*dims[i] : nullptr;
    }
    std::string_view typeOf(size_t i) const
    {
        if (i < types.size())
            return types[i];
        return {};
    }
};

//! Parses `Input Dims` \a dims and `Input type` \a types (compact JSON; empty: absent).
OpShapes parseOpShapes(std::string_view dims, std::string_view types);

/*!
 * Bytes per element of a dtype as the profiler names it, TraceLens's `name2bpe`
 * (AMD-AGI/TraceLens 171dd747 `TraceLens/PerfModel/utils.py` l. 61–94, matched case-blind):
 * 8 double / long int, 4 float / scalar / int, 2 c10::half / c10::bfloat16, 1 the fp8 and fp4
 * types and (un)signed char; nullopt for any other name.
 */
std::optional<int> bytesPerElement(std::string_view dtype);

} // namespace ks
