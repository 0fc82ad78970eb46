// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath.h"
#include "common/backgroundtask.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QTableView;

namespace ks {

class SelectionController;
class TableModel;

/*!
 * The "Critical path" page of a trace (docs/critical-path.md): what bounds the first step, as
 * `--summary` and `--export-critical-path` say it. A line names the step, the length and its
 * classes; the segments table lists the path in order (selecting a row selects its event
 * everywhere); beside it the path by class, by pair, and the what-ifs: the ten changes that
 * shorten it most (worked out in the background) and the user's own, typed as NAME:FACTOR or
 * asked from the pair table.
 */
class CriticalPathPage : public QWidget {
    Q_OBJECT
public:
    explicit CriticalPathPage(SelectionController *selection, QWidget *parent = nullptr);
    ~CriticalPathPage() override;

    QTableView *segments() const { return m_segments; }
    QTableView *whatIfs() const { return m_whatIfs; }
    QLabel *summary() const { return m_summary; }
    //! Works out "if NAME's GPU work took FACTOR of its time" and lists it first.
    void askWhatIf(const WhatIfChange &change);
    //! True until the ten best changes are listed.
    bool whatIfsPending() const { return m_task.pending(); }

private:
    QWidget *buildSide();
    void showWhatIfs();

    SelectionController *m_selection;
    const CriticalPathAnalysis &m_analysis;
    QLabel *m_summary;
    QTableView *m_segments;
    QTableView *m_whatIfs = nullptr;
    QLineEdit *m_whatIfEdit = nullptr;
    std::vector<WhatIf> m_asked; //!< the user's what-ifs, latest first
    std::vector<WhatIf> m_best;
    BackgroundTask<std::vector<WhatIf>> m_task; //!< the ten best changes
    BackgroundTask<WhatIf> m_askTask; //!< the user's latest what-if
};

} // namespace ks
