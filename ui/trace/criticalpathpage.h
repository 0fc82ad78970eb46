// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "common/backgroundtask.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QTableView;

namespace ks {

class TableModel;

/*!
 * The "Critical path" page of a trace or of a run (docs/critical-path.md): what bounds the step,
 * as `--summary` and `--export-critical-path` say it. A line names the step, the model, the window
 * and the length with its classes; a caveat line says what the trace cannot tell (its notes); the
 * segments table lists the path in order (choosing a row emits segmentChosen); beside it the path
 * by class, by pair, for a run each rank's time on the path, slack and late start, and the
 * what-ifs: the ten changes that shorten it most (worked out in the background) and the user's
 * own, typed as NAME:FACTOR or asked from the pair table.
 */
class CriticalPathPage : public QWidget {
    Q_OBJECT
public:
    explicit CriticalPathPage(
        std::shared_ptr<const CriticalPathAnalysis> analysis, QWidget *parent = nullptr);
    ~CriticalPathPage() override;

    QTableView *segments() const { return m_segments; }
    TableModel *segmentModel() const;
    QTableView *whatIfs() const { return m_whatIfs; }
    QLabel *summary() const { return m_summary; }
    //! What the trace cannot tell (CriticalPath::notes), hidden when there is nothing to say.
    QLabel *caveat() const { return m_caveat; }
    //! Why the user's last what-if was refused, empty when it was not.
    QLabel *whatIfMessage() const { return m_whatIfMessage; }
    //! Works out "if NAME's GPU work took FACTOR of its time" and lists it first.
    void askWhatIf(const WhatIfChange &change);
    //! True until the ten best changes are listed.
    bool whatIfsPending() const { return m_task.pending(); }

signals:
    //! The user chose the segment at \a index of the path's segments.
    void segmentChosen(quint32 index);

private:
    //! A what-if worked out, or refused for what the traces do not have (\a problem).
    struct Asked {
        WhatIf whatIf;
        std::string problem;
    };

    QWidget *buildSide();
    void showWhatIfs();
    void showAsked(Asked asked);

    std::shared_ptr<const CriticalPathAnalysis> m_analysis;
    QLabel *m_summary;
    QLabel *m_caveat;
    QTableView *m_segments;
    QTableView *m_whatIfs = nullptr;
    QLineEdit *m_whatIfEdit = nullptr;
    QLabel *m_whatIfMessage = nullptr;
    std::vector<WhatIf> m_asked; //!< the user's what-ifs, latest first
    std::vector<WhatIf> m_best;
    BackgroundTask<std::vector<WhatIf>> m_task; //!< the ten best changes
    BackgroundTask<Asked> m_askTask; //!< the user's latest what-if
};

} // namespace ks
