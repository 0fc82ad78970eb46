// SPDX-License-Identifier: MIT
#include "table/tablemodel.h"

#include "common/qstrings.h"
#include "common/timeformat.h"

#include <cmath>
#include <numeric>

namespace ks {

TableModel::TableModel(
    std::shared_ptr<const Table> table, std::vector<size_t> filterColumns, QObject *parent)
    : QAbstractTableModel(parent)
    , m_table(std::move(table))
    , m_filterColumns(std::move(filterColumns))
{
    std::vector<uint32_t> rows(m_table->rowCount());
    std::iota(rows.begin(), rows.end(), 0);
    applyRows(std::move(rows));
}

TableModel::~TableModel() = default;

int TableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_table->columnCount());
}

QVariant TableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_rows.size())
        return {};
    const uint32_t row = m_rows[size_t(index.row())];
    const auto column = size_t(index.column());
    switch (role) {
    case Qt::DisplayRole: {
        if (isRelativeTime(column)) {
            const double t = m_table->number(row, column);
            return std::isnan(t) ? QString() : formatDuration(t - double(*m_timeOrigin));
        }
        const std::string text = m_table->text(row, column);
        if (isBytes(column) && !text.empty())
            return formatBytes(m_table->number(row, column));
        return toQString(text);
    }
    case Qt::ToolTipRole: {
        if (isBytes(column)) {
            const std::string text = m_table->text(row, column);
            return text.empty() ? QVariant() : tr("%1 bytes").arg(toQString(text));
        }
        if (!isRelativeTime(column))
            return {};
        const std::string text = m_table->text(row, column);
        return text.empty()
            ? QVariant()
            : tr("since the trace's start; ts %1 µs in the file").arg(QString::fromStdString(text));
    }
    case Qt::TextAlignmentRole:
        return m_table->isNumeric(column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                          : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case SourceRowRole:
        return row;
    case Qt::BackgroundRole:
    case Qt::ForegroundRole:
        return m_rowRoles ? m_rowRoles(row, role) : QVariant();
    case SortRole:
        return m_table->sortsByNumber(column)
            ? QVariant(m_table->number(row, column))
            : QVariant(QString::fromStdString(m_table->text(row, column)));
    default:
        return {};
    }
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    // A person reads the title; the tooltip names the column as exports and scripts know it.
    if (role == Qt::DisplayRole)
        return toQString(m_table->columnTitle(size_t(section)));
    if (role == Qt::ToolTipRole)
        return tr("%1 in exports").arg(toQString(m_table->columnName(size_t(section))));
    // Numbers are looked at largest first: the first click on their header sorts descending.
    if (role == Qt::InitialSortOrderRole)
        return m_table->sortsByNumber(size_t(section)) ? Qt::DescendingOrder : Qt::AscendingOrder;
    return QAbstractTableModel::headerData(section, orientation, role);
}

bool TableModel::isBytes(size_t column) const
{
    return m_table->columns()[column].cell == Cell::Bytes;
}

bool TableModel::isRelativeTime(size_t column) const
{
    return m_timeOrigin && m_table->columns()[column].cell == Cell::Timestamp;
}

void TableModel::sort(int column, Qt::SortOrder order)
{
    m_query.sortColumn = column;
    m_query.order = order;
    arrange();
}

void TableModel::setFilter(const QString &text, bool regex, RowPredicate keep)
{
    m_query.text = text;
    m_query.regex = regex;
    m_query.keep = std::move(keep);
    arrange();
}

void TableModel::arrange()
{
    if (m_table->rowCount() <= kSyncRows) {
        m_task.cancel(); // a large table's worker, if the query shrank it: superseded
        applyRows(arrangeRows(*m_table, m_filterColumns, m_query));
        emit filterApplied();
        return;
    }
    // Values only: the table (shared, frozen), the columns and the query, never this.
    m_task.run(
        [table = m_table, columns = m_filterColumns, query = m_query](
            const std::atomic<bool> &stop) { return arrangeRows(*table, columns, query, &stop); },
        [this](std::vector<uint32_t> rows) {
            applyRows(std::move(rows));
            emit filterApplied();
        });
}

void TableModel::applyRows(std::vector<uint32_t> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_viewRowOf.assign(m_table->rowCount(), -1);
    for (size_t i = 0; i < m_rows.size(); ++i)
        m_viewRowOf[m_rows[i]] = int(i);
    endResetModel();
}

int TableModel::viewRowOf(uint32_t sourceRow) const
{
    return sourceRow < m_viewRowOf.size() ? m_viewRowOf[sourceRow] : -1;
}

} // namespace ks
