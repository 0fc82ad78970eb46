// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/modules/moduletree.h"

#include <string>
#include <string_view>

namespace ks {

/*!
 * The node of \a tree that holds pair row \a row of its graph, as the Modules tab charges it: the
 * node around the forward op (for an op re-run during backward, around the op it repeats when
 * that is known); for a row without a forward op, the node its backward nodes are charged to.
 * kNoModule when that is the root, i.e. no module holds the row.
 */
ModuleId moduleOfRow(const ModuleTree &tree, const PairRow &row);

//! \a path with each component's instance number dropped ("Model_0/Linear_3" → "Model/Linear").
std::string moduleClassPath(std::string_view path);

//! A module's name without its instance number ("Linear_3" → "Linear").
std::string_view moduleTypeName(std::string_view name);

} // namespace ks
