// SPDX-License-Identifier: MIT
#include "trace/tracetab.h"

#include "analysis/criticalpath/pathchain.h"
#include "export/apisummarytable.h"
#include "export/opsummarytable.h"
#include "timeline/timelineview.h"
#include "trace/chartsview.h"
#include "trace/criticalpathpage.h"
#include "trace/diagnosticsbanner.h"
#include "trace/findingspage.h"
#include "trace/kerneltablepage.h"
#include "trace/livememorypanel.h"
#include "trace/memoryview.h"
#include "trace/modulesview.h"
#include "trace/pairtablepage.h"
#include "trace/summarypage.h"
#include "trace/tracetoolbar.h"

#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ks {

namespace {

//! A tab page whose view is created when it is first shown.
QWidget *emptyPage(QWidget *parent)
{
    auto *page = new QWidget(parent);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    return page;
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
    if (QWidget *banner = DiagnosticsBanner::create(m_selection, this))
        layout->addWidget(banner);
    m_toolbar = new TraceToolbar(*m_trace, m_timeline, this);
    connect(m_toolbar, &TraceToolbar::stepChosen, this, &TraceTab::setStep);
    layout->addWidget(m_toolbar);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_timeline);
    splitter->addWidget(buildPages());
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    // The table's size hint would take most of the height: start with the timeline at 60 %, so
    // that the forward, backward and GPU lanes are in view together.
    splitter->setSizes({600, 400});
    layout->addWidget(splitter, 1);

    connect(m_selection, &SelectionController::selectionChanged, this, &TraceTab::showSelection);
    connect(m_selection, &SelectionController::moduleChanged, this, &TraceTab::highlightModule);
    // A click on a memory curve shows what is alive then, in the Memory tab.
    connect(m_timeline, &TimelineView::memoryEventClicked, this, [this](uint32_t event) {
        if (MemoryView *view = memory()) {
            m_bottom->setCurrentWidget(m_memoryPage);
            view->live()->showAfter(event, tr("clicked on the timeline"));
        }
    });
}

TraceTab::~TraceTab() = default;

QWidget *TraceTab::buildPages()
{
    m_bottom = new QTabWidget(this);
    m_bottom->setDocumentMode(true);
    // What to fix first, where there is a step to shorten: worked out in the background.
    if (!m_trace->graph->steps().empty()) {
        m_findings = new FindingsPage(
            [trace = m_trace] {
                return FindingsOf {trace, &trace->criticalPath(), {}, &trace->stepFindings()};
            },
            m_bottom);
        m_bottom->addTab(m_findings, tr("Findings"));
        connect(m_findings, &FindingsPage::eventChosen, m_selection,
            [this](quint32, quint32 slice) { m_selection->select(SliceId(slice)); });
    }
    m_pairsPage = emptyPage(m_bottom);
    m_bottom->addTab(m_pairsPage, tr("Op pairs"));
    m_kernelsPage = emptyPage(m_bottom);
    m_bottom->addTab(m_kernelsPage, tr("GPU events"));
    // Nsight's CUDA API Summary and the TensorBoard plugin's Operator view, summed when shown.
    m_api = new SummaryPage(
        QStringLiteral("apiSummary"),
        [trace = m_trace](int64_t step, int) {
            return apiSummaryTable(ks::apiSummary(*trace->graph, step), *trace->model);
        },
        {}, tr("Filter call names"), m_bottom);
    m_bottom->addTab(m_api, tr("Runtime API"));
    m_operators = new SummaryPage(
        QStringLiteral("opSummary"),
        [trace = m_trace](int64_t step, int byDims) {
            return opSummaryTable(opSummary(*trace->graph, byDims == 1, step), *trace->model);
        },
        {tr("By op name"), tr("By op name and input dims")}, tr("Filter op names"), m_bottom);
    m_bottom->addTab(m_operators, tr("Operators"));
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
    m_criticalPage = emptyPage(m_bottom);
    m_bottom->addTab(m_criticalPage, tr("Critical path"));
    connect(m_bottom, &QTabWidget::currentChanged, this, [this] {
        highlightCriticalPath(m_bottom->currentWidget() == m_criticalPage);
        if (m_bottom->currentWidget() == m_pairsPage)
            pairs();
        else if (m_bottom->currentWidget() == m_kernelsPage)
            kernels();
        else if (m_bottom->currentWidget() == m_criticalPage)
            criticalPath();
        else if (m_bottom->currentWidget() == m_chartsPage)
            charts();
        else if (m_bottom->currentWidget() == m_modulesPage)
            modules();
        else if (m_memoryPage && m_bottom->currentWidget() == m_memoryPage)
            memory();
    });
    // What the first frame does not draw, worked out meanwhile: the tables' columns (critical
    // path, efficiency) and the module tree. Without steps the pair table is the first page on
    // show: it comes when its columns are ready (the whole trace's critical path takes seconds on
    // large traces), a line saying so until then.
    if (!m_findings)
        m_pairsPage->layout()->addWidget(new QLabel(
            tr("Working out the op pairs' columns (critical path, efficiency)…"), m_pairsPage));
    m_moduleTree.run(
        [trace = m_trace](const std::atomic<bool> &) {
            trace->pairTable();
            trace->modules();
            return true;
        },
        [this](bool) {
            if (m_bottom->currentWidget() == m_pairsPage)
                pairs();
        });
    return m_bottom;
}

bool TraceTab::pagesPending() const
{
    return m_moduleTree.pending() || (m_findings && m_findings->pending());
}

