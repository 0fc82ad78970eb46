// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ks {

/*!
 * Up to \a count of \a candidates close to \a name, closest first: those containing it or
 * contained in it (ignoring ASCII case), then those within an edit distance of a third of its
 * length (at least 3). For "did you mean" in messages about names that match nothing.
 */
std::vector<std::string> closeNames(
    const std::vector<std::string_view> &candidates, std::string_view name, size_t count = 8);

} // namespace ks
