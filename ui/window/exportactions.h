// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

class QAction;
class QMainWindow;
class QMenu;
class QWidget;

namespace ks {

class ComparisonView;
class RunView;
class TableModel;
class TraceTab;
struct LoadedTrace;
struct TraceExport;
struct ReportContent;
template<typename Result> class BackgroundTask;

/*!
 * The Export menu: the report (PDF, HTML); pictures of the timeline, the window, a chart or the
 * icicle; the tables as CSV or JSON; the timeline to the clipboard. Actions that cannot apply to
 * the current tab are disabled, and their status tip says why.
 */
class ExportActions : public QObject {
    Q_OBJECT
public:
    //! Fills \a menu; \a window shows the dialogs and status messages.
    ExportActions(QMainWindow *window, QMenu *menu);
    ~ExportActions() override;

    //! Adds File > Export Report… (PDF or HTML, as the name chosen says) before \a before.
    void addReportEntry(QMenu *file, QAction *before);

    //! Enables what applies to \a current (a trace tab, a comparison, a run or nothing).
    void setCurrent(QWidget *current);

    /*!
     * The current trace's chart (kind, mode and count as on its page) or module icicle as
     * \a path, PNG or SVG by extension. Both are drawn afresh offscreen at a fixed size
     * (ChartsView::exportSize(), IcicleChart::kExportWidth × its height), so the picture is the
     * same whichever tab shows and however small the page is. For a run, its Charts page.
     */
    bool saveChart(const QString &path, QString &error);
    bool saveIcicle(const QString &path, QString &error);
    /*!
     * Writes \a model's rows as they show (filter, sort), CSV or JSON by extension (the columns
     * of the command line's exports), to \a path on a pool thread — a pair table may hold a
     * million rows — saying so in the status bar; one file at a time.
     */
    void writeTable(const TableModel *model, const QString &path);

private:
    //! What an entry applies to; RunTimelines: a run whose ranks' traces are loaded.
    enum Applies : uint8_t { Trace = 1, Comparison = 2, Run = 4, RunTimelines = 8 };
    QAction *add(QMenu *menu, const QString &text, int applies, std::function<void()> run);
    void exportTimeline(const QString &filter, qreal scale);
    void exportWidget(QWidget *widget, const QString &what, const QString &filter);
    void exportPicture(const QString &what,
        const QString &filter,
        bool (ExportActions::*save)(const QString &, QString &));
    void exportTable(bool kernels, const QString &filter);
    //! Writes \a table of the current trace where the user says, as the command line does.
    void exportTraceTable(const TraceExport &table);
    void exportRunTable(const QString &filter);
    //! Runs \a write (returns an error, empty when written) on a pool thread, then says how it
    //! went for \a path.
    void writeInBackground(const QString &path, std::function<std::string()> write);
    /*!
     * The current trace's or comparison's report (issue: report), PDF or HTML as the file's name
     * says (\a filter and \a suffix steer the dialog): its content is gathered on a pool thread,
     * then drawn (the timeline is a widget) and saved.
     */
    void exportReport(const QString &filter, const QString &suffix);
    void copyTimeline();
    //! Asks where to save \a what (proposing "<trace>-<what>.<suffix>"); empty when cancelled.
    QString askSavePath(
        const QString &title, const QString &filter, const QString &suffix, const QString &what);
    void saved(const QString &path);
    void failed(const QString &message);

    QMainWindow *m_window;
    TraceTab *m_tab = nullptr;
    ComparisonView *m_comparison = nullptr;
    RunView *m_run = nullptr;
    struct Entry {
        QAction *action;
        int applies;
    };
    std::vector<Entry> m_entries;
    //! A report gathered, with the trace its timeline picture shows (null: none).
    struct GatheredReport {
        std::shared_ptr<const ReportContent> content; //!< null: memory ran out
        std::shared_ptr<const LoadedTrace> timeline;
    };
    std::unique_ptr<BackgroundTask<GatheredReport>> m_report;
    bool m_reportPending = false;
    std::unique_ptr<BackgroundTask<std::string>> m_fileWrite;
    bool m_fileWritePending = false;
};

} // namespace ks
