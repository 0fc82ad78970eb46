// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"

#include <QWidget>

class QTableView;

namespace ks {

class SelectionController;
class TableModel;

/*!
 * The "GPU events" page of a trace: one row per kernel, memcpy and memset with its launch, op
 * and pair, filtered by kernel or op name. Selecting a row selects the event everywhere; a
 * double-click jumps to the op that launched it.
 */
class KernelTablePage : public QWidget {
    Q_OBJECT
public:
    explicit KernelTablePage(SelectionController *selection, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    TableModel *model() const { return m_model; }
    //! Selects \a slice's row when it is a GPU event in view; clears the selection otherwise.
    void showSelection(SliceId slice);

private:
    SelectionController *m_selection;
    QTableView *m_view;
    TableModel *m_model;
    bool m_syncing = false; //!< the selection moves the row: no feedback into the selection
};

} // namespace ks
