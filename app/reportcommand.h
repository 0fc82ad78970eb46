// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/compare/tracediff.h"

#include <string>
#include <vector>

namespace ks {

//! `--report OUT.pdf|OUT.html`: of one trace, a run (several FILEs or a folder), or a comparison.
struct ReportRequest {
    std::string out;
    std::vector<std::string> files; //!< one trace, or the run's files and folders
    std::string compareBase; //!< --compare BASE: files holds the candidate
    DiffOptions diffOptions;
    bool letter = false; //!< --page letter (default A4)
};
//! Loads what \a request names, writes the report; the exit codes of cli.md.
int runReport(const ReportRequest &request);

} // namespace ks
