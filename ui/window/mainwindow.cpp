// SPDX-License-Identifier: MIT
#include "window/mainwindow.h"

#include "window/peakssetting.h"

#include "timeline/foldmemory.h"

#include "base/version.h"
#include "common/elidedlabel.h"
#include "common/filedialogs.h"
#include "common/selectioncontroller.h"
#include "compare/comparisonview.h"
#include "resources.h"
#include "run/runtimelines.h"
#include "run/runview.h"
#include "timeline/foldmemory.h"
#include "timeline/timelineview.h"
#include "trace/detailspanel.h"
#include "trace/healthpanel.h"
#include "trace/tracetab.h"
#include "window/exportactions.h"
#include "window/loadqueue.h"
#include "window/recentfiles.h"
#include "window/welcomepage.h"

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
#include <QScreen>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>

namespace ks {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_tabs(new QTabWidget(this))
    , m_details(new DetailsPanel(this))
    , m_loads(new LoadQueue(this))
{
    setWindowTitle(QStringLiteral("Kinetoscope"));
    setAcceptDrops(true);
    // 1500 × 950 where the screen has room, else nine tenths of what it offers: a laptop's
    // window must not open larger than its screen.
    resize(QSize(1500, 950).boundedTo(screen()->availableGeometry().size() * 0.9));
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setDocumentMode(true);
    // With no tab open the window shows the welcome page, at start and after the last close.
    m_central = new QStackedWidget(this);
    m_welcome = new WelcomePage(m_central);
    m_central->addWidget(m_welcome);
    m_central->addWidget(m_tabs);
    setCentralWidget(m_central);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int i) {
        QWidget *w = m_tabs->widget(i);
        m_tabs->removeTab(i);
        w->deleteLater();
        showWelcomeIfEmpty();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::onCurrentTabChanged);

    auto *dock = m_detailsDock = new QDockWidget(tr("Details"), this);
    dock->setObjectName(QStringLiteral("detailsDock"));
    dock->setWidget(m_details);
    m_details->setMinimumWidth(kDetailsMinWidth); // names and durations stay readable
    addDockWidget(Qt::RightDockWidgetArea, dock);
    resizeDocks({dock}, {380}, Qt::Horizontal);

    QMenu *file = buildFileMenu();
    m_exports = new ExportActions(this, menuBar()->addMenu(tr("&Export")));
    m_exports->addReportEntry(file, m_closeTab);
    buildViewMenu();
    buildNavigateMenu();
    buildHelpMenu();
    buildStatusBar();
    connectLoads();

    connect(m_welcome, &WelcomePage::openRequested, this, &MainWindow::askToOpen);
    connect(m_welcome, &WelcomePage::demoRequested, this, &MainWindow::openDemo);
    connect(m_welcome, &WelcomePage::compareRequested, this, &MainWindow::askToCompare);
    connect(m_welcome, &WelcomePage::recentRequested, this,
        [this](const QString &path) { openFiles({path}); });
    showWelcomeIfEmpty();
    onCurrentTabChanged();
}

MainWindow::~MainWindow() = default;

QMenu *MainWindow::buildFileMenu()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::askToOpen);
    m_recent = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(m_recent, &RecentFiles::openRequested, this,
        [this](const QString &path) { openFiles({path}); });
    file->addAction(tr("Open &Demo Trace"), this, &MainWindow::openDemo);
    file->addAction(tr("&Compare Two Traces…"), this, &MainWindow::askToCompare);
    file->addAction(tr("Open R&un (Several Ranks)…"), this, [this] { askToOpenRun(false); });
    file->addAction(tr("Open Run &Folder…"), this, [this] { askToOpenRun(true); });
    file->addSeparator();
    new PeaksSetting(file, this);
    file->addSeparator();
    m_closeTab = file->addAction(tr("&Close Tab"), QKeySequence::Close, this, [this] {
        if (m_tabs->currentWidget())
            emit m_tabs->tabCloseRequested(m_tabs->currentIndex());
    });
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    return file;
}

