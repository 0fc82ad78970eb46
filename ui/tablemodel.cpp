// SPDX-License-Identifier: MIT
#include "tablemodel.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

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
        const std::string text = m_table->text(row, column);
        return QString::fromUtf8(text.data(), qsizetype(text.size()));
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
    auto qs = [](std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); };
    // A person reads the title; the tooltip names the column as exports and scripts know it.
    if (role == Qt::DisplayRole)
        return qs(m_table->columnTitle(size_t(section)));
    if (role == Qt::ToolTipRole)
        return tr("%1 in exports").arg(qs(m_table->columnName(size_t(section))));
    return QAbstractTableModel::headerData(section, orientation, role);
}

void TableModel::sortRows(std::vector<uint32_t> &rows) const
{
    if (m_sortColumn < 0)
        return;
    const auto column = size_t(m_sortColumn);
    const bool descending = m_sortOrder == Qt::DescendingOrder;
    // Keys once per row, then an index sort: cheap compares even for a million rows.
    if (m_table->sortsByNumber(column)) {
        std::vector<double> keys(m_table->rowCount(), std::nan(""));
        for (uint32_t r : rows)
            keys[r] = m_table->number(r, column);
        std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
            const double x = keys[a], y = keys[b];
            if (std::isnan(x) || std::isnan(y))
                return !std::isnan(x) && std::isnan(y); // empty cells last either way
            return descending ? x > y : x < y;
        });
    } else if (std::string_view probe;
               m_table->textView(rows.empty() ? 0 : rows.front(), column, probe)) {
        // Stored strings repeat (op names, dims): rank the distinct ones by text once, keyed by
        // their storage address, then sort the rows by an integer rank.
        std::unordered_map<const char *, uint32_t> idOf;
        std::vector<std::string_view> distinct;
        std::vector<uint32_t> keys(m_table->rowCount());
        for (uint32_t r : rows) {
            std::string_view view;
            m_table->textView(r, column, view);
            auto [it, inserted] = idOf.try_emplace(view.data(), uint32_t(distinct.size()));
            if (inserted)
                distinct.push_back(view);
            keys[r] = it->second;
        }
        std::vector<uint32_t> byText(distinct.size());
        std::iota(byText.begin(), byText.end(), 0);
        std::sort(byText.begin(), byText.end(),
            [&](uint32_t a, uint32_t b) { return distinct[a] < distinct[b]; });
        std::vector<uint32_t> rank(distinct.size());
        for (uint32_t i = 0; i < byText.size();
             ++i) // equal texts at different addresses share a rank
            rank[byText[i]]
                = i > 0 && distinct[byText[i]] == distinct[byText[i - 1]] ? rank[byText[i - 1]] : i;
        for (uint32_t r : rows)
            keys[r] = rank[keys[r]];
        std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
            return descending ? keys[b] < keys[a] : keys[a] < keys[b];
        });
    } else {
        std::vector<std::string> keys(m_table->rowCount());
        for (uint32_t r : rows)
            keys[r] = m_table->text(r, column);
        std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
            return descending ? keys[b] < keys[a] : keys[a] < keys[b];
        });
    }
}

void TableModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    std::vector<uint32_t> rows = m_rows;
    sortRows(rows);
    applyRows(std::move(rows));
}

std::vector<uint32_t> TableModel::filtered(
    const QString &text, bool regex, const RowPredicate &keep) const
{
    std::vector<uint32_t> rows;
    const size_t n = m_table->rowCount();
    if (text.isEmpty()) {
        for (uint32_t r = 0; r < n; ++r) {
            if (!keep || keep(r))
                rows.push_back(r);
        }
        return rows;
    }
    const QRegularExpression re(
        regex ? text : QRegularExpression::escape(text), QRegularExpression::CaseInsensitiveOption);
    if (!re.isValid())
        return rows;
    const std::string needle = text.toLower().toStdString();
    for (uint32_t r = 0; r < n; ++r) {
        if (keep && !keep(r))
            continue;
        for (size_t c : m_filterColumns) {
            const std::string cell = m_table->text(r, c);
            bool hit;
            if (regex) {
                hit = re.match(QString::fromUtf8(cell.data(), qsizetype(cell.size()))).hasMatch();
            } else {
                // Plain substring, ASCII case folding: no QString per cell.
                hit = std::search(cell.begin(), cell.end(), needle.begin(), needle.end(),
                          [](char a, char b) { return std::tolower(uint8_t(a)) == b; })
                    != cell.end();
            }
            if (hit) {
                rows.push_back(r);
                break;
            }
        }
    }
    return rows;
}

void TableModel::setFilter(const QString &text, bool regex, RowPredicate keep)
{
    const uint64_t generation = ++m_generation;
    if (m_table->rowCount() <= kSyncFilterRows) {
        std::vector<uint32_t> rows = filtered(text, regex, keep);
        sortRows(rows);
        applyRows(std::move(rows));
        emit filterApplied();
        return;
    }
    ++m_pending;
    auto *watcher = new QFutureWatcher<std::vector<uint32_t>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        --m_pending;
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a newer filter was typed meanwhile
        applyRows(watcher->result());
        emit filterApplied();
    });
    watcher->setFuture(QtConcurrent::run([this, text, regex, keep] {
        std::vector<uint32_t> rows = filtered(text, regex, keep);
        sortRows(rows);
        return rows;
    }));
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
