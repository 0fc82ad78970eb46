// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "base/version.h"
#include "chartsview.h"
#include "comparisonview.h"
#include "detailspanel.h"
#include "export/moduletable.h"
#include "exporter.h"
#include "iciclechart.h"
#include "modulesview.h"
#include "resources.h"
#include "tablemodel.h"
#include "timelineview.h"
#include "traceloader.h"
#include "tracetab.h"

#include <QApplication>
#include <QChartView>
#include <QClipboard>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>

namespace ks {

namespace {
constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentFiles");
const QString kTraceFilter = QStringLiteral("PyTorch traces (*.json *.json.gz);;All files (*)");
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_tabs(new QTabWidget(this))
    , m_details(new DetailsPanel(this))
{
    setWindowTitle(QStringLiteral("Kinetoscope"));
    setAcceptDrops(true);
    resize(1500, 950);
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setDocumentMode(true);
    setCentralWidget(m_tabs);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int i) {
        QWidget *w = m_tabs->widget(i);
        m_tabs->removeTab(i);
        w->deleteLater();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::onCurrentTabChanged);

    auto *dock = new QDockWidget(tr("Details"), this);
    dock->setObjectName(QStringLiteral("detailsDock"));
    dock->setWidget(m_details);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    resizeDocks({dock}, {380}, Qt::Horizontal);

    buildMenus();
    buildStatusBar();

