// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"

#include <optional>
#include <string>
#include <vector>

namespace ks {

//! An event a finding points at: its rank (index into the path's ranks) and slice.
struct FindingEvidence {
    uint32_t rank = 0;
    SliceId event = kNoSlice;
};

/*!
 * One thing to fix, with the time fixing it would save on the step (issue #58; docs/findings.md):
 * the saving is the critical path's length less its length with the rule's change made, in the
 * same model on the same graph.
 */
struct StepFinding {
    std::string rule; //!< "host_sync", "pageable_copy", … (docs/findings.md)
    std::string title; //!< one sentence in the user's terms
    //! The path's length less its length with the change; nullopt: not a change of the path's
    //! work (memory), told after those with a saving.
    std::optional<TimeNs> saving;
    //! The change: "NAME:FACTOR" as `--what-if` takes it, or the rule's own ("no wait: NAME").
    std::string how;
    std::vector<FindingEvidence> evidence; //!< earliest first, at most kMostEvidence
    std::string fix; //!< what users do about it
    std::string doc; //!< the PyTorch page that explains it
};

inline constexpr size_t kMostEvidence = 8;

//! \a findings by saving, largest first; those without a saving after them, as they came.
void rankFindings(std::vector<StepFinding> &findings);

} // namespace ks
