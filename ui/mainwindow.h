// SPDX-License-Identifier: MIT
#pragma once

#include "loadedtrace.h"

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
    std::deque<QString> m_queue;
    QPointer<TraceLoader> m_loader;
    QWidget *m_progressBox = nullptr;
    QLabel *m_progressLabel = nullptr;
    QProgressBar *m_progressBar = nullptr;
    QPushButton *m_cancelButton = nullptr;
};

} // namespace ks
