// SPDX-License-Identifier: MIT
#include "exporter.h"

#include "tablemodel.h"
#include "table.h"
#include "timelineview.h"

#include <QBuffer>
#include <QPainter>
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
bool saveSvg(const QString &path, QSize size, const QString &title, Paint &&paint, QString &error)
{
    QSaveFile file(path);
    if (!open(file, error))
        return false;
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(title);
    svg.setDescription(QStringLiteral("Kinetoscope"));
    {
        QPainter painter(&svg);
        paint(painter);
    }
    return commit(file, error);
}

bool savePng(const QString &path, const QImage &image, QString &error)
{
    QSaveFile file(path);
    if (!open(file, error))
        return false;
    if (!image.save(&file, "PNG")) {
        error = QStringLiteral("%1: cannot encode the image").arg(path);
        return false;
    }
    return commit(file, error);
}

} // namespace

bool isSvg(const QString &path) { return path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive); }

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
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    return image;
}

bool saveTimeline(TimelineView *timeline, const QString &path, qreal scale, QString &error)
{
    if (isSvg(path)) {
        return saveSvg(path, timeline->size(), QStringLiteral("Kinetoscope timeline"),
                       [&](QPainter &p) { timeline->render(p, timeline->size()); }, error);
    }
    return savePng(path, timelineImage(timeline, scale), error);
}

bool saveWidget(QWidget *widget, const QString &path, qreal scale, QString &error)
{
    if (isSvg(path)) {
        return saveSvg(path, widget->size(), widget->windowTitle(),
                       [&](QPainter &p) { widget->render(&p, QPoint(), QRegion(), QWidget::DrawChildren); },
                       error);
    }
    return savePng(path, widgetImage(widget, scale), error);
}

bool saveTable(const TableModel *model, const QString &path, QString &error)
{
    std::string message;
    if (!exportTableRows(model->table(), model->visibleRows(), path.toStdString(), message)) {
        error = QString::fromStdString(message);
        return false;
    }
    return true;
}

} // namespace ks::Exporter
