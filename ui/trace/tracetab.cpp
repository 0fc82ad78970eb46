// SPDX-License-Identifier: MIT
#include "trace/tracetab.h"

#include "common/elidedlabel.h"
#include "common/timeformat.h"
#include "export/pairgroups.h"
#include "export/pairtable.h"
#include "export/summary.h"
#include "table/tablemodel.h"
#include "timeline/timelineview.h"
#include "trace/chartsview.h"
#include "trace/memoryview.h"
#include "trace/modulesview.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace ks {

namespace {

//! Rows the "Checkpointed only" filter keeps.
bool touchedByCheckpointing(const PairRow &row)
{
    return row.recomputations > 0 || row.recomputeGpu.count > 0 || row.recompute;
}

//! A tab page whose view is created when it is first shown.
QWidget *emptyPage(QWidget *parent)
{
    auto *page = new QWidget(parent);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    return page;
}

QTableView *makeTableView(QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setSortingEnabled(true);
    view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    view->horizontalHeader()->setSectionsMovable(true);
    view->verticalHeader()->setDefaultSectionSize(20);
    view->verticalHeader()->hide();
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    return view;
}

} // namespace

TraceTab::TraceTab(std::shared_ptr<const LoadedTrace> trace, QWidget *parent)
    : QWidget(parent)
    , m_trace(std::move(trace))
    , m_selection(new SelectionController(m_trace, this))
    , m_timeline(new TimelineView(m_selection, this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    if (QWidget *banner = buildBanner())
        layout->addWidget(banner);
    layout->addWidget(buildToolbar());

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_timeline);
    m_bottom = new QTabWidget(splitter);
    m_bottom->setDocumentMode(true);
    m_bottom->addTab(buildPairPage(), tr("Op pairs"));
    m_bottom->addTab(buildKernelPage(), tr("GPU events"));
    // The charts and the module tree are not needed for the first frame: their pages fill in
    // when first shown, and the module tree is built in the background meanwhile.
    m_chartsPage = emptyPage(m_bottom);
    m_bottom->addTab(m_chartsPage, tr("Charts"));
    m_modulesPage = emptyPage(m_bottom);
    m_bottom->addTab(m_modulesPage, tr("Modules"));
    if (m_trace->model->memory.size() > 0) {
        m_memoryPage = emptyPage(m_bottom);
        m_bottom->addTab(m_memoryPage, tr("Memory"));
    }
    connect(m_bottom, &QTabWidget::currentChanged, this, [this] {
        if (m_bottom->currentWidget() == m_chartsPage)
            charts();
        else if (m_bottom->currentWidget() == m_modulesPage)
            modules();
        else if (m_memoryPage && m_bottom->currentWidget() == m_memoryPage)
            memory();
    });
    QThreadPool::globalInstance()->start([trace = m_trace] { trace->modules(); });
    splitter->addWidget(m_bottom);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    // The table's size hint would take most of the height: start with the timeline at 60 %, so
    // that the forward, backward and GPU lanes are in view together.
    splitter->setSizes({600, 400});
    layout->addWidget(splitter, 1);

    connect(
        m_selection, &SelectionController::selectionChanged, this, &TraceTab::selectTableRowFor);
    connect(m_selection, &SelectionController::moduleChanged, this, &TraceTab::highlightModule);
    connect(m_timeline, &TimelineView::findStatus, m_findStatus, &QLabel::setText);
}

TraceTab::~TraceTab() = default;

QString TraceTab::diagnosticsReport() const
{
    return QString::fromStdString(
        allDiagnostics(*m_trace->model, *m_trace->graph, m_trace->memory()).report());
}

QString TraceTab::diagnosticsSummary() const
{
    const Diagnostics all = allDiagnostics(*m_trace->model, *m_trace->graph, m_trace->memory());
    const auto list = [&](Severity severity) {
        QString items;
        for (const DiagnosticInfo &d : kDiagnostics)
            if (d.severity == severity && all.count(d.id) > 0)
                items += QStringLiteral("<li><b>%1</b> × %2 — %3</li>")
                             .arg(QString::fromUtf8(d.name.data(), qsizetype(d.name.size())))
                             .arg(all.count(d.id))
                             .arg(QString::fromUtf8(
                                 d.description.data(), qsizetype(d.description.size()))
                                      .toHtmlEscaped());
        return items;
    };
    QString html;
    if (const QString warnings = list(Severity::Warning); !warnings.isEmpty())
        html += tr(
            "<p>Warnings (something in the file was skipped, cut or repaired):</p><ul>%1</ul>")
                    .arg(warnings);
    if (const QString info = list(Severity::Info); !info.isEmpty())
        html += tr("<p>Informational (normal in real traces):</p><ul>%1</ul>").arg(info);
    return html;
}

