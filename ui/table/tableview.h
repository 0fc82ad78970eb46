// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QTableView;
class QWidget;

namespace ks {

/*!
 * A table view as every table of the window is set up: whole rows selected one at a time,
 * sortable by clicking a header (no column sorted at first; the arrow points the way values
 * fall), movable columns, compact rows without row numbers, long text elided in the middle, back
 * at the top whenever its rows are filtered or sorted anew.
 */
QTableView *makeTableView(QWidget *parent, const QString &objectName);

//! Selects view row \a viewRow and scrolls to it; clears the selection when it is -1.
void showViewRow(QTableView *view, int viewRow);

//! Fits each column to its contents, at most \a maxWidth pixels wide.
void fitColumns(QTableView *view, int maxWidth = 320);

} // namespace ks