    // An empty window says what to do.
    auto *hint = new QLabel(
        tr("<h2>Kinetoscope</h2><p>Drop PyTorch profiler traces (<tt>.pt.trace.json</tt>, "
           "<tt>.json.gz</tt>) here, or use File ▸ Open (Ctrl+O) or File ▸ Open Demo.</p>"),
        this);
    hint->setAlignment(Qt::AlignCenter);
    hint->setObjectName(QStringLiteral("emptyHint"));
    m_tabs->addTab(hint, tr("Welcome"));
    m_tabs->tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        const QStringList paths
            = QFileDialog::getOpenFileNames(this, tr("Open traces"), QString(), kTraceFilter);
        openFiles(paths);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(tr("Open &Demo Trace"), this, &MainWindow::openDemo);
    file->addAction(tr("&Compare Two Traces…"), this, [this] {
        // The current trace is the base when there is one; otherwise ask for it too.
        QString base;
        if (TraceTab *t = currentTab())
            base = QString::fromStdString(t->selection()->trace().model->path);
        else
            base = QFileDialog::getOpenFileName(
                this, tr("Base trace (before)"), QString(), kTraceFilter);
        if (base.isEmpty())
            return;
        const QString candidate = QFileDialog::getOpenFileName(this,
            tr("Candidate trace (after), compared with %1").arg(QFileInfo(base).fileName()),
            QString(), kTraceFilter);
        if (!candidate.isEmpty())
            openComparison(base, candidate);
    });
    file->addSeparator();
    file->addAction(tr("&Close Tab"), QKeySequence::Close, this, [this] {
        if (currentTab())
            emit m_tabs->tabCloseRequested(m_tabs->currentIndex());
    });
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *exportMenu = menuBar()->addMenu(tr("&Export"));
    exportMenu->addAction(
        tr("Timeline as PNG…"), this, [this] { exportTimeline(tr("PNG images (*.png)"), 1); });
    exportMenu->addAction(
        tr("Timeline as PNG (2×)…"), this, [this] { exportTimeline(tr("PNG images (*.png)"), 2); });
    exportMenu->addAction(
        tr("Timeline as SVG…"), this, [this] { exportTimeline(tr("SVG images (*.svg)"), 1); });
    exportMenu->addAction(tr("Window as PNG…"), this,
        [this] { exportWidget(this, tr("window"), tr("PNG images (*.png)")); });
    exportMenu->addAction(tr("Chart as PNG…"), this, [this] {
        if (TraceTab *t = currentTab())
            exportWidget(t->charts()->chartView(), tr("chart"), tr("PNG images (*.png)"));
    });
    exportMenu->addAction(tr("Chart as SVG…"), this, [this] {
        if (TraceTab *t = currentTab())
            exportWidget(t->charts()->chartView(), tr("chart"), tr("SVG images (*.svg)"));
    });
    exportMenu->addAction(tr("Module Icicle as PNG…"), this, [this] {
        if (TraceTab *t = currentTab())
            exportWidget(t->modules()->icicle(), tr("module icicle"), tr("PNG images (*.png)"));
    });
    exportMenu->addAction(tr("Module Icicle as SVG…"), this, [this] {
        if (TraceTab *t = currentTab())
            exportWidget(t->modules()->icicle(), tr("module icicle"), tr("SVG images (*.svg)"));
    });
    exportMenu->addSeparator();
    exportMenu->addAction(tr("Module Tree as CSV…"), this, [this] {
        TraceTab *t = currentTab();
        if (!t)
            return;
        const QString path = askSavePath(tr("Export modules"),
            tr("CSV files (*.csv);;JSON files (*.json)"), QStringLiteral("csv"));
        if (path.isEmpty())
            return;
        std::string error;
        if (!ks::exportTable(
                ModuleTable(t->selection()->trace().modules()), path.toStdString(), error))
            showError(tr("Export failed"), QString::fromStdString(error));
        else
            statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    });
    exportMenu->addAction(
        tr("Pair Table as CSV…"), this, [this] { exportTable(false, tr("CSV files (*.csv)")); });
    exportMenu->addAction(
        tr("Pair Table as JSON…"), this, [this] { exportTable(false, tr("JSON files (*.json)")); });
    exportMenu->addAction(tr("GPU Event Table as CSV…"), this,
        [this] { exportTable(true, tr("CSV files (*.csv)")); });
    exportMenu->addSeparator();
    exportMenu->addAction(
        tr("Copy Timeline Image"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this, [this] {
            if (TraceTab *t = currentTab()) {
                QApplication::clipboard()->setImage(
                    Exporter::timelineImage(t->timeline(), devicePixelRatioF()));
                statusBar()->showMessage(tr("Timeline image copied"), 3000);
            }
        });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Find…"), QKeySequence::Find, this, [this] {
        if (TraceTab *t = currentTab())
            t->startFind();
    });
    view->addAction(tr("Show &Everything"), this, [this] {
        if (TraceTab *t = currentTab())
            t->timeline()->showAll();
    });
    view->addAction(tr("&Fit Selection"), this, [this] {
        if (TraceTab *t = currentTab())
            t->timeline()->fitSelection();
    });
    view->addSeparator();
    QAction *details = view->addAction(tr("&Details Panel"));
    details->setCheckable(true);
    details->setChecked(true);
    connect(details, &QAction::toggled, this, [this](bool on) {
        findChild<QDockWidget *>(QStringLiteral("detailsDock"))->setVisible(on);
    });

