// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opefficiency.h"

class QTreeWidget;

namespace ks {

/*!
 * Adds to the details panel \a tree what OpEfficiency knows of op \a op: per modelled instance
 * its model, the formula with the numbers filled in, FLOPs, bytes, kernel time, achieved rates
 * and roofline against the device's peaks (or that the device is unknown); for the forward op of
 * a pair row, the pair's forward and backward roll-up. Nothing for other events.
 */
void addEfficiencySections(
    QTreeWidget &tree, const OpGraph &graph, const OpEfficiency &efficiency, SliceId op);

} // namespace ks
