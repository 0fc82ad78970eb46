// SPDX-License-Identifier: MIT
#pragma once

#include "common/backgroundtask.h"
#include "session/loadedtrace.h"

#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace ks {

/*!
 * The "Findings" page of a trace (issue #58; docs/findings.md): what to fix first in the step the
 * critical path analyses, as `--findings` writes it, worked out in the background. One row per
 * finding, ranked by the time it would save (µs and % of the path); under it the change that saves
 * it, what to do, the PyTorch page that explains it and its evidence: a click on an event
 * selects it (eventChosen), so the timeline frames it.
 */
class FindingsPage : public QWidget {
    Q_OBJECT
public:
    explicit FindingsPage(std::shared_ptr<const LoadedTrace> trace, QWidget *parent = nullptr);
    ~FindingsPage() override;

    QTreeWidget *tree() const { return m_tree; }
    QLabel *summary() const { return m_summary; }
    //! True until the findings are listed.
    bool pending() const { return m_task.pending(); }

signals:
    void eventChosen(quint32 slice);

private:
    void show(const std::vector<StepFinding> &findings);
    QTreeWidgetItem *row(const StepFinding &f) const;

    std::shared_ptr<const LoadedTrace> m_trace;
    QLabel *m_summary;
    QTreeWidget *m_tree;
    BackgroundTask<bool> m_task;
};

} // namespace ks
