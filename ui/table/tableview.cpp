// SPDX-License-Identifier: MIT
#include "table/tableview.h"

#include <QHeaderView>
#include <QTableView>

#include <algorithm>

namespace ks {

QTableView *makeTableView(QWidget *parent, const QString &objectName)
{
    auto *view = new QTableView(parent);
    view->setObjectName(objectName);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setSortingEnabled(true);
    view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    view->horizontalHeader()->setSectionsMovable(true);
    view->verticalHeader()->setDefaultSectionSize(20);
    view->verticalHeader()->hide();
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    return view;
}

void showViewRow(QTableView *view, int viewRow)
{
    if (viewRow < 0) {
        view->selectionModel()->clear();
        return;
    }
    view->selectRow(viewRow);
    view->scrollTo(view->model()->index(viewRow, 0));
}

void fitColumns(QTableView *view, int maxWidth)
{
    view->resizeColumnsToContents();
    const int columns = view->model() ? view->model()->columnCount() : 0;
    for (int c = 0; c < columns; ++c)
        view->setColumnWidth(c, std::min(view->columnWidth(c), maxWidth));
}

} // namespace ks
