// SPDX-License-Identifier: MIT
#pragma once

namespace ks {

//! The exit codes of docs/cli.md, for every command.
enum ExitCode {
    ExitOk = 0,
    ExitUsage = 1,
    ExitLoadFailed = 2,
    ExitWriteFailed = 3,
    ExitCheckWarnings = 4, //!< `--check` found a warning
};

} // namespace ks
