// SPDX-License-Identifier: MIT
#pragma once

#include "report/reportcontent.h"

#include <QFont>
#include <QRectF>

class QPainter;

namespace ks {

/*!
 * Draws a ReportChart with QPainter, the same strokes whatever the device: an SVG generator for
 * the HTML report, the PDF writer for the PDF (both vector). Horizontal bars, one per label, its
 * series stacked left to right, the legend above and the value of each bar at its end.
 */
namespace ReportChartPainter {

//! The height the chart needs with \a font (logical pixels): its legend and one row per bar.
double height(const ReportChart &chart, const QFont &font);
void paint(QPainter &p, const QRectF &rect, const ReportChart &chart, const QFont &font);

} // namespace ReportChartPainter

} // namespace ks
