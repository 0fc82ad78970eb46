// SPDX-License-Identifier: MIT
#include "report/criticalpathpart.h"

#include "base/unitstext.h"
#include "export/criticalpathtables.h"

namespace ks {

void addCriticalPath(const CriticalPathAnalysis &analysis, bool run, ReportContent &out)
{
    const CriticalPath &path = analysis.path();
    if (!path.problem.empty() || path.segments.empty())
        return;
    ReportPart part;
    part.id = run ? "run-critical-path" : "critical-path";
    part.title = run ? "What bounds the step across the ranks" : "What bounds the step";
    const std::string step
        = path.step == kNoValue ? "the whole trace" : "ProfilerStep#" + std::to_string(path.step);
    const std::string model = path.model == PathModel::Hta
        ? "HTA's model, where idle time weighs nothing"
        : "the step model: every microsecond of the step's window, idle time and late starts "
          "included";
    part.text = "The critical path of " + step + " (" + model + "; as --summary's critical_path "
        + (run ? "per trace, here with the ranks joined by their collectives" : "has it")
        + "): " + microsText(path.length)
        + " µs. Making work that is not on it faster does not shorten the step.";
    for (const std::string &note : path.notes)
        part.text += " Caveat: " + note;
    part.tables.push_back({"On the path by class (bound_by).", criticalBoundTable(path)});
    part.tables.push_back(
        {"The pairs with most time on the path (critical_us).", criticalPairTable(analysis),
            "No op pair's work lies on the path: it is all other work, waits and idle time."});
    if (analysis.tracesAtHand())
        part.tables.push_back({"What-if: the ten changes that shorten the path most (an op's GPU "
                               "work at half its time, a collective at none).",
            whatIfTable(analysis.bestChanges(), path.length),
            "None: the path holds no GPU work of an op and no collective (a CPU-only trace?), "
            "so no such change shortens it."});
    else
        part.text += " " + std::string(kWhatIfsNeedTraces);
    if (run)
        part.tables.push_back({"Per rank: time on the path, slack (how much later its work "
                               "could start without lengthening the step) and late start.",
            criticalRankTable(analysis)});
    out.parts.push_back(std::move(part));
}

} // namespace ks