void MainWindow::askToOpen()
{
    openFiles(FileDialogs::openTraces(this, tr("Open traces")));
}

void MainWindow::askToCompare()
{
    // The current trace is the base when there is one; otherwise ask for it too.
    QString base;
    if (TraceTab *t = currentTab())
        base = QString::fromStdString(t->selection()->trace().model->path);
    else
        base = FileDialogs::openTrace(this, tr("Base trace (before)"));
    if (base.isEmpty())
        return;
    const QString candidate = FileDialogs::openTrace(
        this, tr("Candidate trace (after), compared with %1").arg(QFileInfo(base).fileName()));
    if (!candidate.isEmpty())
        openComparison(base, candidate);
}

std::shared_ptr<const LoadedTrace> MainWindow::openTraceAt(const QString &path) const
{
    const QString wanted = QFileInfo(path).canonicalFilePath();
    for (int i = 0; i < m_tabs->count() && !wanted.isEmpty(); ++i) {
        const auto *tab = qobject_cast<TraceTab *>(m_tabs->widget(i));
        if (tab
            && QFileInfo(QString::fromStdString(tab->selection()->trace().model->path))
                    .canonicalFilePath()
                == wanted)
            return tab->selection()->tracePointer();
    }
    return nullptr;
}

void MainWindow::askToOpenRun(bool folder)
{
    if (folder) {
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Open a folder of rank traces as one run"));
        if (!dir.isEmpty())
            openRun({dir});
        return;
    }
    const QStringList files
        = FileDialogs::openRunFiles(this, tr("Open the traces of one run, or their databases"));
    if (!files.isEmpty())
        openRun(files);
}

void MainWindow::openRun(const QStringList &paths)
{
    m_loads->openRun(paths);
}

RunView *MainWindow::addRun(std::shared_ptr<const Run> run)
{
    const size_t ranks = run->ranks.size();
    QStringList files;
    for (const auto &source : run->sources)
        files << QString::fromStdString(source->path());
    const QString first = QFileInfo(files.first()).dir().dirName();
    const QString title = run->fromDatabases()
        ? tr("Run · %n rank(s) · %1 (databases)", nullptr, int(ranks)).arg(first)
        : tr("Run · %n rank(s) · %1", nullptr, int(ranks)).arg(first);
    auto *view = new RunView(std::move(run), m_tabs);
    connect(view, &RunView::openTrace, this, [this](const QString &path) { openFiles({path}); });
    const int index = m_tabs->addTab(view, title);
    m_tabs->setTabToolTip(index, files.join(QLatin1Char('\n')));
    m_tabs->setCurrentIndex(index);
    showWelcomeIfEmpty();
    return view;
}

void MainWindow::addRunOrAsk(std::shared_ptr<const Run> run)
{
    if (run->unrelated.empty()) {
        addRun(std::move(run));
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Not one run?"),
        tr("%1.\n\nOpen each trace in its own tab, or as one run anyway?")
            .arg(QString::fromStdString(run->unrelated)),
        QMessageBox::NoButton, this);
    QPushButton *tabs = box->addButton(tr("Separate Tabs"), QMessageBox::AcceptRole);
    QPushButton *anyway = box->addButton(tr("One Run Anyway"), QMessageBox::RejectRole);
    box->setDefaultButton(tabs);
    box->setEscapeButton(tabs); // dismissing it keeps the traces apart too
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, anyway, run] {
        if (box->clickedButton() == anyway) {
            addRun(run);
            return;
        }
        // Each trace loaded already gets a tab without being read again; a database's is opened.
        for (const auto &source : run->sources) {
            if (source->trace)
                addTrace(source->trace, tabTitle(QString::fromStdString(source->traceFile)));
            else
                openFiles({QString::fromStdString(source->traceFile)});
        }
    });
    box->open();
}

