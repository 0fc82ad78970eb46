// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/compare/tracediff.h"
#include "common/backgroundtask.h"
#include "session/comparedtraces.h"
#include "session/loadedtrace.h"
#include "session/run.h"

#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTabWidget;

namespace ks {

class ComparisonView;
class RunView;
class DetailsPanel;
class TimelineView;
class WelcomePage;
class ExportActions;
class LoadQueue;
class RecentFiles;
class SelectionController;
class TraceTab;

/*!
 * The main window: one tab per trace or comparison, a details dock that follows the current
 * tab's selection, background loading with progress and Cancel in the status bar (LoadQueue),
 * drag and drop, recent files (RecentFiles) and the Export menu (ExportActions).
 */
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    static constexpr int kDetailsMinWidth = 260; //!< the Details dock never gets narrower
    //! A tab's title for the trace at \a path: short enough for a tab bar.
    static QString tabTitle(const QString &path);
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    //! Queues \a paths for loading; each opens in its own tab when loaded.
    void openFiles(const QStringList &paths);
    void openDemo();
    //! Adds a tab for an already loaded trace.
    TraceTab *addTrace(std::shared_ptr<const LoadedTrace> trace, const QString &title);
    //! Loads \a base and \a candidate in the background, compares them on a worker and opens
    //! the comparison in a tab.
    void openComparison(
        const QString &base, const QString &candidate, const DiffOptions &options = {});
    //! Adds a tab for a comparison made already.
    ComparisonView *addComparison(
        std::shared_ptr<ComparedTraces> compared, const DiffOptions &options);
    /*!
     * Compares two loaded traces here and now and adds the tab (headless screenshots, tests);
     * null when the options name a step a trace lacks (the reason in lastComparisonError()).
     */
    ComparisonView *addComparison(std::shared_ptr<const LoadedTrace> base,
        std::shared_ptr<const LoadedTrace> candidate,
        const DiffOptions &options = {});
    const QString &lastComparisonError() const { return m_comparisonError; }
    /*!
     * Opens \a paths (trace files and folders of them) as one run of several ranks: loaded in
     * the background, ranks in parallel, then shown in a tab. Ranks that fail are named in the
     * tab's notice; when none loads, an error says why.
     */
    void openRun(const QStringList &paths);
    //! Adds a tab for a run opened already.
    RunView *addRun(std::shared_ptr<const Run> run);
    //! addRun(), unless the traces are of different jobs (Run::unrelated): then asks
    //! whether to open them in tabs (the default) or as one run anyway.
    void addRunOrAsk(std::shared_ptr<const Run> run);
    TraceTab *currentTab() const;
    //! The timeline the View menu's keys act on: the trace tab's, or a comparison's base.
    TimelineView *currentTimeline() const;
    QTabWidget *tabs() const { return m_tabs; }
    DetailsPanel *details() const { return m_details; }
    bool isLoading() const;
    QStringList recentFiles() const;
    //! Non-modal dialogs for failures (the window never blocks on a message).
    void showError(const QString &title, const QString &message);

    //! Path of the demo trace unpacked from the resources.
    static QString demoTracePath();

signals:
    void traceOpened(ks::TraceTab *tab);
    void comparisonOpened(ks::ComparisonView *view);
    void loadFailed(const QString &message);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    //! The File menu (its Export Report… entry is added by ExportActions, before Close Tab).
    QMenu *buildFileMenu();
    void buildViewMenu();
    void buildNavigateMenu();
    void buildHelpMenu();
    void buildStatusBar();
    void connectLoads();
    void showWelcomeIfEmpty();
    void askToOpen();
    void askToCompare();
    void askToOpenRun(bool folder);
    //! Several files dropped: one run or one tab each? Asks when they share a world size.
    void openDropped(const QStringList &paths);
    //! Asks whether \a paths are one run of \a worldSize ranks (0: opens them in tabs).
    void askRunOrTabs(const QStringList &paths, int worldSize);
    //! The trace of the tab open on \a path, if any.
    std::shared_ptr<const LoadedTrace> openTraceAt(const QString &path) const;
    void remember(const QString &path); //!< in the recent files
    void onCurrentTabChanged();
    void updateHistoryActions();

    QTabWidget *m_tabs;
    QStackedWidget *m_central = nullptr;
    WelcomePage *m_welcome = nullptr;
    DetailsPanel *m_details;
    QDockWidget *m_detailsDock = nullptr;
    LoadQueue *m_loads;
    RecentFiles *m_recent = nullptr;
    ExportActions *m_exports = nullptr;
    QAction *m_closeTab = nullptr;
    QAction *m_back = nullptr;
    QAction *m_forward = nullptr;
    QPointer<SelectionController> m_historySource; //!< whose history the actions follow
    QMetaObject::Connection m_historyConnection;
    QWidget *m_progressBox = nullptr;
    QLabel *m_progressLabel = nullptr;
    QProgressBar *m_progressBar = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QString m_comparisonError;
    //! One per multi-file drop: a later drop must not supersede an earlier one.
    std::vector<std::unique_ptr<BackgroundTask<int>>> m_worldSizePeeks;
};

} // namespace ks
