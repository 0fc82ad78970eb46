// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/findings/stepfinding.h"
#include "common/backgroundtask.h"

#include <QWidget>

#include <functional>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace ks {

//! What a Findings page lists: the path analysed and its findings, kept alive by \a owner.
struct FindingsOf {
    std::shared_ptr<const void> owner; //!< the trace or run that holds them
    const CriticalPathAnalysis *path = nullptr; //!< null: no path (\a problem says why)
    std::string problem;
    const std::vector<StepFinding> *findings = nullptr;
};

/*!
 * The "Findings" page of a trace or a run (issue #58; docs/findings.md): what to fix first in the
 * step the critical path analyses, as `--findings` writes it, worked out in the background
 * (\a find, on a worker thread). One row per finding, ranked by the time it would save (µs and
 * % of the path); under it the change that saves it, what to do, the PyTorch page that explains
 * it and its evidence: a click on an event selects it (eventChosen), so the timeline frames it.
 */
class FindingsPage : public QWidget {
    Q_OBJECT
public:
    explicit FindingsPage(std::function<FindingsOf()> find, QWidget *parent = nullptr);
    ~FindingsPage() override;

    QTreeWidget *tree() const { return m_tree; }
    QLabel *summary() const { return m_summary; }
    //! True until the findings are listed.
    bool pending() const { return m_task.pending(); }

signals:
    //! An event of the evidence was clicked: \a slice of the path's rank index \a rank.
    void eventChosen(quint32 rank, quint32 slice);

private:
    void show(const FindingsOf &found);
    QTreeWidgetItem *row(const CriticalPathAnalysis &path, const StepFinding &f) const;

    QLabel *m_summary;
    QTreeWidget *m_tree;
    FindingsOf m_found;
    BackgroundTask<FindingsOf> m_task;
};

} // namespace ks
