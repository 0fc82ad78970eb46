// SPDX-License-Identifier: MIT
#include "analysis/pairs/pairkeys.h"

#include "analysis/modules/modulepaths.h"

namespace ks {

PairKeys pairKeys(bool hasForward,
    std::string_view op,
    std::string_view modulePath,
    std::string_view inputDims,
    std::string_view bwdNames,
    bool recompute)
{
    PairKeys k;
    k.opKey += hasForward ? 'F' : 'B';
    k.opKey += hasForward ? op : bwdNames;
    k.key = k.opKey;
    k.key += '\x1f';
    k.key += moduleClassPath(modulePath);
    k.key += '\x1f';
    if (hasForward)
        k.key += inputDims;
    k.key += '\x1f';
    k.key += bwdNames;
    k.key += recompute ? "\x1fR" : "\x1f-";
    return k;
}

} // namespace ks
