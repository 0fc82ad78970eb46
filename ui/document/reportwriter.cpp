// SPDX-License-Identifier: MIT
#include "document/reportwriter.h"

#include "document/htmlreport.h"
#include "document/pdfreport.h"

#include <QDate>
#include <QPainter>
#include <QSaveFile>

namespace ks {

ReportTimeline reportTimeline(
    const ReportContent &content, const std::shared_ptr<const LoadedTrace> &timelineTrace)
{
    if (!timelineTrace || content.timelineRow < 0)
        return ReportTimeline();
    return ReportTimeline::record(timelineTrace, content.timelineStep, content.timelineRow);
}

bool writeReport(const ReportContent &content,
    const std::shared_ptr<const LoadedTrace> &timelineTrace,
    const QString &path,
    QPageSize::PageSizeId pageSize,
    QString &error)
{
    return writeReportFile(content, reportTimeline(content, timelineTrace), path, pageSize, error);
}

bool writeReportFile(const ReportContent &content,
    const ReportTimeline &timeline,
    const QString &path,
    QPageSize::PageSizeId pageSize,
    QString &error)
{
    const QString date = QDate::currentDate().toString(Qt::ISODate);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    bool written;
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
        written = writePdfReport(content, timeline, date, pageSize, &file);
    } else {
        QImage picture;
        if (!timeline.isNull()) {
            picture = QImage(timeline.size, QImage::Format_ARGB32_Premultiplied);
            QPainter p(&picture);
            p.drawPicture(0, 0, timeline.picture);
        }
        written = file.write(htmlReport(content, picture, date)) >= 0;
    }
    if (!written || !file.commit()) {
        error = QStringLiteral("%1: %2").arg(
            path, written ? file.errorString() : QStringLiteral("the report could not be written"));
        return false;
    }
    return true;
}

} // namespace ks
