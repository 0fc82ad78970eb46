// SPDX-License-Identifier: MIT
#include "analysis/modules/modulepaths.h"

namespace ks {

std::string_view moduleTypeName(std::string_view name)
{
    const size_t underscore = name.find_last_of('_');
    if (underscore == std::string_view::npos || underscore == 0 || underscore + 1 == name.size())
        return name;
    for (size_t i = underscore + 1; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9')
            return name;
    }
    return name.substr(0, underscore);
}

ModuleId moduleOfRow(const ModuleTree &tree, const PairRow &row)
{
    const OpGraph &g = tree.graph();
    SliceId s = g.representativeSlice(row);
    if (s == kNoSlice)
        return kNoModule;
    if (row.forward != kNoSlice && row.recompute) {
        // A re-run belongs where the op it repeats ran, as the tree charges its GPU work.
        const int r = g.recomputationOf(s);
        if (r >= 0 && g.recomputations()[size_t(r)].original != kNoSlice)
            s = g.recomputations()[size_t(r)].original;
    }
    const ModuleId id = tree.nodeOf(s);
    return id == 0 ? kNoModule : id;
}

std::string moduleClassPath(std::string_view path)
{
    std::string out;
    while (!path.empty()) {
        const size_t slash = path.find('/');
        const std::string_view part = path.substr(0, slash);
        if (!out.empty())
            out += '/';
        out += moduleTypeName(part);
        if (slash == std::string_view::npos)
            break;
        path.remove_prefix(slash + 1);
    }
    return out;
}

} // namespace ks
