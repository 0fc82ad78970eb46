// SPDX-License-Identifier: MIT
#include "trace/summarypage.h"

#include "table/tablemodel.h"
#include "table/tableview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace ks {

SummaryPage::SummaryPage(const QString &objectName,
    Build build,
    const QStringList &modes,
    const QString &filterHint,
    QWidget *parent)
    : QWidget(parent)
    , m_build(std::move(build))
    , m_filter(new QLineEdit(this))
    , m_status(new QLabel(this))
    , m_view(makeTableView(this, objectName))
    , m_task(this)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    auto *bar = new QHBoxLayout;
    if (!modes.isEmpty()) {
        m_modeBox = new QComboBox(this);
        m_modeBox->setObjectName(objectName + QStringLiteral("Mode"));
        m_modeBox->addItems(modes);
        bar->addWidget(m_modeBox);
        connect(m_modeBox, &QComboBox::currentIndexChanged, this, &SummaryPage::rebuild);
    }
    m_filter->setPlaceholderText(filterHint);
    m_filter->setClearButtonEnabled(true);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_status);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setInterval(150);
    connect(m_filter, &QLineEdit::textChanged, timer, qOverload<>(&QTimer::start));
    connect(timer, &QTimer::timeout, this, &SummaryPage::applyFilter);
}

SummaryPage::~SummaryPage() = default;

void SummaryPage::setStepNumber(int64_t number)
{
    if (number == m_step)
        return;
    m_step = number;
    rebuild();
}

void SummaryPage::setMode(int mode)
{
    if (m_modeBox)
        m_modeBox->setCurrentIndex(mode); // rebuilds
}

void SummaryPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        rebuild();
}

void SummaryPage::rebuild()
{
    m_stale = !isVisible();
    if (m_stale)
        return;
    m_building = true;
    m_status->setText(tr("Summing…"));
    const int mode = m_modeBox ? m_modeBox->currentIndex() : 0;
    m_task.run(
        [build = m_build, step = m_step, mode](const std::atomic<bool> &) {
            return std::make_shared<const CellTable>(build(step, mode));
        },
        [this](std::shared_ptr<const CellTable> table) {
            m_building = false;
            m_status->clear();
            TableModel *old = m_model;
            m_model = new TableModel(std::move(table), {0}, this);
            QItemSelectionModel *oldSelection = m_view->selectionModel();
            m_view->setModel(m_model);
            delete oldSelection; // the view does not delete it
            delete old;
            m_view->setColumnWidth(0, 360);
            hideEmptyColumns();
            applyFilter();
            emit built();
        },
        [this](const QString &why) {
            m_building = false;
            m_status->setText(why);
        });
}

void SummaryPage::hideEmptyColumns()
{
    const Table &table = m_model->table();
    for (size_t c = 0; c < table.columns().size(); ++c) {
        bool empty = true;
        for (size_t r = 0; r < table.rowCount() && empty; ++r)
            empty = table.text(r, c).empty();
        m_view->setColumnHidden(int(c), empty && table.rowCount() > 0);
    }
}

void SummaryPage::applyFilter()
{
    if (m_model)
        m_model->setFilter(m_filter->text(), false);
}

} // namespace ks
