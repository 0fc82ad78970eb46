// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <functional>

class QAbstractBarSeries;
class QChart;

namespace ks {

/*!
 * Hovering a bar of \a series shows its category (from \a categories), its set's name and its
 * exact value as \a valueText writes it, and for a stacked bar the stack's total; the selection
 * does not change.
 */
void showBarToolTips(
    QAbstractBarSeries *series, QStringList categories, std::function<QString(double)> valueText);

/*!
 * Hovering the legend entry of \a series's set i shows \a tips[i]: what a short legend name
 * ("exposed comm") stands for. Call it once the series is on its chart.
 */
void showLegendTips(QAbstractBarSeries *series, QStringList tips);

/*!
 * Shows \a text as \a chart's tooltip at the cursor (empty: hides it). The chart carries the text
 * too: its view's own tooltip event, a moment after, shows the tip of the item under the cursor,
 * and with none it hid this one (seen in a real window, not offscreen).
 */
void showChartTip(QChart *chart, const QString &text);

} // namespace ks
