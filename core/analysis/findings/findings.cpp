// SPDX-License-Identifier: MIT
#include "analysis/findings/findings.h"

#include "analysis/findings/memoryrule.h"
#include "analysis/findings/pathrules.h"

#include <algorithm>

namespace ks {

void rankFindings(std::vector<StepFinding> &findings)
{
    std::stable_sort(
        findings.begin(), findings.end(), [](const StepFinding &a, const StepFinding &b) {
            return a.saving.has_value() != b.saving.has_value()
                ? a.saving.has_value()
                : a.saving.value_or(0) > b.saving.value_or(0);
        });
}

std::vector<StepFinding> findStepFindings(
    const CriticalPathAnalysis &path, const OpEfficiency *efficiency, const MemoryIndex *memory)
{
    std::vector<StepFinding> out;
    const bool onPath = path.path().problem.empty() && path.path().model == PathModel::Step
        && path.tracesAtHand();
    if (onPath) {
        findHostSyncs(path, out);
        findDeviceFrees(path, out);
        findPageableCopies(path, out);
        findExposedCommunication(path, out);
        if (efficiency && path.ranks().size() == 1) { // one trace's devices and ops
            findFp32Gemms(path, *efficiency, out);
            findBelowRoofline(path, *efficiency, out);
        }
    }
    if (memory)
        findFragmentation(*memory, out);
    rankFindings(out);
    return out;
}

} // namespace ks
