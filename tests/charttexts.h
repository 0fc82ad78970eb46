// SPDX-License-Identifier: MIT
#pragma once

#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QStringList>

namespace ks::test {

//! The texts \a chart draws: visible text items (titles, axis labels, legend) inside it.
inline QStringList drawnTexts(QChart *chart)
{
    QStringList out;
    const QRectF bounds = chart->sceneBoundingRect();
    for (QGraphicsItem *item : chart->scene()->items()) {
        auto *text = qgraphicsitem_cast<QGraphicsTextItem *>(item);
        if (text && text->isVisible() && bounds.intersects(text->sceneBoundingRect()))
            out << text->toPlainText();
    }
    return out;
}

//! The texts of \a chart cut short (an elided title, axis label or legend entry): Qt Charts ends
//! them in "..." (ChartPresenter::truncatedText), QFontMetrics::elidedText in "…".
inline QStringList elidedTexts(QChart *chart)
{
    QStringList out;
    for (const QString &text : drawnTexts(chart))
        if (text.endsWith(QChar(0x2026)) || text.endsWith(QLatin1String("...")))
            out << text;
    return out;
}

} // namespace ks::test