PairTablePage *TraceTab::pairs()
{
    if (!m_pairs) {
        qDeleteAll(m_pairsPage->findChildren<QLabel *>(QString(), Qt::FindDirectChildrenOnly));
        m_pairs = new PairTablePage(m_selection, m_pairsPage);
        m_pairsPage->layout()->addWidget(m_pairs);
        m_pairs->setStepNumber(stepNumber());
        m_pairs->showSelection(m_selection->current());
        connect(
            m_pairs, &PairTablePage::whatIfAsked, this, [this](const QString &name, double factor) {
                m_bottom->setCurrentWidget(m_criticalPage);
                criticalPath()->askWhatIf({WhatIfChange::Kind::Scale, name.toStdString(), factor});
            });
    }
    return m_pairs;
}

KernelTablePage *TraceTab::kernels()
{
    if (!m_kernels) {
        m_kernels = new KernelTablePage(m_selection, m_kernelsPage);
        m_kernelsPage->layout()->addWidget(m_kernels);
        m_kernels->setStepNumber(stepNumber());
        m_kernels->showSelection(m_selection->current());
    }
    return m_kernels;
}

ChartsView *TraceTab::charts()
{
    if (!m_charts) {
        m_charts = new ChartsView(
            m_selection, m_trace->pairGroups(), m_trace->efficiency(), m_chartsPage);
        m_chartsPage->layout()->addWidget(m_charts);
        if (m_step >= 0)
            m_charts->setStepNumber(stepNumber());
    }
    return m_charts;
}

CriticalPathPage *TraceTab::criticalPath()
{
    if (!m_critical) {
        const auto trace = m_selection->tracePointer();
        m_critical = new CriticalPathPage(
            std::shared_ptr<const CriticalPathAnalysis>(trace, &trace->criticalPath()),
            m_criticalPage);
        m_criticalPage->layout()->addWidget(m_critical);
        // A segment selects its event: the timeline frames it, the tables follow.
        connect(m_critical, &CriticalPathPage::segmentChosen, this, [this, trace](quint32 i) {
            m_selection->select(trace->criticalPath().path().segments[i].event);
        });
    }
    return m_critical;
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
    if (m_modules || m_modulesFailed)
        return m_modules;
    try {
        m_modules = new ModulesView(m_trace->modules(), m_trace->pairMemory(),
            m_trace->efficiency(), m_modulesPage); // waits if still building
    } catch (const std::bad_alloc &) { // the page says so; the rest of the tab works on
        m_modulesFailed = true;
        m_modulesPage->layout()->addWidget(
            new QLabel(tr("Not enough memory to build the module tree."), m_modulesPage));
        return nullptr;
    }
    m_modulesPage->layout()->addWidget(m_modules);
    if (m_step >= 0)
        m_modules->selectStep(m_trace->modules().stepIndex(stepNumber()));
    // The module tree selects through the controller, and follows it: selecting an event clears
    // the module, selecting a module clears the event.
    connect(
        m_modules, &ModulesView::moduleSelected, m_selection, &SelectionController::selectModule);
    connect(
        m_selection, &SelectionController::moduleChanged, m_modules, &ModulesView::selectModule);
    return m_modules;
}

void TraceTab::highlightCriticalPath(bool on)
{
    if (!on && !m_pathShown)
        return; // another highlight (a module's) stays
    m_pathShown = on;
    std::vector<SliceId> slices;
    std::vector<ChainStep> chain;
    if (on) {
        for (const PathSegment &s : m_trace->criticalPath().path().segments)
            slices.push_back(s.event);
        chain = std::move(pathChain(m_trace->criticalPath()).steps.front());
    }
    m_timeline->setPathChain(std::move(chain));
    std::sort(slices.begin(), slices.end());
    slices.erase(std::unique(slices.begin(), slices.end()), slices.end());
    if (!slices.empty()) {
        const auto &segments = m_trace->criticalPath().path().segments;
        const auto last = std::max_element(
            segments.begin(), segments.end(), [](const PathSegment &a, const PathSegment &b) {
                return a.start + a.dur < b.start + b.dur;
            });
        m_timeline->zoomToInterval(segments.front().start, last->start + last->dur);
    }
    m_timeline->setHighlight(std::move(slices));
}

void TraceTab::highlightModule(ModuleId id)
{
    m_pathShown = false;
    m_timeline->setPathChain({});
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

int64_t TraceTab::stepNumber() const
{
    return m_step < 0 ? kNoValue : m_trace->graph->steps()[size_t(m_step)].number;
}

void TraceTab::setStep(int stepIndex)
{
    m_step = stepIndex;
    if (stepIndex < 0) {
        m_timeline->showAll();
    } else {
        const ProfilerStep &step = m_trace->graph->steps()[size_t(stepIndex)];
        m_timeline->zoomToInterval(step.start, step.end);
    }
    const int64_t number = stepNumber();
    if (m_pairs)
        m_pairs->setStepNumber(number);
    if (m_kernels)
        m_kernels->setStepNumber(number);
    m_api->setStepNumber(number);
    m_operators->setStepNumber(number);
    if (m_charts)
        m_charts->setStepNumber(number);
    if (m_modules)
        m_modules->selectStep(
            number == kNoValue ? ModuleTree::kWholeTrace : m_trace->modules().stepIndex(number));
}

void TraceTab::showSelection(SliceId slice)
{
    // The tables follow the selection without feeding their change back into it.
    if (m_pairs)
        m_pairs->showSelection(slice);
    if (m_kernels)
        m_kernels->showSelection(slice);
}

void TraceTab::startFind()
{
    m_toolbar->startFind();
}

} // namespace ks