QWidget *TraceTab::buildBanner()
{
    const TraceModel &m = *m_trace->model;
    const uint64_t warnings = allDiagnostics(m, *m_trace->graph, m_trace->memory()).warnings();
    const bool noSequence = !m_trace->graph->stats().hasSequenceNumbers && m.slices.size() > 0;
    if (warnings == 0 && !m.truncated && !noSequence)
        return nullptr;
    auto *banner = new QFrame(this);
    banner->setObjectName(QStringLiteral("diagnosticsBanner"));
    banner->setStyleSheet(QStringLiteral(
        "#diagnosticsBanner { background: #fff4ce; border-bottom: 1px solid #e0c060; }"));
    auto *row = new QHBoxLayout(banner);
    row->setContentsMargins(8, 4, 8, 4);
    QString text;
    if (m.truncated)
        text = tr("The file is cut off: every complete event was loaded. ");
    if (warnings > 0)
        text += tr("Loaded with %n warning(s).", nullptr, int(warnings));
    if (noSequence)
        text += tr(" This trace has no sequence numbers: forward and backward ops cannot be paired "
                   "(GPU time is still attributed).");
    auto *label = new QLabel(text, banner);
    label->setWordWrap(true);
    row->addWidget(label, 1);
    auto *details = new QPushButton(tr("Details…"), banner);
    connect(details, &QPushButton::clicked, this, [this] {
        auto *box = new QMessageBox(QMessageBox::Information, tr("Diagnostics"),
            tr("What the loader and linker found unusual in %1:")
                .arg(QString::fromStdString(m_trace->model->path)),
            QMessageBox::Close, this);
        box->setTextFormat(Qt::RichText);
        box->setInformativeText(diagnosticsSummary());
        // Where each came from (file offsets), for whoever wants to look in the file.
        box->setDetailedText(diagnosticsReport());
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    row->addWidget(details);
    auto *close = new QToolButton(banner);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    connect(close, &QToolButton::clicked, banner, &QWidget::hide);
    row->addWidget(close);
    return banner;
}

QWidget *TraceTab::buildToolbar()
{
    auto *bar = new QWidget(this);
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(6, 2, 6, 2);

    row->addWidget(new QLabel(tr("Step:"), bar));
    auto *steps = new QComboBox(bar);
    steps->setObjectName(QStringLiteral("stepSelector"));
    steps->addItem(tr("Whole trace"));
    for (const ProfilerStep &s : m_trace->graph->steps())
        steps->addItem(
            tr("ProfilerStep#%1  (%2)").arg(s.number).arg(formatDuration(double(s.end - s.start))));
    steps->setToolTip(tr("Frames the step in the timeline and shows its pairs only in the pair "
                         "table (instances), the top-pairs chart and the Modules tab; groups "
                         "and the scatter sum every step"));
    connect(steps, &QComboBox::activated, this, [this](int index) { setStep(index - 1); });
    row->addWidget(steps);
    row->addSpacing(12);

    row->addWidget(new QLabel(tr("Find:"), bar));
    m_find = new QLineEdit(bar);
    m_find->setObjectName(QStringLiteral("findEdit"));
    m_find->setPlaceholderText(tr("regex over names (Ctrl+F)"));
    m_find->setClearButtonEnabled(true);
    m_find->setMaximumWidth(280);
    auto *findTimer = new QTimer(this);
    findTimer->setSingleShot(true);
    findTimer->setInterval(200);
    connect(m_find, &QLineEdit::textChanged, findTimer, qOverload<>(&QTimer::start));
    connect(
        findTimer, &QTimer::timeout, this, [this] { m_timeline->setFindPattern(m_find->text()); });
    connect(m_find, &QLineEdit::returnPressed, this, [this, findTimer] {
        if (findTimer->isActive()) {
            findTimer->stop();
            m_timeline->setFindPattern(m_find->text());
        }
        m_timeline->findNext(QApplication::keyboardModifiers() & Qt::ShiftModifier);
    });
    // Escape clears the search and gives the keys back to the timeline.
    auto *leaveFind
        = new QShortcut(QKeySequence(Qt::Key_Escape), m_find, nullptr, nullptr, Qt::WidgetShortcut);
    connect(leaveFind, &QShortcut::activated, this, [this] {
        m_find->clear();
        m_timeline->setFindPattern(QString());
        m_timeline->setFocus();
    });
    row->addWidget(m_find);
    m_findStatus = new QLabel(bar);
    m_findStatus->setMinimumWidth(120);
    row->addWidget(m_findStatus);

    auto *arrows = new QCheckBox(tr("All fwd→bwd arrows"), bar);
    arrows->setObjectName(QStringLiteral("allArrows"));
    arrows->setToolTip(tr("Draw every forward → backward arrow in view, not only the selection's"));
    connect(arrows, &QCheckBox::toggled, m_timeline, &TimelineView::setShowAllArrows);
    row->addWidget(arrows);

    const LinkStats &s = m_trace->graph->stats();
    auto *stats
        = new ElidedLabel(tr("%1 pairs (%2 by flow, %3 by sequence), %4 unpaired backward · %5 "
                             "of %6 GPU events attributed")
                              .arg(s.pairs())
                              .arg(s.pairsFromFlows)
                              .arg(s.pairsFromSequence)
                              .arg(s.unpairedBackward)
                              .arg(s.gpuEventsAttributed)
                              .arg(s.gpuEvents),
            bar);
    stats->setStyleSheet(QStringLiteral("color: palette(mid);"));
    stats->setObjectName(QStringLiteral("linkSummary"));
    stats->setMinimumWidth(120); // the pair count at least; the tooltip has the rest
    row->addWidget(stats, 1);
    return bar;
}

ChartsView *TraceTab::charts()
{
    if (!m_charts) {
        m_charts = new ChartsView(m_selection, m_groups, m_chartsPage);
        m_chartsPage->layout()->addWidget(m_charts);
        if (m_step >= 0)
            m_charts->setStep(m_trace->graph->steps()[size_t(m_step)].number);
    }
    return m_charts;
}

MemoryView *TraceTab::memory()
{
    if (!m_memory && m_memoryPage) {
        m_memory = new MemoryView(m_selection, m_memoryPage);
        m_memoryPage->layout()->addWidget(m_memory);
    }
    return m_memory;
}

ModulesView *TraceTab::modules()
{
    if (m_modules)
        return m_modules;
    m_modules = new ModulesView(m_trace->modules(), m_trace->pairMemory(),
        m_modulesPage); // waits if still building
    m_modulesPage->layout()->addWidget(m_modules);
    if (m_step >= 0)
        m_modules->selectStep(
            m_trace->modules().stepIndex(m_trace->graph->steps()[size_t(m_step)].number));
    // The module tree selects through the controller, and follows it: selecting an event clears
    // the module, selecting a module clears the event.
    connect(
        m_modules, &ModulesView::moduleSelected, m_selection, &SelectionController::selectModule);
    connect(
        m_selection, &SelectionController::moduleChanged, m_modules, &ModulesView::selectModule);
    return m_modules;
}

void TraceTab::highlightModule(ModuleId id)
{
    // A module's calls and its backward nodes — scattered over the backward pass — light up in the
    // timeline, framed from the first to the last. The root is everything: nothing to light.
    std::vector<SliceId> slices;
    if (id != kNoModule && id != 0)
        slices = m_trace->modules().highlightSlices(id, true);
    if (!slices.empty()) {
        const SliceTable &t = m_trace->model->slices;
        TimeNs from = t.start[slices.front()], to = t.end(slices.front());
        for (SliceId s : slices) {
            from = std::min(from, t.start[s]);
            to = std::max(to, t.end(s));
        }
        m_timeline->zoomToInterval(from, to);
    }
    m_timeline->setHighlight(std::move(slices));
}

QWidget *TraceTab::buildPairPage()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 2, 0, 0);
    auto *row = new QHBoxLayout;
    row->setContentsMargins(6, 0, 6, 0);
    m_mode = new QComboBox(page);
    m_mode->setObjectName(QStringLiteral("pairMode"));
    m_mode->addItems({tr("Instances"), tr("Groups (op + input dims)")});
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this](int i) { setGroupMode(i == 1); });
    row->addWidget(m_mode);
    m_filter = new QLineEdit(page);
    m_filter->setObjectName(QStringLiteral("pairFilter"));
    m_filter->setPlaceholderText(tr("Filter op names (substring; regex when ticked)"));
    m_filter->setClearButtonEnabled(true);
    row->addWidget(m_filter, 1);
    m_regex = new QCheckBox(tr("Regex"), page);
    row->addWidget(m_regex);
    m_checkpointed = new QCheckBox(tr("Checkpointed only"), page);
    m_checkpointed->setObjectName(QStringLiteral("checkpointedOnly"));
    const bool hasRecompute = !m_trace->graph->recomputations().empty();
    m_checkpointed->setEnabled(hasRecompute);
    m_checkpointed->setToolTip(hasRecompute
            ? tr("Only rows whose forward op was recomputed during backward (activation "
                 "checkpointing), or whose backward nodes ran a recomputation")
            : tr("No activation checkpointing in this trace: no forward work is re-run during "
                 "backward"));
    row->addWidget(m_checkpointed);
    m_rowCount = new QLabel(page);
    m_rowCount->setObjectName(QStringLiteral("pairRowCount"));
    m_rowCount->setStyleSheet(QStringLiteral("color: palette(mid);"));
    row->addWidget(m_rowCount);
    layout->addLayout(row);

    m_pairView = makeTableView(page);
    m_pairView->setObjectName(QStringLiteral("pairTable"));
    // An empty table says why it is empty.
    if (m_trace->graph->rows().empty())
        layout->addWidget(noPairsNotice(page));
    layout->addWidget(m_pairView, 1);

    const OpGraph &g = *m_trace->graph;
    m_instanceModel = new TableModel(std::make_shared<PairTable>(g, m_trace->pairMemory()),
        {PairTable::FwdName, PairTable::BwdNames, PairTable::Module}, this);
    m_instanceModel->setTimeOrigin(m_trace->model->minTime);
    m_groups = std::make_shared<PairGroupTable>(g);
    m_groupModel
        = new TableModel(m_groups, {PairGroupTable::FwdName, PairGroupTable::BwdNames}, this);
    m_pairModel = m_instanceModel;
    attachPairModel();
    for (TableModel *model : {m_instanceModel, m_groupModel})
        connect(model, &TableModel::filterApplied, this, &TraceTab::updateRowCount);

    // Filter as you type, debounced; big tables filter on a worker thread.
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setInterval(150);
    connect(m_filter, &QLineEdit::textChanged, timer, qOverload<>(&QTimer::start));
    connect(m_regex, &QCheckBox::toggled, timer, qOverload<>(&QTimer::start));
    connect(m_checkpointed, &QCheckBox::toggled, timer, qOverload<>(&QTimer::start));
    connect(timer, &QTimer::timeout, this, &TraceTab::applyPairFilter);

    connect(
        m_pairView, &QTableView::doubleClicked, this, [this] { m_selection->jumpToCounterpart(); });
    for (const QKeySequence &key : {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(key, m_pairView, nullptr, nullptr, Qt::WidgetShortcut);
        connect(
            shortcut, &QShortcut::activated, this, [this] { m_selection->jumpToCounterpart(); });
    }
    return page;
}