void MainWindow::openDropped(const QStringList &paths)
{
    // A folder (of rank traces or databases) or rank databases open as a run, as File ▸ Open
    // Run Folder does.
    const bool run = std::any_of(paths.begin(), paths.end(), [](const QString &p) {
        return QFileInfo(p).isDir() || p.endsWith(QLatin1String(".sqlite"));
    });
    if (run) {
        openRun(paths);
        return;
    }
    if (paths.size() < 2) {
        openFiles(paths);
        return;
    }
    // Each file's head is read (and inflated): on a worker, never on the UI thread.
    std::vector<std::string> files;
    for (const QString &p : paths)
        files.push_back(p.toStdString());
    std::erase_if(
        m_worldSizePeeks, [](const auto &task) { return !task->pending() && !task->running(); });
    m_worldSizePeeks.push_back(std::make_unique<BackgroundTask<int>>(this));
    m_worldSizePeeks.back()->run(
        [files](const std::atomic<bool> &stop) {
            int worldSize = 0;
            for (const std::string &f : files) {
                const int w = stop ? 0 : peekWorldSize(f);
                if (w <= 1 || (worldSize != 0 && w != worldSize))
                    return 0;
                worldSize = w;
            }
            return worldSize;
        },
        [this, paths](int worldSize) { askRunOrTabs(paths, worldSize); });
}

void MainWindow::askRunOrTabs(const QStringList &paths, int worldSize)
{
    if (worldSize == 0) {
        openFiles(paths);
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Open as one run?"),
        tr("These %n traces come from one distributed job (world size %1). Open them as one run, "
           "on a common clock with their collectives matched, or each in its own tab?",
            nullptr, int(paths.size()))
            .arg(worldSize),
        QMessageBox::NoButton, this);
    QPushButton *asRun = box->addButton(tr("One Run"), QMessageBox::AcceptRole);
    box->addButton(tr("Separate Tabs"), QMessageBox::RejectRole);
    box->setDefaultButton(asRun);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, asRun, paths] {
        if (box->clickedButton() == asRun)
            openRun(paths);
        else
            openFiles(paths);
    });
    box->open();
}

void MainWindow::showWelcomeIfEmpty()
{
    const bool empty = m_tabs->count() == 0;
    if (empty)
        m_welcome->setRecentFiles(m_recent->files());
    m_central->setCurrentWidget(empty ? static_cast<QWidget *>(m_welcome) : m_tabs);
    onCurrentTabChanged();
}

