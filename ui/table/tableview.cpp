// SPDX-License-Identifier: MIT
#include "table/tableview.h"

#include "common/elidedtipdelegate.h"

#include <QHeaderView>
#include <QProxyStyle>
#include <QStyleOptionHeader>
#include <QTableView>

#include <algorithm>

namespace ks {

namespace {

//! A table whose rows were filtered or sorted anew starts again at the top.
class TopOnResetTableView : public QTableView {
public:
    using QTableView::QTableView;
    void reset() override
    {
        QTableView::reset();
        scrollToTop();
    }
};

/*!
 * Qt draws an ascending sort as a down arrow and a descending one as an up arrow; the arrow
 * points the way values go down the column instead, as in Nsight and most tools.
 */
class SortArrowStyle : public QProxyStyle {
public:
    void drawPrimitive(PrimitiveElement element,
        const QStyleOption *option,
        QPainter *painter,
        const QWidget *widget) const override
    {
        const auto *header = qstyleoption_cast<const QStyleOptionHeader *>(option);
        if (element != PE_IndicatorHeaderArrow || !header) {
            QProxyStyle::drawPrimitive(element, option, painter, widget);
            return;
        }
        QStyleOptionHeader flipped(*header);
        if (header->sortIndicator == QStyleOptionHeader::SortUp)
            flipped.sortIndicator = QStyleOptionHeader::SortDown;
        else if (header->sortIndicator == QStyleOptionHeader::SortDown)
            flipped.sortIndicator = QStyleOptionHeader::SortUp;
        QProxyStyle::drawPrimitive(element, &flipped, painter, widget);
    }
};

} // namespace

QTableView *makeTableView(QWidget *parent, const QString &objectName)
{
    auto *view = new TopOnResetTableView(parent);
    view->setObjectName(objectName);
    view->setItemDelegate(new ElidedTipDelegate(view));
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setSortingEnabled(true);
    view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    auto *arrows = new SortArrowStyle; // the header does not own its style: its child does
    arrows->setParent(view->horizontalHeader());
    view->horizontalHeader()->setStyle(arrows);
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
