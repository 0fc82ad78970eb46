// SPDX-License-Identifier: MIT
#pragma once

#include "common/backgroundtask.h"
#include "common/selectioncontroller.h"

#include <QWidget>

#include <memory>

class QTabWidget;

namespace ks {

class ChartsView;
class CriticalPathPage;
class FindingsPage;
class KernelTablePage;
class MemoryView;
class ModulesView;
class PairTablePage;
class SummaryPage;
class TimelineView;
class TraceToolbar;

/*!
 * One open trace: the diagnostics banner and the toolbar on top, the timeline, and below it the
 * pair and GPU event tables, the charts, the module tree, (with memory events) the memory page
 * and the critical path, all sharing one SelectionController: selecting in any of them selects
 * everywhere. The charts, modules, memory and critical-path pages are made when first shown; the
 * Step selector keeps every page that can show one step to it.
 */
class TraceTab : public QWidget {
    Q_OBJECT
public:
    explicit TraceTab(std::shared_ptr<const LoadedTrace> trace, QWidget *parent = nullptr);
    ~TraceTab() override;

    SelectionController *selection() const { return m_selection; }
    TimelineView *timeline() const { return m_timeline; }
    //! Made when first shown or asked for (their tables need the critical path and efficiency,
    //! worked out in the background meanwhile): not on the way to the first frame.
    PairTablePage *pairs();
    KernelTablePage *kernels();
    //! The Runtime API page: one row per runtime or driver call name (`--export-api-summary`).
    SummaryPage *apiSummary() const { return m_api; }
    //! The Operators page: one row per op name, or name and dims (`--export-op-summary`).
    SummaryPage *operators() const { return m_operators; }
    //! The Charts page's view, created on first use.
    ChartsView *charts();
    //! The Memory tab's view (created when first asked for); null without memory events.
    MemoryView *memory();
    //! The Modules page's view, created on first use (waits for the module tree if need be);
    //! null when memory ran out building the tree (the page says so).
    ModulesView *modules();
    //! The Critical path page, created on first use.
    CriticalPathPage *criticalPath();
    //! The Findings page, null for a trace without steps.
    FindingsPage *findings() const { return m_findings; }
    //! True until what the first frame left for later has come: the Findings page's path and
    //! findings, the op pairs' columns (a picture of the window waits for them).
    bool pagesPending() const;
    QTabWidget *bottomTabs() const { return m_bottom; }
    //! Shows the find bar and focuses it.
    void startFind();
    //! N of the ProfilerStep chosen in the toolbar (kNoValue: the whole trace).
    int64_t stepNumber() const;

private:
    QWidget *buildPages();
    /*!
     * Step \a stepIndex of the graph's steps (-1: the whole trace) in every view that can show
     * one: the timeline frames it, the pair instances, top-pairs chart and Modules tab keep to it.
     */
    void setStep(int stepIndex);
    void showSelection(SliceId slice);
    void highlightModule(ModuleId id);
    //! Lights the critical path's events up in the timeline, framed (on the Critical path page).
    void highlightCriticalPath(bool on);

    std::shared_ptr<const LoadedTrace> m_trace;
    SelectionController *m_selection;
    TimelineView *m_timeline;
    TraceToolbar *m_toolbar = nullptr;
    QTabWidget *m_bottom = nullptr;
    PairTablePage *m_pairs = nullptr;
    KernelTablePage *m_kernels = nullptr;
    QWidget *m_pairsPage = nullptr; //!< holds m_pairs once made
    QWidget *m_kernelsPage = nullptr;
    SummaryPage *m_api = nullptr;
    SummaryPage *m_operators = nullptr;
    QWidget *m_chartsPage = nullptr;
    QWidget *m_modulesPage = nullptr;
    QWidget *m_memoryPage = nullptr; //!< only for traces with memory events
    QWidget *m_criticalPage = nullptr;
    FindingsPage *m_findings = nullptr; //!< first, where the trace has steps
    CriticalPathPage *m_critical = nullptr;
    bool m_pathShown = false; //!< the timeline's highlight is the critical path
    ChartsView *m_charts = nullptr;
    ModulesView *m_modules = nullptr;
    bool m_modulesFailed = false; //!< out of memory building the tree: the page says so
    MemoryView *m_memory = nullptr;
    int m_step = -1; //!< index in the graph's steps; -1: the whole trace
    //! Builds the module tree before the Modules tab asks (a failure is said, never thrown).
    BackgroundTask<bool> m_moduleTree {this};
};

} // namespace ks
