// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace ks {

//! Exit codes of cli.md.
enum ExitCode { ExitOk = 0, ExitUsage = 1, ExitLoadFailed = 2, ExitWriteFailed = 3 };

//! `--summary FILE`: the JSON summary on stdout.
int runSummary(const std::string &file);
//! `--export-pairs OUT FILE` / `--export-kernels OUT FILE`.
int runExport(const std::string &out, const std::string &file, bool kernels);

} // namespace ks
