// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QString>

#include <cstdint>
#include <vector>

class QWidget;

namespace ks {

class TimelineView;
class Table;

/*!
 * Image and table exports shared by the Export menu and headless --screenshot. Every file is
 * written atomically (QSaveFile / AtomicFile): a failure leaves any earlier file intact and
 * returns false with a message naming the file.
 */
namespace Exporter {

//! True when \a path names an SVG file (by extension); otherwise PNG.
bool isSvg(const QString &path);

//! The timeline exactly as shown, at \a scale × its size (PNG) or as vector graphics (SVG).
bool saveTimeline(TimelineView *timeline, const QString &path, qreal scale, QString &error);
/*!
 * Any widget (window, chart, table) as PNG, or as SVG through QWidget::render. When
 * \a outputSize is given and differs from the widget's size (a window cannot shrink below its
 * minimum size), the picture is scaled to it.
 */
bool saveWidget(
    QWidget *widget, const QString &path, qreal scale, QString &error, QSize outputSize = {});
//! The timeline (or a widget) as an image, for the clipboard.
QImage timelineImage(TimelineView *timeline, qreal scale);
QImage widgetImage(QWidget *widget, qreal scale);
/*!
 * The \a rows of \a table (a view's order: TableModel::visibleRows()), CSV or JSON by
 * extension, same columns as the CLI. Any thread: the window writes on a pool thread.
 */
bool saveTable(
    const Table &table, const std::vector<uint32_t> &rows, const QString &path, QString &error);

} // namespace Exporter

} // namespace ks
