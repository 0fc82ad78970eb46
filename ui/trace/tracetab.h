// SPDX-License-Identifier: MIT
#pragma once

#include "common/selectioncontroller.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;
class QFrame;

namespace ks {

class TableModel;
class TimelineView;
class PairGroupTable;
class ChartsView;
class MemoryView;
class ModulesView;

/*!
 * One open trace: the timeline above, the pair and kernel tables (and charts) below, sharing one
 * SelectionController. Selecting in any of them selects everywhere.
 */
class TraceTab : public QWidget {
    Q_OBJECT
public:
    explicit TraceTab(std::shared_ptr<const LoadedTrace> trace, QWidget *parent = nullptr);
    ~TraceTab() override;

    SelectionController *selection() const { return m_selection; }
    TimelineView *timeline() const { return m_timeline; }
    QTableView *pairView() const { return m_pairView; }
    TableModel *pairModel() const { return m_pairModel; }
    TableModel *kernelModel() const { return m_kernelModel; }
    //! The Charts page's view, created on first use.
    ChartsView *charts();
    //! The Memory tab's view (created when first asked for); null without memory events.
    MemoryView *memory();
    //! The Modules page's view, created on first use (waits for the module tree if need be).
    ModulesView *modules();
    QLineEdit *pairFilter() const { return m_filter; }
    QTabWidget *bottomTabs() const { return m_bottom; }
    //! Switches the pair table between one row per pair and one row per op kind.
    void setGroupMode(bool groups);
    bool groupMode() const { return m_groupMode; }
    //! The widget exported as "the table" (the visible one of pairs/kernels).
    QTableView *currentTableView() const;
    //! Shows the find bar and focuses it.
    void startFind();
    //! Warnings shown in the banner (empty when the load was clean).
    QString diagnosticsReport() const;
    //! The same as a list for the banner's dialog: counted warnings first, each with a one-line
    //! description, then the informational counters apart.
    QString diagnosticsSummary() const;

signals:
    void statusMessage(const QString &text);

private:
    QWidget *buildToolbar();
    QWidget *buildBanner();
    QWidget *buildPairPage();
    QWidget *buildKernelPage();
    void attachPairModel();
    void applyPairFilter();
    //! Why the pair table is empty (no sequence numbers, or no backward pass).
    QLabel *noPairsNotice(QWidget *parent) const;
    //! Step \a stepIndex of the graph's steps (-1: the whole trace) in every view that can show
    //! one: the timeline frames it, the pair instances, top-pairs chart and Modules tab keep to it.
    void setStep(int stepIndex);
    void updateRowCount();
    void selectTableRowFor(SliceId slice);
    void highlightModule(ModuleId id);
    void onPairRowActivated(const QModelIndex &index);

    std::shared_ptr<const LoadedTrace> m_trace;
    SelectionController *m_selection;
    TimelineView *m_timeline;
    QTabWidget *m_bottom = nullptr;
    QTableView *m_pairView = nullptr;
    QTableView *m_kernelView = nullptr;
    TableModel *m_pairModel = nullptr;
    TableModel *m_instanceModel = nullptr;
    TableModel *m_groupModel = nullptr;
    TableModel *m_kernelModel = nullptr;
    std::shared_ptr<const PairGroupTable> m_groups;
    QWidget *m_chartsPage = nullptr;
    QWidget *m_modulesPage = nullptr;
    QWidget *m_memoryPage = nullptr; //!< only for traces with memory events
    MemoryView *m_memory = nullptr;
    ChartsView *m_charts = nullptr;
    ModulesView *m_modules = nullptr;
    QLineEdit *m_filter = nullptr;
    QCheckBox *m_regex = nullptr;
    QCheckBox *m_checkpointed = nullptr;
    QComboBox *m_mode = nullptr;
    QLineEdit *m_find = nullptr;
    QLabel *m_findStatus = nullptr;
    QLabel *m_rowCount = nullptr;
    int m_step = -1; //!< index in the graph's steps; -1: the whole trace
    bool m_groupMode = false;
    bool m_syncingTable = false;
};

} // namespace ks