void TraceTab::attachPairModel()
{
    m_pairView->setModel(m_pairModel);
    if (m_rowCount)
        updateRowCount();
    QHeaderView *header = m_pairView->horizontalHeader();
    header->setSortIndicator(-1, Qt::AscendingOrder);
    // What a user reads first comes first: names and GPU times, then the rest. Only the view
    // moves its sections; exports keep the command line's column order.
    std::vector<int> first = m_groupMode
        // Groups: what and how many, then GPU time (totals, means, maxima, events), then the
        // inputs and the link, CPU durations last.
        ? std::vector<int> {PairGroupTable::FwdName, PairGroupTable::Count,
            PairGroupTable::BwdNames, PairGroupTable::FwdGpuUsTotal, PairGroupTable::BwdGpuUsTotal,
            PairGroupTable::FwdGpuUsMean, PairGroupTable::BwdGpuUsMean, PairGroupTable::FwdGpuUsMax,
            PairGroupTable::BwdGpuUsMax, PairGroupTable::FwdGpuEvents, PairGroupTable::BwdGpuEvents,
            PairGroupTable::InputDims, PairGroupTable::Link}
        : std::vector<int> {PairTable::FwdName, PairTable::BwdNames, PairTable::FwdGpuUs,
            PairTable::BwdGpuUs, PairTable::FwdGpuEvents, PairTable::BwdGpuEvents, PairTable::Link,
            PairTable::Step};
    // With checkpointing, its columns sit next to the GPU times they split.
    if (!m_trace->graph->recomputations().empty()) {
        const auto at = std::find(first.begin(), first.end(),
            m_groupMode ? int(PairGroupTable::BwdGpuUsTotal) : int(PairTable::BwdGpuUs));
        if (m_groupMode)
            first.insert(at + 1,
                {PairGroupTable::RecomputeGpuUsTotal, PairGroupTable::RecomputedGpuUsTotal});
        else
            first.insert(at + 1, {PairTable::RecomputeGpuUs, PairTable::RecomputedGpuUs});
    }
    // The rest follow in the table's own order.
    for (int c = 0; c < m_pairModel->columnCount(); ++c)
        if (std::find(first.begin(), first.end(), c) == first.end())
            first.push_back(c);
    for (int visual = 0; visual < int(first.size()); ++visual)
        header->moveSection(header->visualIndex(first[size_t(visual)]), visual);
    m_pairView->resizeColumnsToContents();
    for (int c = 0; c < m_pairModel->columnCount(); ++c)
        m_pairView->setColumnWidth(c, std::min(m_pairView->columnWidth(c), 320));
    connect(m_pairView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) { onPairRowActivated(current); });
}

