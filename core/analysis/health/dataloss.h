// SPDX-License-Identifier: MIT
#pragma once

#include "link/opgraph.h"

#include <string>

namespace ks {

/*!
 * What a load lost of its file, in one sentence; empty when it read the whole text. Where and why
 * reading stopped — the first syntax error, corrupt or cut-off gzip data, or the file's cut, in
 * the loader's words (which, after a syntax error in a plain file, count what the rest held) —
 * then the events kept, and the GPU work missing where no GPU event survived:
 * "byte 451582: a syntax error (Invalid value.): the rest of the file was not read (451582
 * bytes holding about 1686 events); 1624 events kept, 1 incomplete one skipped; no GPU event
 * survived: its GPU work is missing". What `--check` (`data_lost`), a run's warnings, the banner
 * and the report say.
 */
std::string dataLoss(const OpGraph &graph);

/*!
 * What a file read in part lost of its GPU work, in a sentence, when the loss would otherwise
 * show as zeros: "no GPU event survived the cut…" where it holds no GPU event
 * (LinkStats::gpuCutOff). Empty otherwise.
 */
std::string truncationLoss(const OpGraph &graph);

} // namespace ks
