// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

/*!
 * A condition on an arg the model keeps of each event, as Perfetto's `args.` filters put it:
 * `Input Dims~4096`, `External id=38`, `stream=7`, `grid>100`. Keys are the file's arg names,
 * any case, `args.` before them allowed: Input Dims, External id, correlation, Sequence number,
 * Fwd thread id, device, stream, grid, block, Collective name, Process Group Name, Seq, graph id,
 * graph node id, and cat (the category). `=` is equality (a text key: the whole text, any case),
 * `~` contains (any case), `<` and `>` compare numbers (grid and block: their product).
 */
struct ArgFilter {
    enum class Key : uint8_t {
        InputDims,
        ExternalId,
        Correlation,
        SequenceNumber,
        FwdThreadId,
        Device,
        Stream,
        Grid,
        Block,
        CollectiveName,
        ProcessGroup,
        Seq,
        GraphId,
        GraphNodeId,
        Category,
    };
    enum class Op : uint8_t { Equal, Contains, Less, Greater };
    Key key = Key::InputDims;
    Op op = Op::Equal;
    std::string value; //!< lower case
    std::optional<double> number; //!< the value as a number, where it is one
};

/*!
 * The filters \a text states, joined by ` and `; nullopt when it states none (a name pattern,
 * then). A known key with a malformed condition (`stream>x`) is a filter list with \a error set.
 */
std::optional<std::vector<ArgFilter>> parseArgFilters(std::string_view text, std::string &error);

//! Whether slice \a s of \a model meets every filter of \a filters.
bool meetsArgFilters(const TraceModel &model, SliceId s, const std::vector<ArgFilter> &filters);

} // namespace ks
