// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace ks {

/*!
 * A cell's text cut short to fit its column ("AMD Instinct MI300X: vector_f…") shows whole in
 * a tooltip on hover; a cell with a tooltip of its own keeps it. For the tables and the Details
 * panel, whose columns are narrower than some of their values.
 */
class ElidedTipDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    bool helpEvent(QHelpEvent *event,
        QAbstractItemView *view,
        const QStyleOptionViewItem &option,
        const QModelIndex &index) override;
};

} // namespace ks
