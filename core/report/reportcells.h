// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"
#include "export/celltable.h"

#include <string>
#include <vector>

namespace ks {

//! \a t (ns) as the window's ruler shows it: ms since \a origin, the trace's start.
std::string msSinceStart(TimeNs t, TimeNs origin);

/*!
 * Rows \a rows, columns \a columns of \a from, with its column names and titles, cells as text
 * for a person: bytes in binary units, timestamps as ms since \a origin (the trace's start).
 */
CellTable select(const Table &from,
    const std::vector<size_t> &rows,
    const std::vector<size_t> &columns,
    TimeNs origin = 0);

} // namespace ks
