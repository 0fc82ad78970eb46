// SPDX-License-Identifier: MIT
#include "trace/kerneltablepage.h"

#include "analysis/time/kernelsummary.h"
#include "common/selectioncontroller.h"
#include "export/kernelsummarytable.h"
#include "table/tablemodel.h"
#include "table/tableview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace ks {

namespace {
constexpr size_t kSummaryName = 0; // kernelSummaryTable's name as written
constexpr size_t kSummaryDisplayName = 1; // … as the timeline and the events show it
constexpr size_t kSummaryOps = 14; // … and its ops column
} // namespace

KernelTablePage::KernelTablePage(SelectionController *selection, QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_modeBox(new QComboBox(this))
    , m_filter(new QLineEdit(this))
    , m_view(makeTableView(this, QStringLiteral("kernelTable")))
    , m_events(new TableModel(selection->trace().kernelTable(),
          {KernelTable::Name, KernelTable::OpName, KernelTable::PairFwdName},
          this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    auto *bar = new QHBoxLayout;
    m_modeBox->setObjectName(QStringLiteral("kernelMode"));
    m_modeBox->addItems({tr("Events"), tr("Summary by kernel name")});
    bar->addWidget(m_modeBox);
    m_filter->setPlaceholderText(tr("Filter kernel or op names"));
    m_filter->setClearButtonEnabled(true);
    bar->addWidget(m_filter, 1);
    layout->addLayout(bar);
    m_events->setTimeOrigin(selection->trace().model->minTime);
    showModel(m_events);
    layout->addWidget(m_view, 1);

    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setInterval(150);
    connect(m_filter, &QLineEdit::textChanged, timer, qOverload<>(&QTimer::start));
    connect(timer, &QTimer::timeout, this, &KernelTablePage::applyFilter);
    connect(m_modeBox, &QComboBox::currentIndexChanged, this, [this](int i) { setMode(Mode(i)); });
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        if (mode() == Events) {
            m_selection->jumpToCounterpart();
            return;
        }
        // A kernel of the summary: its events.
        const uint32_t row = index.data(TableModel::SourceRowRole).toUInt();
        const QString name
            = QString::fromStdString(m_summary->table().text(row, kSummaryDisplayName));
        setMode(Events);
        m_filter->setText(name);
    });
}

TableModel *KernelTablePage::model() const
{
    return mode() == Summary ? m_summary : m_events;
}

KernelTablePage::Mode KernelTablePage::mode() const
{
    return Mode(m_modeBox->currentIndex());
}

void KernelTablePage::setMode(Mode mode)
{
    if (m_modeBox->currentIndex() != int(mode))
        m_modeBox->setCurrentIndex(int(mode)); // comes back here
    if (mode == Summary && !m_summary)
        rebuildSummary();
    TableModel *wanted = mode == Summary ? m_summary : m_events;
    if (m_view->model() == wanted)
        return;
    showModel(wanted);
    applyFilter();
}

void KernelTablePage::showModel(TableModel *model)
{
    QItemSelectionModel *old = m_view->selectionModel(); // the view does not delete it
    m_view->setModel(model);
    delete old;
    m_view->setColumnWidth(0, 360);
    // Selecting an event selects it everywhere.
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (m_syncing || !current.isValid() || mode() != Events)
                return;
            const uint32_t row = current.data(TableModel::SourceRowRole).toUInt();
            m_selection->select(m_selection->trace().graph->gpuEvents()[row]);
        });
}

void KernelTablePage::setStepNumber(int64_t number)
{
    m_step = number;
    if (m_summary)
        rebuildSummary();
    if (mode() == Events)
        applyFilter();
}

void KernelTablePage::rebuildSummary()
{
    const LoadedTrace &trace = m_selection->trace();
    auto table = std::make_shared<const CellTable>(
        kernelSummaryTable(kernelSummary(*trace.graph, m_step), *trace.model));
    TableModel *old = m_summary;
    m_summary
        = new TableModel(std::move(table), {kSummaryName, kSummaryDisplayName, kSummaryOps}, this);
    if (old && m_view->model() == old) {
        showModel(m_summary);
        applyFilter();
    }
    delete old;
}

void KernelTablePage::applyFilter()
{
    if (mode() == Summary) {
        m_summary->setFilter(m_filter->text(), false); // built for the step already
        return;
    }
    // The events launched in the step, as the summary counts them. Values, not this: the
    // predicate runs on the filter's worker thread.
    TableModel::RowPredicate inStep;
    if (m_step != kNoValue)
        inStep = [trace = m_selection->tracePointer(), step = m_step](uint32_t r) {
            const OpGraph &g = *trace->graph;
            const SliceId launch = g.gpuLaunches()[r];
            return launch != kNoSlice && g.stepAt(g.model().slices.start[launch]) == step;
        };
    m_events->setFilter(m_filter->text(), false, inStep);
}

void KernelTablePage::showSelection(SliceId slice)
{
    if (mode() != Events)
        return;
    const LoadedTrace &trace = m_selection->trace();
    int viewRow = -1;
    if (slice != kNoSlice && isGpuWork(trace.model->slices.kind[slice])) {
        const auto &gpu = trace.graph->gpuEvents();
        const auto it = std::lower_bound(gpu.begin(), gpu.end(), slice);
        if (it != gpu.end() && *it == slice)
            viewRow = m_events->viewRowOf(uint32_t(it - gpu.begin()));
    }
    m_syncing = true;
    showViewRow(m_view, viewRow);
    m_syncing = false;
}

} // namespace ks
