// SPDX-License-Identifier: MIT
#pragma once

#include "document/reporttimeline.h"
#include "report/reportcontent.h"

#include <QPageSize>
#include <QString>

#include <memory>

namespace ks {

/*!
 * Writes \a content to \a path: PDF when it ends in .pdf, else self-contained HTML. The
 * timeline picture shows \a timelineTrace (the trace the content's timeline step belongs to;
 * may be null). Atomic (QSaveFile): a failure leaves any earlier file intact and returns false
 * with a message naming the file.
 */
bool writeReport(const ReportContent &content,
    const std::shared_ptr<const LoadedTrace> &timelineTrace,
    const QString &path,
    QPageSize::PageSizeId pageSize,
    QString &error);

//! The timeline picture writeReport() draws (UI thread): null when the content has none.
ReportTimeline reportTimeline(
    const ReportContent &content, const std::shared_ptr<const LoadedTrace> &timelineTrace);

//! writeReport() with its timeline picture recorded already: any thread.
bool writeReportFile(const ReportContent &content,
    const ReportTimeline &timeline,
    const QString &path,
    QPageSize::PageSizeId pageSize,
    QString &error);

} // namespace ks