void MainWindow::buildViewMenu()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Find…"), QKeySequence::Find, this, [this] {
        if (TraceTab *t = currentTab())
            t->startFind();
    });
    // Single keys, for the whole window: a text field still takes them as text.
    view->addAction(tr("Show &Everything"), QKeySequence(Qt::Key_0), this, [this] {
        if (TimelineView *t = currentTimeline())
            t->showAll();
    });
    view->addAction(tr("&Fit Selection or Measured Range"), QKeySequence(Qt::Key_F), this, [this] {
        if (TimelineView *t = currentTimeline())
            t->fitSelection();
    });
    // W/S/A/D move the timeline whatever has the focus (a table, the details), as J does; a
    // line edit keeps its letters.
    const std::pair<QString, int> moves[] = {{tr("Zoom &In"), Qt::Key_W},
        {tr("Zoom &Out"), Qt::Key_S}, {tr("Pan &Left"), Qt::Key_A}, {tr("Pan &Right"), Qt::Key_D}};
    for (const auto &[name, key] : moves)
        view->addAction(name, QKeySequence(key), this, [this, key = key] {
            if (TimelineView *t = currentTimeline())
                t->navigate(key);
        });
    view->addSeparator();
    // with_stack traces: every timeline, open or opened later, shows ops only.
    QAction *opsOnly = view->addAction(tr("&Ops Only (Hide Python Frames)"));
    opsOnly->setCheckable(true);
    opsOnly->setChecked(foldmemory::pythonHidden());
    connect(opsOnly, &QAction::toggled, this, [this](bool hidden) {
        foldmemory::setPythonHidden(hidden);
        for (TimelineView *t : findChildren<TimelineView *>())
            t->setPythonHidden(hidden);
    });
    // Graph replays (vLLM decode): one lane per graph instead of the streams it spreads over.
    QAction *compactGraphs = view->addAction(tr("&Compact Graph Replays"));
    compactGraphs->setCheckable(true);
    compactGraphs->setChecked(foldmemory::graphsCompacted());
    connect(compactGraphs, &QAction::toggled, this, [this](bool compacted) {
        foldmemory::setGraphsCompacted(compacted);
        for (TimelineView *t : findChildren<TimelineView *>())
            t->setGraphsCompacted(compacted);
    });
    view->addSeparator();
    // Every finding of --check, warnings or not (the banner only shows for warnings).
    view->addAction(tr("Trace &Health…"), this, [this] {
        if (TraceTab *t = currentTab())
            HealthPanel::open(t->selection(), this);
    });
    // The dock's own action stays in step however the dock is closed (its title-bar button too).
    QAction *details = m_detailsDock->toggleViewAction();
    details->setText(tr("&Details Panel"));
    view->addAction(details);
}

void MainWindow::buildNavigateMenu()
{
    QMenu *navigate = menuBar()->addMenu(tr("&Navigate"));
    navigate->addAction(tr("Jump to &Counterpart"), QKeySequence(Qt::Key_J), this, [this] {
        if (TraceTab *t = currentTab())
            t->selection()->jumpToCounterpart();
        else if (auto *c = qobject_cast<ComparisonView *>(m_tabs->currentWidget()))
            c->baseSelection()->jumpToCounterpart();
    });
    m_back = navigate->addAction(tr("&Back"), QKeySequence(Qt::ALT | Qt::Key_Left), this, [this] {
        if (TraceTab *t = currentTab())
            t->selection()->back();
    });
    m_forward
        = navigate->addAction(tr("&Forward"), QKeySequence(Qt::ALT | Qt::Key_Right), this, [this] {
              if (TraceTab *t = currentTab())
                  t->selection()->forward();
          });
    m_back->setShortcutContext(Qt::ApplicationShortcut);
    m_forward->setShortcutContext(Qt::ApplicationShortcut);
}