    QMenu *navigate = menuBar()->addMenu(tr("&Navigate"));
    navigate->addAction(tr("Jump to &Counterpart"), this, [this] {
        if (TraceTab *t = currentTab())
            t->selection()->jumpToCounterpart();
    });
    QAction *back
        = navigate->addAction(tr("&Back"), QKeySequence(Qt::ALT | Qt::Key_Left), this, [this] {
              if (TraceTab *t = currentTab())
                  t->selection()->back();
          });
    QAction *forward
        = navigate->addAction(tr("&Forward"), QKeySequence(Qt::ALT | Qt::Key_Right), this, [this] {
              if (TraceTab *t = currentTab())
                  t->selection()->forward();
          });
    back->setShortcutContext(Qt::ApplicationShortcut);
    forward->setShortcutContext(Qt::ApplicationShortcut);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] {
        auto *box = new QMessageBox(QMessageBox::Information, tr("Keyboard shortcuts"),
            tr("<table>"
               "<tr><td><b>Ctrl+wheel</b></td><td>zoom at the cursor</td></tr>"
               "<tr><td><b>W / S</b></td><td>zoom in / out</td></tr>"
               "<tr><td><b>A / D</b>, Shift+wheel, drag</td><td>pan</td></tr>"
               "<tr><td><b>wheel</b></td><td>scroll lanes</td></tr>"
               "<tr><td><b>F</b> / <b>0</b></td><td>fit selection / show everything</td></tr>"
               "<tr><td><b>J</b>, Enter, double-click</td><td>jump to the counterpart</td></tr>"
               "<tr><td><b>Alt+Left / Alt+Right</b></td><td>back / forward</td></tr>"
               "<tr><td><b>Ctrl+F</b></td><td>find (Enter / Shift+Enter: next / previous)</td></tr>"
               "<tr><td>drag on the ruler</td><td>measure a time range</td></tr>"
               "</table>"),
            QMessageBox::Close, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    help->addAction(tr("&About Kinetoscope"), this, [this] {
        QMessageBox::about(this, tr("About Kinetoscope"),
            tr("<h3>Kinetoscope %1</h3><p>Forward ops, their backward ops and the GPU kernels each "
               "of them ran, from PyTorch profiler traces.</p><p>Licensed under the MIT "
               "license.</p>")
                .arg(QStringLiteral(KINETOSCOPE_VERSION)));
    });
}

void MainWindow::buildStatusBar()
{
    m_progressBox = new QWidget(this);
    auto *row = new QHBoxLayout(m_progressBox);
    row->setContentsMargins(0, 0, 0, 0);
    m_progressLabel = new QLabel(m_progressBox);
    m_progressBar = new QProgressBar(m_progressBox);
    m_progressBar->setRange(0, 1000);
    m_progressBar->setMaximumWidth(220);
    m_progressBar->setTextVisible(false);
    m_cancelButton = new QPushButton(tr("Cancel"), m_progressBox);
    m_cancelButton->setObjectName(QStringLiteral("cancelLoad"));
    row->addWidget(m_progressLabel);
    row->addWidget(m_progressBar);
    row->addWidget(m_cancelButton);
    statusBar()->addPermanentWidget(m_progressBox);
    m_progressBox->hide();
    connect(m_cancelButton, &QPushButton::clicked, this, [this] {
        m_queue.clear();
        if (m_loader)
            m_loader->cancel();
    });
}

void MainWindow::openFiles(const QStringList &paths)
{
    for (const QString &p : paths) {
        if (!p.isEmpty())
            m_queue.push_back({p, false});
    }
    if (!m_loader)
        startNextLoad();
}

QString MainWindow::demoTracePath()
{
    // The demo is embedded in the binary; loaders and the details panel read files, so unpack it.
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    const QString path
        = (dir.isEmpty() ? QDir::tempPath() : dir) + QStringLiteral("/demo.pt.trace.json.gz");
    QFile resource(Resources::demoTrace());
    if (!resource.open(QIODevice::ReadOnly))
        return {};
    const QByteArray data = resource.readAll();
    QFile existing(path);
    if (existing.open(QIODevice::ReadOnly) && existing.readAll() == data)
        return path;
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(data) != data.size() || !out.commit())
        return {};
    return path;
}

void MainWindow::openDemo()
{
    const QString path = demoTracePath();
    if (path.isEmpty()) {
        showError(tr("Demo trace"), tr("The demo trace could not be unpacked."));
        return;
    }
    openFiles({path});
}

