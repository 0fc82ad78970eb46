// SPDX-License-Identifier: MIT
#include "trace/pairtablepage.h"

#include "common/selectioncontroller.h"
#include "table/tablemodel.h"
#include "table/tableview.h"
#include "trace/chartsview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QShortcut>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace ks {

namespace {

//! Rows the "Checkpointed only" filter keeps.
bool touchedByCheckpointing(const PairRow &row)
{
    return row.recomputations > 0 || row.recomputeGpu.count > 0 || row.recompute;
}

} // namespace

PairTablePage::PairTablePage(SelectionController *selection, QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_trace(selection->tracePointer())
    , m_groups(m_trace->pairGroups())
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->addWidget(buildControls());
    m_view = makeTableView(this, QStringLiteral("pairTable"));
    // An empty table says why it is empty.
    if (m_trace->graph->rows().empty())
        layout->addWidget(noPairsNotice());
    layout->addWidget(m_view, 1);

    m_instanceModel = new TableModel(
        m_trace->pairTable(), {PairTable::FwdName, PairTable::BwdNames, PairTable::Module}, this);
    m_instanceModel->setTimeOrigin(m_trace->model->minTime);
    m_groupModel
        = new TableModel(m_groups, {PairGroupTable::FwdName, PairGroupTable::BwdNames}, this);
    m_model = m_instanceModel;
    attachModel();
    for (TableModel *model : {m_instanceModel, m_groupModel})
        connect(model, &TableModel::filterApplied, this, &PairTablePage::updateRowCount);

    // Filter as you type, debounced; big tables filter on a worker thread.
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setInterval(150);
    connect(m_filter, &QLineEdit::textChanged, timer, qOverload<>(&QTimer::start));
    connect(m_regex, &QCheckBox::toggled, timer, qOverload<>(&QTimer::start));
    connect(m_checkpointed, &QCheckBox::toggled, timer, qOverload<>(&QTimer::start));
    connect(timer, &QTimer::timeout, this, &PairTablePage::applyFilter);

    connect(
        m_view, &QTableView::doubleClicked, m_selection, &SelectionController::jumpToCounterpart);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &PairTablePage::showContextMenu);
    for (const QKeySequence &key : {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(key, m_view, nullptr, nullptr, Qt::WidgetShortcut);
        connect(
            shortcut, &QShortcut::activated, m_selection, &SelectionController::jumpToCounterpart);
    }
}

QWidget *PairTablePage::buildControls()
{
    auto *bar = new QWidget(this);
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(6, 0, 6, 0);
    m_mode = new QComboBox(bar);
    m_mode->setObjectName(QStringLiteral("pairMode"));
    m_mode->addItems({tr("Instances"), tr("Groups (op + input dims)")});
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this](int i) { setGroupMode(i == 1); });
    row->addWidget(m_mode);
    m_filter = new QLineEdit(bar);
    m_filter->setObjectName(QStringLiteral("pairFilter"));
    m_filter->setPlaceholderText(tr("Filter op names (substring; regex when ticked)"));
    m_filter->setClearButtonEnabled(true);
    row->addWidget(m_filter, 1);
    m_regex = new QCheckBox(tr("Regex"), bar);
    row->addWidget(m_regex);
    m_checkpointed = new QCheckBox(tr("Checkpointed only"), bar);
    m_checkpointed->setObjectName(QStringLiteral("checkpointedOnly"));
    const bool hasRecompute = !m_trace->graph->recomputations().empty();
    m_checkpointed->setEnabled(hasRecompute);
    m_checkpointed->setToolTip(hasRecompute
            ? tr("Only rows whose forward op was recomputed during backward (activation "
                 "checkpointing), or whose backward nodes ran a recomputation")
            : tr("No activation checkpointing in this trace: no forward work is re-run during "
                 "backward"));
    row->addWidget(m_checkpointed);
    m_rowCount = new QLabel(bar);
    m_rowCount->setObjectName(QStringLiteral("pairRowCount"));
    m_rowCount->setStyleSheet(QStringLiteral("color: palette(mid);"));
    row->addWidget(m_rowCount);
    return bar;
}

void PairTablePage::attachModel()
{
    m_view->setModel(m_model);
    updateRowCount();
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    arrangeColumns();
    fitColumns(m_view);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &PairTablePage::onRowActivated);
}