QLabel *TraceTab::noPairsNotice(QWidget *parent) const
{
    const LinkStats &s = m_trace->graph->stats();
    const NoPairsReason why = noPairsReason(s);
    QString text = QStringLiteral("<b>%1.</b> %2").arg(why.headline, why.text.toHtmlEscaped());
    if (!s.hasSequenceNumbers && s.gpuEvents > 0)
        text += tr(" GPU time is still split into forward, backward and other: see the GPU events "
                   "table, the per-step chart and the Modules tab.");
    auto *label = new QLabel(text, parent);
    label->setObjectName(QStringLiteral("noPairsNotice"));
    label->setWordWrap(true);
    label->setContentsMargins(8, 6, 8, 6);
    return label;
}

void TraceTab::applyPairFilter()
{
    // Values, not this: the predicates run on the filter's worker thread.
    std::shared_ptr<const LoadedTrace> trace = m_trace;
    const bool checkpointed = m_checkpointed->isChecked();
    const int64_t step = m_step < 0 ? kNoValue : trace->graph->steps()[size_t(m_step)].number;
    TableModel::RowPredicate instances, groups;
    if (checkpointed || step != kNoValue)
        instances = [trace, checkpointed, step](uint32_t r) {
            const PairRow &row = trace->graph->rows()[r];
            return (!checkpointed || touchedByCheckpointing(row))
                && (step == kNoValue || row.step == step);
        };
    // A group's numbers sum every step: the step does not filter groups.
    if (checkpointed)
        groups = [trace, table = m_groups](uint32_t gi) {
            const auto &rows = table->groups()[gi].rows;
            return std::any_of(rows.begin(), rows.end(),
                [&](uint32_t r) { return touchedByCheckpointing(trace->graph->rows()[r]); });
        };
    m_instanceModel->setFilter(m_filter->text(), m_regex->isChecked(), instances);
    m_groupModel->setFilter(m_filter->text(), m_regex->isChecked(), groups);
}

