// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QModelIndex;
class QTableView;

namespace ks {

struct LoadedTrace;
class PairGroupTable;
class SelectionController;
class TableModel;

/*!
 * The "Op pairs" page of a trace: the pair table as instances (one row per pair) or groups (op
 * + input dims), filtered as you type (substring or regex, "Checkpointed only"), with the number
 * of rows shown. Selecting a row selects its pair everywhere; Enter or a double-click jumps to
 * the counterpart. Instances keep to the step chosen in the toolbar. The context menu asks what
 * the critical path would be with the row's GPU work twice as fast (whatIfAsked()).
 */
class PairTablePage : public QWidget {
    Q_OBJECT
public:
    explicit PairTablePage(SelectionController *selection, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    //! The model on show: instances or groups.
    TableModel *model() const { return m_model; }
    QLineEdit *filterEdit() const { return m_filter; }
    //! One row per pair (false) or per op + input dims (true).
    void setGroupMode(bool groups);
    //! Keeps instances to ProfilerStep \a stepNumber (kNoValue: every step).
    void setStepNumber(int64_t stepNumber);
    //! Selects the row of \a slice's pair (none when it has none or is filtered out).
    void showSelection(SliceId slice);

signals:
    //! "What if the GPU work of pairs whose forward op is \a name took \a factor of its time?"
    void whatIfAsked(const QString &name, double factor);

private:
    QWidget *buildControls();
    void attachModel();
    void arrangeColumns();
    void applyFilter();
    void updateRowCount();
    void onRowActivated(const QModelIndex &index);
    void showContextMenu(const QPoint &at);
    //! Why the pair table is empty (no sequence numbers, or no backward pass).
    QLabel *noPairsNotice();

    SelectionController *m_selection;
    std::shared_ptr<const LoadedTrace> m_trace;
    std::shared_ptr<const PairGroupTable> m_groups;
    QTableView *m_view = nullptr;
    TableModel *m_instanceModel = nullptr;
    TableModel *m_groupModel = nullptr;
    TableModel *m_model = nullptr;
    QComboBox *m_mode = nullptr;
    QLineEdit *m_filter = nullptr;
    QCheckBox *m_regex = nullptr;
    QCheckBox *m_checkpointed = nullptr;
    QLabel *m_rowCount = nullptr;
    int64_t m_step = kNoValue;
    bool m_groupMode = false;
    bool m_syncing = false; //!< the selection moves the row: no feedback into the selection
};

} // namespace ks
