// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ks {

//! (base index, candidate index): one element of each sequence matched with the other.
using SequenceMatch = std::pair<uint32_t, uint32_t>;

/*!
 * Aligns two key sequences (TraceDiff step 3: docs/linking.md has the comparison's rules),
 * appending the matched index pairs to \a out in increasing order, offset by \a aOff, \a bOff.
 * Common prefix and suffix first; the middle exactly (longest common subsequence) when it has
 * at most \a exactCells cells, else by occurrence (the k-th of a key with the k-th).
 */
void alignSequences(std::span<const uint32_t> a,
    std::span<const uint32_t> b,
    uint32_t aOff,
    uint32_t bOff,
    size_t exactCells,
    std::vector<SequenceMatch> &out);

/*!
 * TraceDiff steps 3 and 4: \a keysA and \a keysB aligned (alignSequences()), then between
 * consecutive matches what is left aligned again by the op keys alone (\a opsA, \a opsB, one
 * per element as the keys). All the matches, in increasing order.
 */
std::vector<SequenceMatch> alignKeysThenOps(std::span<const uint32_t> keysA,
    std::span<const uint32_t> keysB,
    std::span<const uint32_t> opsA,
    std::span<const uint32_t> opsB,
    size_t exactCells);

} // namespace ks
