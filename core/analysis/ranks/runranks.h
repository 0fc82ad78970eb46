// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"

#include <string>
#include <vector>

namespace ks {

/*!
 * One rank of a run (several traces of one distributed job) as the run analyses see it: its
 * number, its linked graph where its trace is loaded, and how its clock maps onto the run's
 * common clock.
 */
struct RankTrace {
    int rank = 0; //!< `distributedInfo.rank`, else the file's position in the run
    int worldSize = 0; //!< `distributedInfo.world_size`, 0 when the trace does not say
    std::string file;
    const OpGraph *graph = nullptr; //!< null for a rank read from its database
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
