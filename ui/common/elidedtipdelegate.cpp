// SPDX-License-Identifier: MIT
#include "common/elidedtipdelegate.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QStyle>
#include <QToolTip>

namespace ks {

bool ElidedTipDelegate::helpEvent(QHelpEvent *event,
    QAbstractItemView *view,
    const QStyleOptionViewItem &option,
    const QModelIndex &index)
{
    if (event->type() != QEvent::ToolTip || !index.isValid()
        || index.data(Qt::ToolTipRole).isValid())
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    QStyleOptionViewItem item(option);
    initStyleOption(&item, index);
    const QStyle *style = view->style() ? view->style() : QApplication::style();
    const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &item, view);
    // The style's text margin on each side, as QCommonStyle lays the text out.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, &item, view) + 1;
    const bool cut = item.fontMetrics.horizontalAdvance(item.text) > textRect.width() - 2 * margin;
    if (!cut) {
        QToolTip::hideText();
        return false;
    }
    QToolTip::showText(event->globalPos(), item.text, view->viewport(), option.rect);
    return true;
}

} // namespace ks
