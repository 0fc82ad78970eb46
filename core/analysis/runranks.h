// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/gputime.h"
#include "analysis/memoryindex.h"
#include "analysis/moduletree.h"
#include "analysis/opefficiency.h"
#include "link/opgraph.h"

#include <string>
#include <vector>

namespace ks {

/*!
 * One rank of a run (several traces of one distributed job) as the run analyses see it: its
 * linked graph, its module tree, and how its clock maps onto the run's common clock.
 */
struct RankTrace {
    int rank = 0; //!< `distributedInfo.rank`, else the file's position in the run
    int worldSize = 0; //!< `distributedInfo.world_size`, 0 when the trace does not say
    std::string file;
    const OpGraph *graph = nullptr;
    const ModuleTree *modules = nullptr;
    const OpEfficiency *efficiency = nullptr; //!< its op efficiency; null: no rates
    GpuTimeBreakdown gpuTime; //!< gpuTimeBreakdown() of the graph, worked out beside its load
    //! The largest `Total Allocated` / `Total Reserved` of its accelerators (allocatorPeaks()).
    AllocatorPeaks memory;
    /*!
     * Added to a model time (ns, as the file wrote it) to give ns from the run's common zero:
     * the rank's `baseTimeNanoseconds` (0 for absolute epoch clocks) less the common zero, which
     * is the earliest event over all ranks after adding each rank's base.
     */
    TimeNs clockOffset = 0;

    TimeNs runTime(TimeNs modelTime) const { return modelTime + clockOffset; }
};

using RankTraces = std::vector<RankTrace>;

} // namespace ks
