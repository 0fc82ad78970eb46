// SPDX-License-Identifier: MIT
#include "window/exportactions.h"

#include "common/backgroundtask.h"
#include "common/filedialogs.h"
#include "common/selectioncontroller.h"
#include "compare/comparisonview.h"
#include "document/reportwriter.h"
#include "output/exporter.h"
#include "run/runcharts.h"
#include "run/runtimelines.h"
#include "run/runview.h"
#include "session/traceexports.h"
#include "table/tablemodel.h"
#include "trace/chartsview.h"
#include "trace/iciclechart.h"
#include "trace/kerneltablepage.h"
#include "trace/modulesview.h"
#include "trace/pairtablepage.h"
#include "trace/tracetab.h"

#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QClipboard>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

namespace ks {

ExportActions::ExportActions(QMainWindow *window, QMenu *menu)
    : QObject(window)
    , m_window(window)
    , m_report(std::make_unique<BackgroundTask<GatheredReport>>(this))
    , m_fileWrite(std::make_unique<BackgroundTask<std::string>>(this))
{
    const QString png = tr("PNG images (*.png)"), svg = tr("SVG images (*.svg)");
    const int any = Trace | Comparison | Run;
    const int timelines = Trace | Comparison | RunTimelines;
    add(menu, tr("Report as PDF…"), any,
        [this] { exportReport(tr("PDF documents (*.pdf)"), QStringLiteral("pdf")); });
    add(menu, tr("Report as HTML…"), any,
        [this] { exportReport(tr("HTML pages (*.html)"), QStringLiteral("html")); });
    menu->addSeparator();
    add(menu, tr("Timeline as PNG…"), timelines, [this, png] { exportTimeline(png, 1); });
    add(menu, tr("Timeline as PNG (2×)…"), timelines, [this, png] { exportTimeline(png, 2); });
    add(menu, tr("Timeline as SVG…"), timelines, [this, svg] { exportTimeline(svg, 1); });
    add(menu, tr("Window as PNG…"), any,
        [this, png] { exportWidget(m_window, tr("window"), png); });
    add(menu, tr("Window as SVG…"), any,
        [this, svg] { exportWidget(m_window, tr("window"), svg); });
    add(menu, tr("Chart as PNG…"), Trace | Run,
        [this, png] { exportPicture(tr("chart"), png, &ExportActions::saveChart); });
    add(menu, tr("Chart as SVG…"), Trace | Run,
        [this, svg] { exportPicture(tr("chart"), svg, &ExportActions::saveChart); });
    add(menu, tr("Module Icicle as PNG…"), Trace,
        [this, png] { exportPicture(tr("module icicle"), png, &ExportActions::saveIcicle); });
    add(menu, tr("Module Icicle as SVG…"), Trace,
        [this, svg] { exportPicture(tr("module icicle"), svg, &ExportActions::saveIcicle); });
    menu->addSeparator();
    // Each table `--export-NAME OUT FILE` writes, read from the one table the parser reads.
    QMenu *tables = menu->addMenu(tr("Trace Table"));
    tables->setToolTipsVisible(true);
    for (const TraceExport &e : kTraceExports) {
        const QString option = QString::fromLatin1(e.option.data(), qsizetype(e.option.size()));
        add(tables,
            QString::fromUtf8(e.title.data(), qsizetype(e.title.size())) + QStringLiteral("…"),
            Trace, [this, &e] { exportTraceTable(e); })
            ->setToolTip(
                tr("The file kinetoscope --%1 OUT FILE writes (CSV, or JSON)").arg(option));
    }
    add(menu, tr("Pair Table as CSV…"), Trace | Comparison,
        [this] { exportTable(false, tr("CSV files (*.csv)")); });
    add(menu, tr("Pair Table as JSON…"), Trace | Comparison,
        [this] { exportTable(false, tr("JSON files (*.json)")); });
    add(menu, tr("GPU Event Table as CSV…"), Trace,
        [this] { exportTable(true, tr("CSV files (*.csv)")); });
    add(menu, tr("Run Table as CSV…"), Run, [this] { exportRunTable(tr("CSV files (*.csv)")); });
    add(menu, tr("Run Table as JSON…"), Run, [this] { exportRunTable(tr("JSON files (*.json)")); });
    menu->addSeparator();
    add(menu, tr("Copy Timeline Image"), Trace, [this] {
        copyTimeline();
    })->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    setCurrent(nullptr);
}

ExportActions::~ExportActions() = default;

void ExportActions::addReportEntry(QMenu *file, QAction *before)
{
    QAction *action = new QAction(tr("Export &Report…"), file);
    connect(action, &QAction::triggered, this, [this] {
        exportReport(tr("PDF documents (*.pdf);;HTML pages (*.html)"), QStringLiteral("pdf"));
    });
    file->insertAction(before, action);
    m_entries.push_back({action, Trace | Comparison | Run});
    setCurrent(nullptr);
}

QAction *ExportActions::add(
    QMenu *menu, const QString &text, int applies, std::function<void()> run)
{
    QAction *action = menu->addAction(text, this, std::move(run));
    m_entries.push_back({action, applies});
    return action;
}

void ExportActions::setCurrent(QWidget *current)
{
    m_tab = qobject_cast<TraceTab *>(current);
    m_comparison = qobject_cast<ComparisonView *>(current);
    m_run = qobject_cast<RunView *>(current);
    for (Entry &e : m_entries) {
        const bool on = (m_tab && (e.applies & Trace)) || (m_comparison && (e.applies & Comparison))
            || (m_run && (e.applies & Run))
            || (m_run && m_run->timelines() && (e.applies & RunTimelines));
        e.action->setEnabled(on);
        e.action->setStatusTip(on  ? QString()
                : e.applies == Run ? tr("Only for a run of several ranks")
                : m_run && (e.applies & RunTimelines)
                ? tr("Not available for a run from databases: its timelines are in the traces")
                : m_comparison ? tr("Not available for a comparison: it applies to one trace")
                : m_run        ? tr("Not available for a run: it applies to one trace")
                               : tr("Open a trace first"));
    }
}

QString ExportActions::askSavePath(
    const QString &title, const QString &filter, const QString &suffix, const QString &what)
{
    // "resnet50-pairs.csv", "base-vs-candidate-timelines.png": named after what is exported.
    QString stem = QStringLiteral("kinetoscope");
    const auto traceStem = [](const LoadedTrace &t) {
        return FileDialogs::traceStem(QString::fromStdString(t.model->path));
    };
    if (m_tab)
        stem = traceStem(m_tab->selection()->trace());
    else if (m_comparison)
        stem = traceStem(m_comparison->baseSelection()->trace()) + QStringLiteral("-vs-")
            + traceStem(m_comparison->candidateSelection()->trace());
    else if (m_run)
        stem = FileDialogs::traceStem(QString::fromStdString(m_run->run().ranks.front().file))
            + QStringLiteral("-run");
    QString slug = what.toLower();
    slug.replace(QLatin1Char(' '), QLatin1Char('-'));
    return FileDialogs::savePath(m_window, title, filter, suffix, stem + QLatin1Char('-') + slug);
}

void ExportActions::saved(const QString &path)
{
    m_window->statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

void ExportActions::failed(const QString &message)
{
    auto *box = new QMessageBox(
        QMessageBox::Critical, tr("Export failed"), message, QMessageBox::Close, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void ExportActions::exportReport(const QString &filter, const QString &suffix)
{
    // One at a time: a second request would supersede the first, whose file would never come.
    if (m_reportPending) {
        m_window->statusBar()->showMessage(tr("Still writing the last report…"), 5000);
        return;
    }
    const QString path = askSavePath(tr("Export report"), filter, suffix, QStringLiteral("report"));
    if (path.isEmpty())
        return;
    // A4 unless the user's locale measures in inches (QPrinter's default rule).
    const QPageSize::PageSizeId page = QLocale().measurementSystem() == QLocale::ImperialUSSystem
        ? QPageSize::Letter
        : QPageSize::A4;
    std::shared_ptr<const ComparedTraces> compared
        = m_comparison ? m_comparison->compared() : nullptr;
    std::shared_ptr<const ks::Run> run = m_run ? m_run->runPointer() : nullptr;
    std::shared_ptr<const LoadedTrace> trace = compared ? compared->candidate
        : run                                           ? nullptr // rank 0's, on the worker
                                                        : m_tab->selection()->tracePointer();
    // The step and the selection on screen go into the report's timeline picture.
    ReportFocus focus;
    if (!compared && !run) {
        focus.step = m_tab->stepNumber();
        const SliceId selected = m_tab->selection()->current();
        focus.row = selected == kNoSlice ? -1 : trace->graph->rowOf(selected);
    }
    m_window->statusBar()->showMessage(tr("Writing the report…"));
    m_reportPending = true;
    m_report->run(
        [compared, run, trace, focus](const std::atomic<bool> &) {
            GatheredReport out {nullptr, trace};
            try {
                if (run) { // a run from databases loads rank 0's trace here, if it is at hand
                    std::string whyNoTrace;
                    out.timeline = run->rankTrace(0, whyNoTrace);
                    out.content = std::make_shared<const ReportContent>(
                        runReport(*run, out.timeline.get(), whyNoTrace));
                } else {
                    out.content = std::make_shared<const ReportContent>(
                        compared ? comparisonReport(*compared) : traceReport(*trace, focus));
                }
            } catch (const std::bad_alloc &) {
                out.content = nullptr; // nothing may escape a pool thread
            }
            return out;
        },
        [this, path, page](const GatheredReport &gathered) {
            m_reportPending = false;
            m_window->statusBar()->clearMessage();
            const std::shared_ptr<const ReportContent> &content = gathered.content;
            const std::shared_ptr<const LoadedTrace> &trace = gathered.timeline;
            if (!content) {
                failed(tr("%1: not enough memory to gather the report").arg(path));
                return;
            }
            // The timeline picture is a widget's (this thread); the file is written on the pool.
            writeInBackground(
                path, [content, timeline = reportTimeline(*content, trace), path, page] {
                    QString error;
                    return writeReportFile(*content, timeline, path, page, error)
                        ? std::string()
                        : error.toStdString();
                });
        });
}

void ExportActions::exportTimeline(const QString &filter, qreal scale)
{
    if (m_comparison || m_run) {
        exportWidget(m_comparison ? static_cast<QWidget *>(m_comparison->timelines())
                                  : static_cast<QWidget *>(m_run->timelines()),
            tr("timelines"), filter);
        return;
    }
    const bool svg = filter.contains(QLatin1String("svg"));
    const QString path = askSavePath(tr("Export timeline"), filter,
        svg ? QStringLiteral("svg") : QStringLiteral("png"), QStringLiteral("timeline"));
    if (path.isEmpty())
        return;
    QString error;
    if (!Exporter::saveTimeline(m_tab->timeline(), path, scale, error))
        failed(error);
    else
        saved(path);
}

void ExportActions::exportWidget(QWidget *widget, const QString &what, const QString &filter)
{
    const bool svg = filter.contains(QLatin1String("svg"));
    const QString path = askSavePath(tr("Export %1").arg(what), filter,
        svg ? QStringLiteral("svg") : QStringLiteral("png"), what);
    if (path.isEmpty())
        return;
    QString error;
    if (!Exporter::saveWidget(widget, path, 1, error))
        failed(error);
    else
        saved(path);
}

void ExportActions::exportPicture(const QString &what,
    const QString &filter,
    bool (ExportActions::*save)(const QString &, QString &))
{
    const bool svg = filter.contains(QLatin1String("svg"));
    const QString path = askSavePath(tr("Export %1").arg(what), filter,
        svg ? QStringLiteral("svg") : QStringLiteral("png"), what);
    if (path.isEmpty())
        return;
    QString error;
    if (!(this->*save)(path, error))
        failed(error);
    else
        saved(path);
}

bool ExportActions::saveChart(const QString &path, QString &error)
{
    if (m_run) {
        const std::unique_ptr<RunCharts> copy = m_run->charts()->exportCopy();
        return Exporter::saveWidget(copy.get(), path, 1, error);
    }
    const std::unique_ptr<QChartView> view = m_tab->charts()->exportView();
    return Exporter::saveWidget(view.get(), path, 1, error);
}

bool ExportActions::saveIcicle(const QString &path, QString &error)
{
    ModulesView *modules = m_tab->modules();
    if (!modules) {
        error = tr("not enough memory to build the module tree");
        return false;
    }
    const std::unique_ptr<IcicleChart> icicle = modules->icicle()->exportCopy();
    return Exporter::saveWidget(icicle.get(), path, 1, error);
}

void ExportActions::exportTable(bool kernels, const QString &filter)
{
    const bool json = filter.contains(QLatin1String("json"));
    const QString path = askSavePath(kernels ? tr("Export GPU events") : tr("Export pairs"), filter,
        json ? QStringLiteral("json") : QStringLiteral("csv"),
        m_comparison  ? QStringLiteral("diff")
            : kernels ? QStringLiteral("gpu-events")
                      : QStringLiteral("pairs"));
    if (path.isEmpty())
        return;
    writeTable(m_comparison ? m_comparison->model()
            : kernels       ? m_tab->kernels()->model()
                            : m_tab->pairs()->model(),
        path);
}

void ExportActions::writeTable(const TableModel *model, const QString &path)
{
    writeInBackground(path, [table = model->tablePointer(), rows = model->visibleRows(), path] {
        QString error;
        return Exporter::saveTable(*table, rows, path, error) ? std::string() : error.toStdString();
    });
}

void ExportActions::writeInBackground(const QString &path, std::function<std::string()> write)
{
    // One at a time: a second request would supersede the first, whose outcome nobody would see.
    if (m_fileWritePending) {
        m_window->statusBar()->showMessage(tr("Still writing the last file…"), 5000);
        return;
    }
    m_fileWritePending = true;
    m_window->statusBar()->showMessage(tr("Writing %1…").arg(path));
    m_fileWrite->run(
        [write = std::move(write), path](const std::atomic<bool> &) {
            try {
                return write();
            } catch (const std::bad_alloc &) {
                return path.toStdString() + ": not enough memory to write it"; // stays on the pool
            }
        },
        [this, path](const std::string &error) {
            m_fileWritePending = false;
            m_window->statusBar()->clearMessage();
            if (error.empty())
                saved(path);
            else
                failed(QString::fromStdString(error));
        });
}

void ExportActions::exportTraceTable(const TraceExport &table)
{
    const QString title = QString::fromUtf8(table.title.data(), qsizetype(table.title.size()));
    QString slug = QString::fromLatin1(table.option.data(), qsizetype(table.option.size()));
    slug.remove(QStringLiteral("export-"));
    const QString path = askSavePath(tr("Export %1").arg(title),
        tr("CSV files (*.csv);;JSON files (*.json)"), QStringLiteral("csv"), slug);
    if (path.isEmpty())
        return;
    writeInBackground(path,
        [trace = m_tab->selection()->tracePointer(), kind = table.kind, file = path.toStdString()] {
            return writeTraceExport(kind, *trace, file).error;
        });
}

void ExportActions::exportRunTable(const QString &filter)
{
    const RunView::Page page = m_run->currentPage();
    if (!m_run->model(page)) {
        failed(tr("This page has no table: choose Ranks, Collectives, Pairs across ranks or "
                  "Critical path, or export the window as a picture (findings: "
                  "kinetoscope --findings)."));
        return;
    }
    const bool json = filter.contains(QLatin1String("json"));
    const QString path = askSavePath(tr("Export run table"), filter,
        json ? QStringLiteral("json") : QStringLiteral("csv"), RunView::tableName(page));
    if (path.isEmpty())
        return;
    writeTable(m_run->model(page), path);
}

void ExportActions::copyTimeline()
{
    QApplication::clipboard()->setImage(
        Exporter::timelineImage(m_tab->timeline(), m_window->devicePixelRatioF()));
    m_window->statusBar()->showMessage(tr("Timeline image copied"), 3000);
}

} // namespace ks