void TraceTab::setStep(int stepIndex)
{
    m_step = stepIndex;
    const auto &steps = m_trace->graph->steps();
    if (stepIndex < 0)
        m_timeline->showAll();
    else
        m_timeline->zoomToInterval(steps[size_t(stepIndex)].start, steps[size_t(stepIndex)].end);
    applyPairFilter();
    const int64_t number = stepIndex < 0 ? kNoValue : steps[size_t(stepIndex)].number;
    if (m_charts)
        m_charts->setStep(number);
    if (m_modules)
        m_modules->selectStep(
            number == kNoValue ? ModuleTree::kWholeTrace : m_trace->modules().stepIndex(number));
    updateRowCount();
}

void TraceTab::updateRowCount()
{
    const int shown = m_pairModel->rowCount();
    const int all = int(m_pairModel->table().rowCount());
    QString text = shown == all ? tr("%1 rows").arg(all) : tr("%1 of %2 rows").arg(shown).arg(all);
    if (m_groupMode && m_step >= 0)
        text += tr(" · groups sum every step");
    m_rowCount->setText(text);
}

void TraceTab::setGroupMode(bool groups)
{
    if (groups == m_groupMode)
        return;
    m_groupMode = groups;
    m_pairModel = groups ? m_groupModel : m_instanceModel;
    if (m_mode->currentIndex() != int(groups))
        m_mode->setCurrentIndex(int(groups));
    attachPairModel();
    selectTableRowFor(m_selection->current());
}

