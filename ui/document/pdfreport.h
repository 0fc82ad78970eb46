// SPDX-License-Identifier: MIT
#pragma once

#include "report/reportcontent.h"

#include <QPageSize>

class QIODevice;

namespace ks {

struct ReportTimeline;

/*!
 * The report as PDF through Qt's own writer: a title, then each part (on a new page only when
 * little of the last is left), its heading, text, charts (ReportChartPainter), the timeline
 * picture (unless \a timeline is null) and tables (never a cut number: cells wrap, wide tables
 * split into bands; a header row repeated on each page a table runs onto), all vector. \a pageSize
 * A4 or Letter, portrait.
 */
bool writePdfReport(const ReportContent &content,
    const ReportTimeline &timeline,
    const QString &date,
    QPageSize::PageSizeId pageSize,
    QIODevice *out);

} // namespace ks
