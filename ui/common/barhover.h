// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <functional>

class QAbstractBarSeries;

namespace ks {

/*!
 * Hovering a bar of \a series shows its category (from \a categories), its set's name and its
 * exact value as \a valueText writes it, and for a stacked bar the stack's total; the selection
 * does not change.
 */
void showBarToolTips(
    QAbstractBarSeries *series, QStringList categories, std::function<QString(double)> valueText);

} // namespace ks
