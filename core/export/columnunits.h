// SPDX-License-Identifier: MIT
#pragma once

#include "export/table.h"

#include <string>
#include <string_view>

namespace ks {

//! The unit of a column ("µs", "µs, file clock", "bytes", "ns", "%", …; empty: none), from its kind
//! and the suffixes the exports' names follow: what schema_columns and docs/cli.md list.
std::string_view columnUnit(std::string_view name, Cell cell);

/*!
 * \a name with its unit in it where columnUnit() finds one the name does not say: `ts` →
 * `ts_us`, `fwd_dur` → `fwd_dur_us`, `addr_bytes` as it is, `alloc_bytes` as it is, `bytes` too;
 * what --export-parquet names columns, so that an engine's query says its units.
 */
std::string nameWithUnit(std::string_view name, Cell cell);

} // namespace ks
