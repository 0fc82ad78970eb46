// SPDX-License-Identifier: MIT
#pragma once

#include "export/pairtable.h"
#include "report/reportcontent.h"

namespace ks {

/*!
 * The report's "Where speed-up is available" part (issue #34): the ten pairs furthest below their
 * roofline, weighted by time — speedupCandidates(): kernel time above the roofline — with their
 * rates and bound from the pair table, and which peaks they are held against. Nothing when no
 * pair has a roofline (no shapes, or an unknown device: the text then says how to add it).
 */
void addEfficiency(const LoadedTrace &trace, const PairTable &pairs, ReportContent &out);

} // namespace ks
