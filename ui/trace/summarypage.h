// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"
#include "common/backgroundtask.h"
#include "export/celltable.h"

#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace ks {

class TableModel;

/*!
 * A page of one summary table of a trace (the Runtime API summary, the Operators), for the step
 * chosen in the toolbar and the mode chosen on the page (by name, by name and input dims, …):
 * the table is built on a pool thread — a summary walks every event — when the page is shown
 * after either changed, and filtered by the names in its first column. Its rows are those of the
 * command line's export of the same table.
 */
class SummaryPage : public QWidget {
    Q_OBJECT
public:
    //! Builds the table of ProfilerStep#step (kNoValue: the whole trace) in mode \a mode; called
    //! on a pool thread with values only.
    using Build = std::function<CellTable(int64_t step, int mode)>;

    //! \a modes: the page's choices (none: no choice shown); \a filterHint: the filter's hint.
    SummaryPage(const QString &objectName,
        Build build,
        const QStringList &modes,
        const QString &filterHint,
        QWidget *parent = nullptr);
    ~SummaryPage() override;

    QTableView *view() const { return m_view; }
    //! The table in view; null until first built.
    TableModel *model() const { return m_model; }
    void setStepNumber(int64_t number);
    void setMode(int mode);
    //! True while a table is being built.
    bool building() const { return m_building; }

signals:
    //! A table was built and put in view.
    void built();

protected:
    void showEvent(QShowEvent *event) override;

private:
    //! Builds the table now when the page shows, else when it is next shown.
    void rebuild();
    void applyFilter();
    //! A column no row fills (the input dims, by name only) is not shown.
    void hideEmptyColumns();

    Build m_build;
    QComboBox *m_modeBox = nullptr;
    QLineEdit *m_filter;
    QLabel *m_status;
    QTableView *m_view;
    TableModel *m_model = nullptr;
    int64_t m_step = kNoValue;
    bool m_building = false;
    bool m_stale = true; //!< the step or mode changed while hidden
    BackgroundTask<std::shared_ptr<const CellTable>> m_task;
};

} // namespace ks
