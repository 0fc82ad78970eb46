// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/findings/findings.h"

#include <string>

namespace ks {

/*!
 * \a findings as a JSON array (`--summary`'s "findings", `--findings`'s "findings"; cli.md): per
 * finding its rule, title, saving_us and saving_pct of the path's length (null without a saving),
 * how, evidence (name, rank, ts_us and dur_us on the file's own clock), fix and doc.
 */
void appendFindingsJson(
    std::string &out, const CriticalPathAnalysis &path, const std::vector<StepFinding> &findings);

//! The document `--findings OUT.json` writes: the step, the path's length, the findings.
std::string findingsDocument(
    const CriticalPathAnalysis &path, const std::vector<StepFinding> &findings);

} // namespace ks