void PairTablePage::arrangeColumns()
{
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
    for (int c = 0; c < m_model->columnCount(); ++c)
        if (std::find(first.begin(), first.end(), c) == first.end())
            first.push_back(c);
    QHeaderView *header = m_view->horizontalHeader();
    for (int visual = 0; visual < int(first.size()); ++visual)
        header->moveSection(header->visualIndex(first[size_t(visual)]), visual);
}

QLabel *PairTablePage::noPairsNotice()
{
    const LinkStats &s = m_trace->graph->stats();
    const NoPairsReason why = noPairsReason(s);
    QString text = QStringLiteral("<b>%1.</b> %2").arg(why.headline, why.text.toHtmlEscaped());
    if (!s.hasSequenceNumbers && s.gpuEvents > 0)
        text += tr(" GPU time is still split into forward, backward and other: see the GPU events "
                   "table, the per-step chart and the Modules tab.");
    auto *label = new QLabel(text, this);
    label->setObjectName(QStringLiteral("noPairsNotice"));
    label->setWordWrap(true);
    label->setContentsMargins(8, 6, 8, 6);
    return label;
}

void PairTablePage::applyFilter()
{
    // Values, not this: the predicates run on the filter's worker thread.
    std::shared_ptr<const LoadedTrace> trace = m_trace;
    const bool checkpointed = m_checkpointed->isChecked();
    const int64_t step = m_step;
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

void PairTablePage::setStepNumber(int64_t stepNumber)
{
    m_step = stepNumber;
    applyFilter();
    updateRowCount();
}

void PairTablePage::updateRowCount()
{
    const int shown = m_model->rowCount();
    const int all = int(m_model->table().rowCount());
    QString text = shown == all ? tr("%1 rows").arg(all) : tr("%1 of %2 rows").arg(shown).arg(all);
    if (m_groupMode && m_step != kNoValue)
        text += tr(" · groups sum every step");
    m_rowCount->setText(text);
}

void PairTablePage::setGroupMode(bool groups)
{
    if (groups == m_groupMode)
        return;
    m_groupMode = groups;
    m_model = groups ? m_groupModel : m_instanceModel;
    if (m_mode->currentIndex() != int(groups))
        m_mode->setCurrentIndex(int(groups));
    attachModel();
    showSelection(m_selection->current());
}

void PairTablePage::onRowActivated(const QModelIndex &index)
{
    if (m_syncing || !index.isValid())
        return;
    uint32_t pairRow = index.data(TableModel::SourceRowRole).toUInt();
    if (m_groupMode)
        pairRow = m_groups->groups()[pairRow].rows.front();
    const OpGraph &g = *m_trace->graph;
    m_selection->select(g.representativeSlice(g.rows()[pairRow]));
}

void PairTablePage::showContextMenu(const QPoint &at)
{
    const QModelIndex index = m_view->indexAt(at);
    if (!index.isValid())
        return;
    uint32_t pairRow = index.data(TableModel::SourceRowRole).toUInt();
    if (m_groupMode)
        pairRow = m_groups->groups()[pairRow].rows.front();
    const OpGraph &g = *m_trace->graph;
    const SliceId rep = g.representativeSlice(g.rows()[pairRow]);
    if (rep == kNoSlice)
        return;
    const QString name = QString::fromUtf8(
        g.model().sliceName(rep).data(), qsizetype(g.model().sliceName(rep).size()));
    QMenu menu(m_view);
    menu.addAction(tr("Critical path if %1's GPU work were 2× faster").arg(name), this,
        [this, name] { emit whatIfAsked(name, 0.5); });
    menu.addAction(tr("Critical path if %1's GPU work took no time").arg(name), this,
        [this, name] { emit whatIfAsked(name, 0.0); });
    menu.exec(m_view->viewport()->mapToGlobal(at));
}

void PairTablePage::showSelection(SliceId slice)
{
    // A row that no longer shows the selection is deselected, never left highlighted.
    const int r = slice == kNoSlice ? -1 : m_trace->graph->rowOf(slice);
    const int viewRow = r < 0
        ? -1
        : m_model->viewRowOf(m_groupMode ? m_groups->groupOf(uint32_t(r)) : uint32_t(r));
    m_syncing = true;
    showViewRow(m_view, viewRow);
    m_syncing = false;
}

} // namespace ks
