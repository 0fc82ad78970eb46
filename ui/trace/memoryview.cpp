// SPDX-License-Identifier: MIT
#include "trace/memoryview.h"

#include "common/selectioncontroller.h"
#include "common/timeformat.h"
#include "export/allocationtable.h"
#include "table/tablemodel.h"
#include "table/tableview.h"
#include "trace/livememorypanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace ks {

namespace {
QString peakText(int64_t bytes)
{
    if (bytes == kNoValue)
        return MemoryView::tr("not recorded");
    return formatBytes(double(bytes));
}
} // namespace

MemoryView::MemoryView(SelectionController *selection, QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_index(&selection->trace().memory())
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    m_summary = new QLabel(summary(), this);
    m_summary->setObjectName(QStringLiteral("memorySummary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    auto *vertical = new QSplitter(Qt::Vertical, this);
    m_live = new LiveMemoryPanel(selection, vertical);
    vertical->addWidget(m_live);
    auto *lower = new QWidget(vertical);
    auto *lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    auto *filter = new QLineEdit(lower);
    filter->setPlaceholderText(tr("Filter ops, pairs, devices or categories"));
    filter->setClearButtonEnabled(true);
    lowerLayout->addWidget(filter);
    vertical->addWidget(lower);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);
    layout->addWidget(vertical, 1);

    auto *splitter = new QSplitter(Qt::Horizontal, lower);
    m_allocationView = makeTableView(splitter, QStringLiteral("allocationTable"));
    m_allocationModel = new TableModel(std::make_shared<AllocationTable>(*m_index),
        {AllocationTable::Device, AllocationTable::AllocOp, AllocationTable::FreeOp,
            AllocationTable::PairFwdName},
        this);
    m_allocationModel->setTimeOrigin(selection->trace().model->minTime);
    m_allocationView->setModel(m_allocationModel);
    // Unsorted: in time order.
    m_opView = makeTableView(splitter, QStringLiteral("memoryByOpTable"));
    auto *ops = new TableModel(std::make_shared<CellTable>(opMemoryTable(*m_index)), {0}, this);
    m_opView->setModel(ops);
    m_opView->resizeColumnsToContents(); // unsorted: largest first
    splitter->addWidget(m_allocationView);
    splitter->addWidget(m_opView);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    lowerLayout->addWidget(splitter, 1);

    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setInterval(150);
    connect(filter, &QLineEdit::textChanged, timer, qOverload<>(&QTimer::start));
    connect(timer, &QTimer::timeout, this, [this, ops, filter] {
        m_allocationModel->setFilter(filter->text(), false);
        ops->setFilter(filter->text(), false);
        m_live->setFilter(filter->text());
    });
    connect(m_allocationView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (!current.isValid())
                return;
            const uint32_t row = current.data(TableModel::SourceRowRole).toUInt();
            const SliceId op = m_index->allocations()[row].op;
            if (op != kNoSlice)
                m_selection->select(op);
        });
}

MemoryView::~MemoryView() = default;

QString MemoryView::summary() const
{
    QStringList parts;
    for (const MemoryDevice &d : m_index->devices())
        parts << tr("%1: %n allocation(s), peak allocated %2, peak reserved %3", nullptr,
            int(d.allocations))
                     .arg(QString::fromStdString(memoryDeviceName(d.deviceType, d.deviceId)),
                         peakText(d.peakAllocated), peakText(d.peakReserved));
    QString text = parts.join(QStringLiteral(" · "));
    if (m_index->outOfMemoryEvents() > 0)
        text += tr(" · %n failed allocation(s) ([OutOfMemory])", nullptr,
            int(m_index->outOfMemoryEvents()));
    if (m_index->noAddress() > 0)
        text += tr(" · this trace does not record addresses: frees cannot be matched");
    return text;
}

} // namespace ks
