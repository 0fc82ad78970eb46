// SPDX-License-Identifier: MIT
#include "analysis/findings/findings.h"

#include "analysis/findings/gpurules.h"
#include "analysis/findings/hostrules.h"
#include "analysis/findings/memoryrules.h"
#include "analysis/findings/runrules.h"

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
    const CriticalPathAnalysis &path, const FindingSources &sources)
{
    std::vector<StepFinding> out;
    const bool onPath = path.path().problem.empty() && path.path().model == PathModel::Step
        && path.tracesAtHand();
    // One trace's devices and ops: efficiency and memory speak of rank 0 alone.
    const OpEfficiency *efficiency = path.ranks().size() == 1 ? sources.efficiency : nullptr;
    const MemoryIndex *memory = path.ranks().size() == 1 ? sources.memory : nullptr;
    const std::vector<OpEfficiency::Device> noDevices;
    const auto &devices = efficiency ? efficiency->devices() : noDevices;
    if (onPath) {
        findHostSyncs(path, out);
        findDeviceFrees(path, out);
        findDataLoading(path, out);
        findLaunchBound(path, out);
        findPageableCopies(path, out);
        findExposedCommunication(path, out);
        findRecompute(path, memory, devices, out);
        if (efficiency) {
            findFp32Gemms(path, *efficiency, out);
            findBelowRoofline(path, *efficiency, out);
        }
        if (sources.collectives) {
            findLateRanks(path, *sources.collectives, out);
            findStragglers(path, *sources.collectives, out);
        }
    }
    if (memory) {
        findFragmentation(*memory, out);
        findMemoryNearLimit(*memory, devices, out);
    }
    rankFindings(out);
    return out;
}

} // namespace ks
