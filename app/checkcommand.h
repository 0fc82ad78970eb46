// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace ks {

//! `--check FILE…|DIR`.
struct CheckRequest {
    std::vector<std::string> args; //!< one trace, or a run's files and folders
};

/*!
 * Checks one trace, or a run (several files or a folder: each rank, then the run), and prints
 * the findings as JSON on stdout. ExitOk when no finding is a warning, ExitCheckWarnings when
 * some are, ExitLoadFailed when a trace could not be loaded (the others are still checked).
 */
int runCheck(const CheckRequest &request);

} // namespace ks
