// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QTableView;

namespace ks {

class SelectionController;
class TableModel;

/*!
 * The "GPU events" page of a trace, in two modes, both for the step chosen in the toolbar
 * (events launched in it) and filtered by kernel or op name. Events: one row per kernel, memcpy
 * and memset with its launch, op and pair; selecting a row selects the event everywhere, a
 * double-click jumps to the op that launched it. Summary: one row per kernel name
 * (`--export-kernel-summary`); a double-click lists that kernel's events.
 */
class KernelTablePage : public QWidget {
    Q_OBJECT
public:
    enum Mode { Events, Summary };

    explicit KernelTablePage(SelectionController *selection, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    //! The model of the mode in view.
    TableModel *model() const;
    TableModel *eventsModel() const { return m_events; }
    //! The summary's model (null until the summary was first shown).
    TableModel *summaryModel() const { return m_summary; }
    void setMode(Mode mode);
    Mode mode() const;
    //! Keeps the summary to ProfilerStep#\a number (kNoValue: the whole trace).
    void setStepNumber(int64_t number);
    //! Selects \a slice's row when it is a GPU event in view; clears the selection otherwise.
    void showSelection(SliceId slice);

private:
    void rebuildSummary();
    //! Puts \a model in the view, its rows selecting events (in the Events mode).
    void showModel(TableModel *model);
    void applyFilter();

    SelectionController *m_selection;
    QComboBox *m_modeBox;
    QLineEdit *m_filter;
    QTableView *m_view;
    TableModel *m_events;
    TableModel *m_summary = nullptr;
    int64_t m_step = kNoValue;
    bool m_syncing = false; //!< the selection moves the row: no feedback into the selection
};

} // namespace ks
