// SPDX-License-Identifier: MIT
#include "output/exporter.h"

#include "export/table.h"
#include "table/tablemodel.h"
#include "timeline/timelineview.h"

#include <QBuffer>
#include <QPainter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

namespace ks::Exporter {

namespace {

bool commit(QSaveFile &file, QString &error)
{
    if (!file.commit()) {
        error = QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
        return false;
    }
    return true;
}

bool open(QSaveFile &file, QString &error)
{
    if (!file.open(QIODevice::WriteOnly)) {
        error = QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
        return false;
    }
    return true;
}

template<typename Paint>
bool saveSvg(const QString &path,
    QSize size,
    const QString &title,
    Paint &&paint,
    QString &error,
    QSize viewBox = {})
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), viewBox.isValid() ? viewBox : size));
    svg.setTitle(title);
    svg.setDescription(QStringLiteral("Kinetoscope"));
    {
        QPainter painter(&svg);
        paint(painter);
    }
    // QSvgGenerator states the size in millimetres, which viewers turn back into pixels at
    // different resolutions; state it in pixels so the picture has the size that was asked.
    QByteArray data = buffer.data();
    static const QRegularExpression sizeAttributes(
        QStringLiteral("width=\"[0-9.]+mm\" height=\"[0-9.]+mm\""));
    const QString header = QString::fromUtf8(data.left(1024));
    const QRegularExpressionMatch m = sizeAttributes.match(header);
    if (m.hasMatch()) {
        const QByteArray replacement = QStringLiteral("width=\"%1\" height=\"%2\"")
                                           .arg(size.width())
                                           .arg(size.height())
                                           .toUtf8();
        data.replace(m.capturedStart(), m.capturedLength(), replacement);
    }
    QSaveFile file(path);
    if (!open(file, error))
        return false;
    if (file.write(data) != data.size()) {
        error = QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
        return false;
    }
    return commit(file, error);
}

bool savePng(const QString &path, const QImage &image, QString &error)
{
    if (image.isNull()) { // QImage's own allocation failed
        error = QStringLiteral("%1: not enough memory to draw the picture").arg(path);
        return false;
    }
    QSaveFile file(path);
    if (!open(file, error))
        return false;
    if (!image.save(&file, "PNG")) {
        // Encoding allocates too: a picture that was drawn fails here for want of memory.
        error = QStringLiteral("%1: cannot encode the image (not enough memory?)").arg(path);
        return false;
    }
    return commit(file, error);
}

} // namespace

bool isSvg(const QString &path)
{
    return path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive);
}

QImage timelineImage(TimelineView *timeline, qreal scale)
{
    const QSize size = timeline->size();
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    QPainter painter(&image);
    timeline->render(painter, size);
    return image;
}

QImage widgetImage(QWidget *widget, qreal scale)
{
    QImage image(widget->size() * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(widget->palette().color(QPalette::Window));
    QPainter painter(&image);
    widget->render(
        &painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    return image;
}

bool saveTimeline(TimelineView *timeline, const QString &path, qreal scale, QString &error)
{
    if (isSvg(path)) {
        return saveSvg(
            path, timeline->size(), QStringLiteral("Kinetoscope timeline"),
            [&](QPainter &p) { timeline->render(p, timeline->size()); }, error);
    }
    return savePng(path, timelineImage(timeline, scale), error);
}

bool saveWidget(QWidget *widget, const QString &path, qreal scale, QString &error, QSize outputSize)
{
    const QSize size = outputSize.isValid() ? outputSize : widget->size();
    if (isSvg(path)) {
        return saveSvg(
            path, size, widget->windowTitle(),
            [&](QPainter &p) { widget->render(&p, QPoint(), QRegion(), QWidget::DrawChildren); },
            error, widget->size());
    }
    QImage image = widgetImage(widget, scale);
    if (size != widget->size())
        image = image.scaled(size * scale, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    return savePng(path, image, error);
}

bool saveTable(
    const Table &table, const std::vector<uint32_t> &rows, const QString &path, QString &error)
{
    std::string message;
    if (!exportTableRows(table, rows, path.toStdString(), message)) {
        error = QString::fromStdString(message);
        return false;
    }
    return true;
}

} // namespace ks::Exporter
