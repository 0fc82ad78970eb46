// SPDX-License-Identifier: MIT
#pragma once

#include "report/reportcontent.h"

#include <QByteArray>
#include <QImage>

namespace ks {

/*!
 * The report as one self-contained HTML file: inline CSS, each chart as inline SVG (drawn by
 * ReportChartPainter through QSvgGenerator), the timeline picture as an inline PNG, tables as
 * tables; no script and no external reference. Written as well-formed XML (XHTML syntax), so
 * any XML parser reads it back.
 */
QByteArray htmlReport(const ReportContent &content, const QImage &timeline, const QString &date);

} // namespace ks
