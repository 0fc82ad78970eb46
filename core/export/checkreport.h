// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/health/tracecheck.h"

#include <string>
#include <vector>

namespace ks {

/*!
 * The findings of `--check` over one trace or a run, as the JSON object of docs/cli.md: each
 * finding with its file (and rank, in a run), count, explanation, the rule it follows and its
 * first instance.
 */
class CheckReport {
public:
    //! Findings of \a file (empty for a run's own), of rank \a rank in a run.
    void add(const std::vector<Finding> &findings, const std::string &file, int rank = -1);
    bool hasWarnings() const { return m_warnings > 0; }
    std::string json() const;

private:
    std::string m_items;
    size_t m_warnings = 0;
};

} // namespace ks