void TraceTab::onPairRowActivated(const QModelIndex &index)
{
    if (m_syncingTable || !index.isValid())
        return;
    const OpGraph &g = *m_trace->graph;
    uint32_t pairRow = index.data(TableModel::SourceRowRole).toUInt();
    if (m_groupMode)
        pairRow = m_groups->groups()[pairRow].rows.front();
    const PairRow &row = g.rows()[pairRow];
    m_selection->select(
        row.forward != kNoSlice ? row.forward : g.nodes()[g.nodesOf(row).front()].node);
}

QWidget *TraceTab::buildKernelPage()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 2, 0, 0);
    auto *filter = new QLineEdit(page);
    filter->setPlaceholderText(tr("Filter kernel or op names"));
    filter->setClearButtonEnabled(true);
    layout->addWidget(filter);
    m_kernelView = makeTableView(page);
    m_kernelView->setObjectName(QStringLiteral("kernelTable"));
    m_kernelModel = new TableModel(std::make_shared<KernelTable>(*m_trace->graph),
        {KernelTable::Name, KernelTable::OpName, KernelTable::PairFwdName}, this);
    m_kernelModel->setTimeOrigin(m_trace->model->minTime);
    m_kernelView->setModel(m_kernelModel);
    m_kernelView->setColumnWidth(KernelTable::Name, 360);
    layout->addWidget(m_kernelView, 1);
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setInterval(150);
    connect(filter, &QLineEdit::textChanged, timer, qOverload<>(&QTimer::start));
    connect(timer, &QTimer::timeout, this,
        [this, filter] { m_kernelModel->setFilter(filter->text(), false); });
    connect(m_kernelView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (m_syncingTable || !current.isValid())
                return;
            const uint32_t row = current.data(TableModel::SourceRowRole).toUInt();
            m_selection->select(m_trace->graph->gpuEvents()[row]);
        });
    connect(m_kernelView, &QTableView::doubleClicked, this,
        [this] { m_selection->jumpToCounterpart(); });
    return page;
}

QTableView *TraceTab::currentTableView() const
{
    return m_bottom->currentIndex() == 1 ? m_kernelView : m_pairView;
}

void TraceTab::selectTableRowFor(SliceId slice)
{
    // Keep the tables on the selection without feeding their change back into it.
    m_syncingTable = true;
    const OpGraph &g = *m_trace->graph;
    const int r = slice == kNoSlice ? -1 : g.rowOf(slice);
    int pairViewRow = -1;
    if (r >= 0)
        pairViewRow
            = m_pairModel->viewRowOf(m_groupMode ? m_groups->groupOf(uint32_t(r)) : uint32_t(r));
    int kernelViewRow = -1;
    if (slice != kNoSlice && isGpuWork(m_trace->model->slices.kind[slice])) {
        const auto &gpu = g.gpuEvents();
        const auto it = std::lower_bound(gpu.begin(), gpu.end(), slice);
        if (it != gpu.end() && *it == slice)
            kernelViewRow = m_kernelModel->viewRowOf(uint32_t(it - gpu.begin()));
    }
    // A row that no longer shows the selection is deselected, never left highlighted.
    for (auto [view, model, viewRow] : {std::tuple {m_pairView, m_pairModel, pairViewRow},
             std::tuple {m_kernelView, m_kernelModel, kernelViewRow}}) {
        if (viewRow < 0) {
            view->selectionModel()->clear();
            continue;
        }
        view->selectRow(viewRow);
        view->scrollTo(model->index(viewRow, 0));
    }
    m_syncingTable = false;
}

void TraceTab::startFind()
{
    m_find->setFocus();
    m_find->selectAll();
}

} // namespace ks
