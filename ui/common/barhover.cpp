// SPDX-License-Identifier: MIT
#include "common/barhover.h"

#include <QAbstractBarSeries>
#include <QBarLegendMarker>
#include <QBarSet>
#include <QChart>
#include <QCoreApplication>
#include <QCursor>
#include <QLegend>
#include <QToolTip>

namespace ks {

void showChartTip(QChart *chart, const QString &text)
{
    if (chart)
        chart->setToolTip(text);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(QCursor::pos(), text);
}

void showBarToolTips(
    QAbstractBarSeries *series, QStringList categories, std::function<QString(double)> valueText)
{
    const bool stacked = series->type() == QAbstractSeries::SeriesTypeStackedBar
        || series->type() == QAbstractSeries::SeriesTypeHorizontalStackedBar;
    QObject::connect(series, &QAbstractBarSeries::hovered, series,
        [series, categories = std::move(categories), valueText = std::move(valueText), stacked](
            bool on, int index, QBarSet *set) {
            if (!on || index < 0 || index >= set->count()) {
                showChartTip(series->chart(), {});
                return;
            }
            QString text
                = QStringLiteral("%1\n%2: %3")
                      .arg(categories.value(index), set->label(), valueText(set->at(index)));
            if (stacked) {
                double total = 0;
                for (const QBarSet *s : series->barSets())
                    total += index < s->count() ? s->at(index) : 0;
                text += QCoreApplication::translate("BarHover", "\nin all: %1")
                            .arg(valueText(total));
            }
            showChartTip(series->chart(), text);
        });
}

void showLegendTips(QAbstractBarSeries *series, QStringList tips)
{
    QChart *chart = series->chart();
    for (QLegendMarker *marker : chart->legend()->markers(series)) {
        auto *barMarker = qobject_cast<QBarLegendMarker *>(marker);
        const qsizetype at = barMarker ? series->barSets().indexOf(barMarker->barset()) : -1;
        if (at < 0 || at >= tips.size())
            continue;
        QObject::connect(marker, &QLegendMarker::hovered, marker,
            [chart, tip = tips[at]](bool on) { showChartTip(chart, on ? tip : QString()); });
    }
}

} // namespace ks
