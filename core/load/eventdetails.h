// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <string>
#include <utility>
#include <vector>

namespace ks {

//! Every field and arg of one event, as compact JSON text per key.
struct EventDetails {
    std::vector<std::pair<std::string, std::string>> fields; //!< ph, cat, name, ts, …
    std::vector<std::pair<std::string, std::string>> args; //!< the `args` object's keys
    uint64_t inflatedBytes = 0; //!< decompressed bytes the read inflated (gzip files)
};

/*!
 * Reads the event at byte \a offset of the decompressed text of \a model's file again: the
 * model keeps only the args it needs, the rest stay in the file. For gzip files this inflates
 * from the model's last seek point before the offset (some 4 MB of text at most), from the
 * start of the file without one. Returns false with \a error when the file changed or cannot
 * be read. Safe to call from several threads at once: it shares nothing writable.
 */
bool readEventDetails(
    const TraceModel &model, uint64_t offset, EventDetails &out, std::string &error);

//! The same over trace text in memory.
bool readEventDetailsText(
    std::string_view text, uint64_t offset, EventDetails &out, std::string &error);

} // namespace ks
