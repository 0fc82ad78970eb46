// SPDX-License-Identifier: MIT
#include "trace/kerneltablepage.h"

#include "common/selectioncontroller.h"
#include "table/tablemodel.h"
#include "table/tableview.h"

#include <QLineEdit>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace ks {

KernelTablePage::KernelTablePage(SelectionController *selection, QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_view(makeTableView(this, QStringLiteral("kernelTable")))
    , m_model(new TableModel(selection->trace().kernelTable(),
          {KernelTable::Name, KernelTable::OpName, KernelTable::PairFwdName},
          this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    auto *filter = new QLineEdit(this);
    filter->setPlaceholderText(tr("Filter kernel or op names"));
    filter->setClearButtonEnabled(true);
    layout->addWidget(filter);
    m_model->setTimeOrigin(selection->trace().model->minTime);
    m_view->setModel(m_model);
    m_view->setColumnWidth(KernelTable::Name, 360);
    layout->addWidget(m_view, 1);

    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setInterval(150);
    connect(filter, &QLineEdit::textChanged, timer, qOverload<>(&QTimer::start));
    connect(timer, &QTimer::timeout, this,
        [this, filter] { m_model->setFilter(filter->text(), false); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (m_syncing || !current.isValid())
                return;
            const uint32_t row = current.data(TableModel::SourceRowRole).toUInt();
            m_selection->select(m_selection->trace().graph->gpuEvents()[row]);
        });
    connect(
        m_view, &QTableView::doubleClicked, m_selection, &SelectionController::jumpToCounterpart);
}

void KernelTablePage::showSelection(SliceId slice)
{
    const LoadedTrace &trace = m_selection->trace();
    int viewRow = -1;
    if (slice != kNoSlice && isGpuWork(trace.model->slices.kind[slice])) {
        const auto &gpu = trace.graph->gpuEvents();
        const auto it = std::lower_bound(gpu.begin(), gpu.end(), slice);
        if (it != gpu.end() && *it == slice)
            viewRow = m_model->viewRowOf(uint32_t(it - gpu.begin()));
    }
    m_syncing = true;
    showViewRow(m_view, viewRow);
    m_syncing = false;
}

} // namespace ks
