// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/tracediff.h"
#include "session/loadedtrace.h"

#include <QMainWindow>
#include <QPointer>

#include "traceloader.h"
#include <QStringList>

#include <deque>
#include <memory>

class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace ks {

class ComparisonView;
class DetailsPanel;
class TraceLoader;
class TraceTab;

/*!
 * The main window: one tab per trace, a details dock that follows the current tab's selection,
 * background loading with progress and Cancel in the status bar, drag and drop, recent files,
 * and the Export menu.
 */
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    //! Queues \a paths for loading; each opens in its own tab when loaded.
    void openFiles(const QStringList &paths);
    void openDemo();
    //! Adds a tab for an already loaded trace.
    TraceTab *addTrace(std::shared_ptr<const LoadedTrace> trace, const QString &title);
    //! Loads \a base and \a candidate in the background and opens their comparison in a tab.
    void openComparison(
        const QString &base, const QString &candidate, const DiffOptions &options = {});
    /*!
     * Adds a comparison tab; null when the options name a step a trace lacks (the reason is in
     * lastComparisonError(), and shown in a dialog).
     */
    ComparisonView *addComparison(std::shared_ptr<const LoadedTrace> base,
        std::shared_ptr<const LoadedTrace> candidate,
        const DiffOptions &options = {});
    const QString &lastComparisonError() const { return m_comparisonError; }
    TraceTab *currentTab() const;
    QTabWidget *tabs() const { return m_tabs; }
    DetailsPanel *details() const { return m_details; }
    bool isLoading() const { return m_loader != nullptr || !m_queue.empty(); }
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
    void dropEvent(QDropEvent *event) override;

private:
    void buildMenus();
    void buildStatusBar();
    void startNextLoad();
    void addRecent(const QString &path);
    void rebuildRecentMenu();
    void onCurrentTabChanged();
    void exportTimeline(const QString &filter, qreal scale);
    void exportWidget(QWidget *widget, const QString &what, const QString &filter);
    void exportTable(bool kernels, const QString &filter);
    QString askSavePath(const QString &title, const QString &filter, const QString &suffix);

    QTabWidget *m_tabs;
    DetailsPanel *m_details;
    QMenu *m_recentMenu = nullptr;
    struct QueuedLoad {
        QString path;
        bool forComparison = false; //!< goes to a pending comparison, not a tab of its own
    };
    std::deque<QueuedLoad> m_queue;
    QPointer<TraceLoader> m_loader;
    QWidget *m_progressBox = nullptr;
    QLabel *m_progressLabel = nullptr;
    QProgressBar *m_progressBar = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QString m_comparisonError;
    //! A comparison waiting for its traces: paths, options, and what has loaded so far.
    struct PendingComparison {
        QString base, candidate;
        DiffOptions options;
        std::shared_ptr<const LoadedTrace> baseTrace, candidateTrace;
    };
    std::vector<PendingComparison> m_pendingComparisons;
    void comparisonTraceLoaded(
        const QString &path, const std::shared_ptr<const LoadedTrace> &trace);
};

} // namespace ks