void MainWindow::buildHelpMenu()
{
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] {
        auto *box = new QMessageBox(QMessageBox::Information, tr("Keyboard shortcuts"),
            // Padded cells: without, a key ran into its description.
            tr("<table cellspacing='0' cellpadding='4'>"
               "<tr><td><b>Ctrl+wheel</b></td><td>zoom at the cursor</td></tr>"
               "<tr><td><b>W / S</b></td><td>zoom in / out</td></tr>"
               "<tr><td><b>A / D</b>, Shift+wheel, drag</td><td>pan</td></tr>"
               "<tr><td><b>wheel</b></td><td>scroll lanes</td></tr>"
               "<tr><td><b>F</b> / <b>0</b></td><td>fit selection / show everything</td></tr>"
               "<tr><td><b>J</b>, Enter, double-click</td><td>jump to the counterpart</td></tr>"
               "<tr><td><b>Alt+Left / Alt+Right</b></td><td>back / forward</td></tr>"
               "<tr><td><b>Ctrl+F</b></td><td>find (Enter / Shift+Enter: next / previous)</td></tr>"
               "<tr><td>drag on the ruler, <b>Shift</b>+drag</td><td>mark a range: its statistics "
               "in Details (<b>Esc</b> clears it)</td></tr>"
               "<tr><td>click a Python band</td><td>unfold or fold that thread's Python "
               "frames</td></tr>"
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
    // Work off the UI thread that failed (out of memory): said, and the window works on.
    connect(&TaskFailures::instance(), &TaskFailures::failed, this, [this](const QString &why) {
        statusBar()->showMessage(tr("A background job failed: %1").arg(why), 15000);
    });
    connect(m_cancelButton, &QPushButton::clicked, m_loads, &LoadQueue::cancel);
}

void MainWindow::connectLoads()
{
    connect(m_loads, &LoadQueue::progress, this, [this](const QString &text, int permille) {
        m_progressLabel->setText(text);
        m_progressBar->setRange(0, permille < 0 ? 0 : 1000); // 0 to 0: a busy bar
        m_progressBar->setValue(std::max(permille, 0));
        m_progressBox->show();
    });
    connect(m_loads, &LoadQueue::idle, m_progressBox, &QWidget::hide);
    connect(m_loads, &LoadQueue::traceLoaded, this,
        [this](const QString &path, std::shared_ptr<const LoadedTrace> trace) {
            remember(path);
            statusBar()->showMessage(tr("Loaded %1 in %2 s")
                                         .arg(QFileInfo(path).fileName())
                                         .arg(trace->seconds, 0, 'f', 2),
                5000);
            addTrace(std::move(trace), tabTitle(path));
        });
    connect(m_loads, &LoadQueue::runReady, this,
        [this](std::shared_ptr<const Run> run) { addRunOrAsk(std::move(run)); });
    connect(m_loads, &LoadQueue::comparisonReady, this,
        [this](std::shared_ptr<ComparedTraces> compared, const DiffOptions &options) {
            for (const auto &trace : {compared->base, compared->candidate})
                remember(QString::fromStdString(trace->model->path));
            addComparison(std::move(compared), options);
        });
    connect(
        m_loads, &LoadQueue::failed, this, [this](const QString &title, const QString &message) {
            emit loadFailed(message);
            showError(title, message);
        });
    connect(m_loads, &LoadQueue::cancelled, this, [this](const QString &name) {
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(name), 5000);
    });
}

void MainWindow::remember(const QString &path)
{
    // The unpacked demo is not a file the user chose.
    if (path == demoTracePath())
        return;
    m_recent->add(path);
    FileDialogs::rememberOpened(path);
}

void MainWindow::openFiles(const QStringList &paths)
{
    m_loads->open(paths);
}

bool MainWindow::isLoading() const
{
    return m_loads->busy();
}

QStringList MainWindow::recentFiles() const
{
    return m_recent->files();
}

QString MainWindow::demoTracePath()
{
    // The demo is embedded in the binary; loaders and the details panel read files, so unpack it.
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    QString path
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

QString MainWindow::tabTitle(const QString &path)
{
    // The file's name without ".pt.trace.json.gz", its middle elided when long (ranks and
    // timestamps sit at the end): the tab's tooltip has the whole path.
    return elideMiddle(FileDialogs::traceStem(path), 32);
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    // The Details dock keeps a readable width: at least its minimum, at most 40 % of the window.
    QDockWidget *dock = m_detailsDock;
    if (!dock || dock->isFloating() || !dock->isVisible()) // (none yet while constructing)
        return;
    const int most = std::max(kDetailsMinWidth, width() * 2 / 5);
    const int wanted = std::clamp(dock->width(), kDetailsMinWidth, most);
    if (wanted != dock->width())
        resizeDocks({dock}, {wanted}, Qt::Horizontal);
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

TraceTab *MainWindow::addTrace(std::shared_ptr<const LoadedTrace> trace, const QString &title)
{
    // One rank of a job: its rank first, where eliding the file name cannot hide it.
    const RankInfo rank = rankInfo(*trace->model);
    const QString shown = rank.rank >= 0 && rank.worldSize > 1
        ? tr("rank %1 · %2").arg(rank.rank).arg(title)
        : title;
    auto *tab = new TraceTab(std::move(trace), m_tabs);
    const int index = m_tabs->addTab(tab, shown);
    m_tabs->setTabToolTip(index, QString::fromStdString(tab->selection()->trace().model->path));
    m_tabs->setCurrentIndex(index);
    showWelcomeIfEmpty();
    emit traceOpened(tab);
    return tab;
}

void MainWindow::openComparison(
    const QString &base, const QString &candidate, const DiffOptions &options)
{
    // A trace open in a tab is compared as it is, not read from disk again.
    m_loads->compare({base, openTraceAt(base)}, {candidate, openTraceAt(candidate)}, options);
}

ComparisonView *MainWindow::addComparison(
    std::shared_ptr<ComparedTraces> compared, const DiffOptions &options)
{
    const QString basePath = QString::fromStdString(compared->base->model->path);
    const QString candidatePath = QString::fromStdString(compared->candidate->model->path);
    const QString title = tr("%1 ↔ %2").arg(tabTitle(basePath), tabTitle(candidatePath));
    auto *view = new ComparisonView(std::move(compared), options, m_tabs);
    const int index = m_tabs->addTab(view, title);
    m_tabs->setTabToolTip(index, tr("%1\ncompared with\n%2").arg(candidatePath, basePath));
    m_tabs->setCurrentIndex(index);
    showWelcomeIfEmpty();
    emit comparisonOpened(view);
    return view;
}

ComparisonView *MainWindow::addComparison(std::shared_ptr<const LoadedTrace> base,
    std::shared_ptr<const LoadedTrace> candidate,
    const DiffOptions &options)
{
    std::string error;
    auto compared = ComparedTraces::make(std::move(base), std::move(candidate), options, error);
    if (!compared) {
        m_comparisonError = QString::fromStdString(error);
        showError(tr("Cannot compare"), m_comparisonError);
        return nullptr;
    }
    return addComparison(std::move(compared), options);
}

TimelineView *MainWindow::currentTimeline() const
{
    if (TraceTab *t = currentTab())
        return t->timeline();
    // A comparison's timelines move together: the base stands for both; so does rank 0 of a run.
    if (auto *c = qobject_cast<ComparisonView *>(m_tabs->currentWidget()))
        return c->baseTimeline();
    if (auto *r = qobject_cast<RunView *>(m_tabs->currentWidget()))
        return r->timelines() ? r->timelines()->timeline(0) : nullptr;
    return nullptr;
}

TraceTab *MainWindow::currentTab() const
{
    return qobject_cast<TraceTab *>(m_tabs->currentWidget());
}

void MainWindow::onCurrentTabChanged()
{
    TraceTab *tab = currentTab();
    // A run's details follow rank 0: a pair selected there is selected on every rank.
    auto *run = qobject_cast<RunView *>(m_tabs->currentWidget());
    m_details->setSelectionController(tab ? tab->selection()
            : run && run->timelines()     ? run->timelines()->selection(0)
                                          : nullptr);
    m_exports->setCurrent(m_tabs->currentWidget());
    setWindowTitle(tab ? m_tabs->tabText(m_tabs->currentIndex()) + QStringLiteral(" — Kinetoscope")
                       : QStringLiteral("Kinetoscope"));
    // Back and Forward follow the current tab's history.
    disconnect(m_historyConnection);
    m_historySource = tab ? tab->selection() : nullptr;
    if (m_historySource)
        m_historyConnection = connect(m_historySource, &SelectionController::historyChanged, this,
            &MainWindow::updateHistoryActions);
    updateHistoryActions();
}

void MainWindow::updateHistoryActions()
{
    m_back->setEnabled(m_historySource && m_historySource->canGoBack());
    m_forward->setEnabled(m_historySource && m_historySource->canGoForward());
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
        openDropped(paths);
    event->acceptProposedAction();
}

void MainWindow::showError(const QString &title, const QString &message)
{
    auto *box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Close, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace ks
