// SPDX-License-Identifier: MIT
#include "analysis/efficiency/opwork.h"

#include "analysis/efficiency/attentionwork.h"
#include "analysis/efficiency/convwork.h"
#include "analysis/efficiency/gemmwork.h"
#include "analysis/efficiency/normwork.h"
#include "analysis/efficiency/vectorwork.h"

namespace ks {

std::optional<OpWork> opWork(std::string_view op, const OpShapes &shapes)
{
    if (gemmCovers(op))
        return gemmWork(op, shapes);
    if (convCovers(op))
        return convWork(op, shapes);
    if (attentionCovers(op))
        return attentionWork(op, shapes);
    if (normCovers(op))
        return normWork(op, shapes);
    return vectorWork(op, shapes);
}

bool isModelledOp(std::string_view op)
{
    return gemmCovers(op) || convCovers(op) || attentionCovers(op) || normCovers(op)
        || vectorCovers(op);
}

} // namespace ks