void MainWindow::startNextLoad()
{
    if (m_queue.empty()) {
        m_progressBox->hide();
        return;
    }
    const QString path = m_queue.front().path;
    const bool forComparison = m_queue.front().forComparison;
    m_queue.pop_front();
    auto *loader = new TraceLoader(path, this);
    m_loader = loader;
    const QString name = QFileInfo(path).fileName();
    m_progressLabel->setText(tr("Loading %1…").arg(name));
    m_progressBar->setValue(0);
    m_progressBox->show();
    connect(loader, &TraceLoader::progress, this, [this, name](int permille, double bps) {
        m_progressBar->setValue(permille);
        QString text = tr("Loading %1: %2% · %3 MB/s")
                           .arg(name)
                           .arg(permille / 10)
                           .arg(bps / 1e6, 0, 'f', 0);
        if (!m_queue.empty())
            text += tr(" (%n more queued)", nullptr, int(m_queue.size()));
        m_progressLabel->setText(text);
    });
    auto done = [this, loader] {
        loader->deleteLater();
        m_loader = nullptr;
        startNextLoad();
    };
    connect(loader, &TraceLoader::finished, this,
        [this, path, name, done, forComparison](std::shared_ptr<const LoadedTrace> trace) {
            addRecent(path);
            statusBar()->showMessage(
                tr("Loaded %1 in %2 s").arg(name).arg(trace->seconds, 0, 'f', 2), 5000);
            if (forComparison)
                comparisonTraceLoaded(path, trace);
            else
                addTrace(std::move(trace), name);
            done();
        });
    connect(loader, &TraceLoader::failed, this,
        [this, done, path, forComparison](const QString &message) {
            if (forComparison) {
                // The comparison cannot happen without both traces.
                std::erase_if(m_pendingComparisons, [&](const PendingComparison &c) {
                    return c.base == path || c.candidate == path;
                });
            }
            emit loadFailed(message);
            showError(tr("Cannot open trace"), message);
            done();
        });
    connect(loader, &TraceLoader::cancelled, this, [this, name, done] {
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(name), 5000);
        done();
    });
    loader->start();
}

TraceTab *MainWindow::addTrace(std::shared_ptr<const LoadedTrace> trace, const QString &title)
{
    // The welcome page goes once a trace is open.
    if (m_tabs->count() == 1 && m_tabs->widget(0)->objectName() == QLatin1String("emptyHint")) {
        QWidget *hint = m_tabs->widget(0);
        m_tabs->removeTab(0);
        hint->deleteLater();
    }
    auto *tab = new TraceTab(std::move(trace), m_tabs);
    const int index = m_tabs->addTab(tab, title);
    m_tabs->setTabToolTip(index, QString::fromStdString(tab->selection()->trace().model->path));
    m_tabs->setCurrentIndex(index);
    onCurrentTabChanged();
    emit traceOpened(tab);
    return tab;
}

void MainWindow::openComparison(
    const QString &base, const QString &candidate, const DiffOptions &options)
{
    m_pendingComparisons.push_back({base, candidate, options, nullptr, nullptr});
    m_queue.push_back({base, true});
    m_queue.push_back({candidate, true});
    if (!m_loader)
        startNextLoad();
}

void MainWindow::comparisonTraceLoaded(
    const QString &path, const std::shared_ptr<const LoadedTrace> &trace)
{
    for (auto it = m_pendingComparisons.begin(); it != m_pendingComparisons.end(); ++it) {
        if (it->base == path && !it->baseTrace)
            it->baseTrace = trace;
        else if (it->candidate == path && !it->candidateTrace)
            it->candidateTrace = trace;
        else
            continue;
        if (it->baseTrace && it->candidateTrace) {
            PendingComparison ready = std::move(*it);
            m_pendingComparisons.erase(it);
            addComparison(ready.baseTrace, ready.candidateTrace, ready.options);
        }
        return;
    }
}

ComparisonView *MainWindow::addComparison(std::shared_ptr<const LoadedTrace> base,
    std::shared_ptr<const LoadedTrace> candidate,
    const DiffOptions &options)
{
    auto *view = new ComparisonView(base, candidate, options, m_tabs);
    if (!view->isValid()) {
        m_comparisonError = view->error();
        delete view;
        showError(tr("Cannot compare"), m_comparisonError);
        return nullptr;
    }
    if (m_tabs->count() == 1 && m_tabs->widget(0)->objectName() == QLatin1String("emptyHint")) {
        QWidget *hint = m_tabs->widget(0);
        m_tabs->removeTab(0);
        hint->deleteLater();
    }
    const QString title
        = tr("%1 ↔ %2").arg(QFileInfo(QString::fromStdString(base->model->path)).fileName(),
            QFileInfo(QString::fromStdString(candidate->model->path)).fileName());
    const int index = m_tabs->addTab(view, title);
    m_tabs->setCurrentIndex(index);
    emit comparisonOpened(view);
    return view;
}

