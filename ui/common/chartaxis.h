// SPDX-License-Identifier: MIT
#pragma once

class QValueAxis;

namespace ks {

/*!
 * Ticks from 0 in round steps (1, 2 or 5 × 10^k, in the axis's own unit) up to a tick above
 * \a max, the largest value drawn, with just enough decimals to tell the ticks apart: no
 * 4848 / 9695 labels, and no bar touching the top.
 */
void setRoundTicks(QValueAxis *axis, double max);

} // namespace ks