TraceTab *MainWindow::currentTab() const
{
    return qobject_cast<TraceTab *>(m_tabs->currentWidget());
}

void MainWindow::onCurrentTabChanged()
{
    TraceTab *tab = currentTab();
    m_details->setSelectionController(tab ? tab->selection() : nullptr);
    setWindowTitle(tab ? m_tabs->tabText(m_tabs->currentIndex()) + QStringLiteral(" — Kinetoscope")
                       : QStringLiteral("Kinetoscope"));
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecent(const QString &path)
{
    // The unpacked demo is not a file the user chose.
    if (path == demoTracePath())
        return;
    QStringList recent = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (const QString &path : recent)
        m_recentMenu->addAction(path, this, [this, path] { openFiles({path}); });
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear"), this, [this] {
            QSettings().remove(kRecentKey);
            rebuildRecentMenu();
        });
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    // Shift + drop of one file onto a trace compares it (the candidate) with that trace.
    TraceTab *tab = currentTab();
    if ((event->modifiers() & Qt::ShiftModifier) && tab && paths.size() == 1)
        openComparison(
            QString::fromStdString(tab->selection()->trace().model->path), paths.first());
    else
        openFiles(paths);
    event->acceptProposedAction();
}

void MainWindow::showError(const QString &title, const QString &message)
{
    auto *box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Close, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QString MainWindow::askSavePath(const QString &title, const QString &filter, const QString &suffix)
{
    QFileDialog dialog(this, title, QString(), filter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(suffix);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return dialog.selectedFiles().first();
}

void MainWindow::exportTimeline(const QString &filter, qreal scale)
{
    if (auto *comparison = qobject_cast<ComparisonView *>(m_tabs->currentWidget())) {
        exportWidget(comparison->timelines(), tr("timelines"), filter);
        return;
    }
    TraceTab *t = currentTab();
    if (!t)
        return;
    const bool svg = filter.contains(QLatin1String("svg"));
    const QString path = askSavePath(
        tr("Export timeline"), filter, svg ? QStringLiteral("svg") : QStringLiteral("png"));
    if (path.isEmpty())
        return;
    QString error;
    if (!Exporter::saveTimeline(t->timeline(), path, scale, error))
        showError(tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

void MainWindow::exportWidget(QWidget *widget, const QString &what, const QString &filter)
{
    const bool svg = filter.contains(QLatin1String("svg"));
    const QString path = askSavePath(
        tr("Export %1").arg(what), filter, svg ? QStringLiteral("svg") : QStringLiteral("png"));
    if (path.isEmpty())
        return;
    QString error;
    if (!Exporter::saveWidget(widget, path, 1, error))
        showError(tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

void MainWindow::exportTable(bool kernels, const QString &filter)
{
    TraceTab *t = currentTab();
    auto *comparison = qobject_cast<ComparisonView *>(m_tabs->currentWidget());
    if (!t && !comparison)
        return;
    const bool json = filter.contains(QLatin1String("json"));
    const QString path = askSavePath(kernels ? tr("Export GPU events") : tr("Export pairs"), filter,
        json ? QStringLiteral("json") : QStringLiteral("csv"));
    if (path.isEmpty())
        return;
    QString error;
    const TableModel *model = comparison ? comparison->model()
        : kernels                        ? t->kernelModel()
                                         : t->pairModel();
    if (!Exporter::saveTable(model, path, error))
        showError(tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

} // namespace ks
